import type { H3Event } from 'h3'
import { ServiceError } from '../../service/errors.js'

/** Query parameters of list routes, each refused with a 400 naming it when malformed (never silently defaulted). */
export function queryParams(event: H3Event) {
  const q = new URL(event.req.url).searchParams
  return {
    /** `limit`: an integer 1…max, `fallback` when absent. */
    limit(fallback = 50, max = 500): number {
      const raw = q.get('limit')
      if (raw === null || raw === '') return fallback
      // Digits only: Number() also reads '0x10', '1e1' and ' 5'.
      const n = /^\d+$/.test(raw) ? Number(raw) : Number.NaN
      if (!Number.isInteger(n) || n < 1 || n > max)
        throw new ServiceError('E_VALIDATION', `limit must be an integer from 1 to ${max}`, {
          issues: [{ path: 'limit', message: `must be an integer from 1 to ${max}` }],
        })
      return n
    },
    /** A parameter restricted to `allowed` values, or undefined when absent. */
    oneOf<T extends string>(name: string, allowed: readonly T[]): T | undefined {
      const raw = q.get(name)
      if (raw === null || raw === '') return undefined
      if (!allowed.includes(raw as T))
        throw new ServiceError('E_VALIDATION', `${name} must be one of ${allowed.join(', ')}`, {
          issues: [{ path: name, message: `must be one of ${allowed.join(', ')}` }],
        })
      return raw as T
    },
    /**
     * A time (ISO 8601, as `created_at` is written), normalised to the stored form, or undefined when absent.
     * Stored times are compared as text, so anything else would list everything or nothing without a word.
     */
    time(name: string): string | undefined {
      const raw = q.get(name)
      if (raw === null || raw === '') return undefined
      const ms = /^\d{4}-\d{2}-\d{2}([T ]\d{2}:\d{2}(:\d{2}(\.\d+)?)?(Z|[+-]\d{2}:?\d{2})?)?$/.test(raw) ? Date.parse(raw) : Number.NaN
      if (Number.isNaN(ms))
        throw new ServiceError('E_VALIDATION', `${name} must be a time such as 2025-01-31T12:00:00.000Z (a created_at)`, {
          issues: [{ path: name, message: 'must be an ISO 8601 time (a created_at)' }],
        })
      return new Date(ms).toISOString()
    },
    /** Seconds: a number 0 or more (`1.5`), required. */
    seconds(name: string): number {
      const raw = q.get(name) ?? ''
      const n = /^\d+(\.\d+)?$/.test(raw) ? Number(raw) : Number.NaN
      if (Number.isNaN(n))
        throw new ServiceError('E_VALIDATION', `${name} must be a number of seconds, 0 or more`, {
          issues: [{ path: name, message: 'must be a number of seconds, 0 or more' }],
        })
      return n
    },
    string: (name: string) => q.get(name) ?? undefined,
    /** A boolean: `true`/`1` or `false`/`0`, `fallback` when absent (Shotstack's `data` defaults to true). */
    flag(name: string, fallback = false): boolean {
      const raw = q.get(name)
      if (raw === null || raw === '') return fallback
      if (raw === 'true' || raw === '1') return true
      if (raw === 'false' || raw === '0') return false
      throw new ServiceError('E_VALIDATION', `${name} must be true or false`, { issues: [{ path: name, message: 'must be true or false' }] })
    },
  }
}
