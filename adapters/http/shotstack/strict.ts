import type { H3Event } from 'h3'
import { show } from '../../../core/index.js'
import { ServiceError } from '../../../service/errors.js'
import type { ShotstackRoute } from './mount.js'
import { param } from './params.js'

// Where Shotstack's OpenAPI is stricter than /v1, its surface is too: what its spec refuses is a 400 here
// (a client tested against Shotstack never sees reelforge accept what Shotstack turns away). /v1 keeps its own rules.

const HEX_UUID = /^[0-9a-fA-F]{8}-[0-9a-fA-F]{4}-[0-9a-fA-F]{4}-[0-9a-fA-F]{4}-[0-9a-fA-F]{12}$/
// The Ingest API's source ids: letters and digits in the same 8-4-4-4-12 groups.
const SOURCE_ID = /^[0-9a-zA-Z]{8}-[0-9a-zA-Z]{4}-[0-9a-zA-Z]{4}-[0-9a-zA-Z]{4}-[0-9a-zA-Z]{12}$/

/** The `{id}` pattern of each of Shotstack's paths that has one, by `<api> <path>` as the routes write it. */
const ID_PATTERNS: Record<string, { pattern: RegExp; rule: string }> = {
  'edit /render/:id': { pattern: HEX_UUID, rule: 'a UUID' },
  'edit /templates/:id': { pattern: HEX_UUID, rule: 'a UUID' },
  'serve /assets/:id': { pattern: HEX_UUID, rule: 'a UUID' },
  'serve /assets/render/:id': { pattern: HEX_UUID, rule: 'a UUID' },
  'ingest /sources/:id': { pattern: SOURCE_ID, rule: 'letters and digits in 8-4-4-4-12 groups' },
}

/**
 * The refusal of an `{id}` that cannot match the route's pattern (Shotstack's 400, where a lookup would say 404):
 * a message naming `id` and the rule, or undefined when the id is well formed or the route has none.
 */
export function malformedId(route: Pick<ShotstackRoute, 'api' | 'path'>, event: H3Event): string | undefined {
  const rule = ID_PATTERNS[`${route.api} ${route.path}`]
  const id = param(event)
  if (!rule || rule.pattern.test(id)) return undefined
  return `id: must be ${rule.rule} such as 0190a6f2-1c2d-7e3f-8a4b-5c6d7e8f9a0b, got ${show(id)}`
}

/**
 * Shotstack's `Edit` requires `output` (/v1 defaults to mp4): its absence is a 400 naming the field — `output` of a
 * render, `template.output` of a template (`at`).
 */
export function requireOutput(body: unknown, at = ''): void {
  if (!body || typeof body !== 'object' || Array.isArray(body) || (body as { output?: unknown }).output !== undefined) return
  const path = `${at}output`
  const message = 'is required: Shotstack\'s Edit needs an output, e.g. {"format": "mp4", "resolution": "sd"}'
  throw new ServiceError('E_VALIDATION', `${path}: ${message}`, { issues: [{ path, message }] })
}
