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
      const n = Number(raw)
      if (!Number.isInteger(n) || n < 1 || n > max) throw new ServiceError('E_VALIDATION', `limit must be an integer from 1 to ${max}`, { issues: [{ path: 'limit', message: `must be an integer from 1 to ${max}` }] })
      return n
    },
    /** A parameter restricted to `allowed` values, or undefined when absent. */
    oneOf<T extends string>(name: string, allowed: readonly T[]): T | undefined {
      const raw = q.get(name)
      if (raw === null || raw === '') return undefined
      if (!allowed.includes(raw as T)) throw new ServiceError('E_VALIDATION', `${name} must be one of ${allowed.join(', ')}`, { issues: [{ path: name, message: `must be one of ${allowed.join(', ')}` }] })
      return raw as T
    },
    string: (name: string) => q.get(name) ?? undefined,
    flag: (name: string) => q.get(name) === 'true' || q.get(name) === '1',
  }
}
