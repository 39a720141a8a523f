import * as v from 'valibot'
import type { Issue } from '../../core/index.js'
import { show } from '../../core/schema/primitives.js'
import { toIssues } from '../../core/schema/issues.js'
import { checkUrl, type NetworkPolicy } from '../../plugins/lib/net/guard.js'
import { ServiceError } from '../errors.js'

// Request checks the service applies whichever edge a request came through (HTTP routes, submission), so
// they live here rather than in adapters/http, which re-exports them.

/** Validates one of our own request bodies; every issue with its path, 400 `E_VALIDATION`. */
export function parseBody<S extends v.GenericSchema>(schema: S, input: unknown): v.InferOutput<S> {
  const result = checkObject(schema, input)
  if (result.success) return result.output
  throw new ServiceError('E_VALIDATION', `invalid request (${issueCount(result.issues)}): ${describeIssues(result.issues)}`, { issues: result.issues })
}

/**
 * One JSON object against `schema`, its issues' paths under `prefix` (a batch item's `requests[2]`). Anything
 * else is one issue at that path: valibot takes arrays as objects (`["0"]: is not a known field`).
 */
export function checkObject<S extends v.GenericSchema>(
  schema: S,
  input: unknown,
  prefix = '',
): { success: true; output: v.InferOutput<S> } | { success: false; issues: Issue[] } {
  if (!input || typeof input !== 'object' || Array.isArray(input))
    return { success: false, issues: [{ path: prefix, message: `must be a JSON object, got ${show(input)}` }] }
  const result = v.safeParse(schema, input)
  return result.success ? { success: true, output: result.output } : { success: false, issues: toIssues(result.issues, prefix) }
}

export const describeIssues = (issues: Issue[]) => issues.map((i) => `${i.path || '(root)'}: ${i.message}`).join('; ')
const issueCount = (issues: Issue[]) => `${issues.length} issue${issues.length === 1 ? '' : 's'}`

/**
 * A URL the service will call later (callback, webhook) must not point into private networks (SSRF): a
 * 400 naming the field now, rather than deliveries that are refused at connection time.
 */
export async function checkTargetUrl(path: string, url: string | null | undefined, policy: NetworkPolicy): Promise<void> {
  if (!url) return
  const refused = await checkUrl(url, policy)
  if (refused) throw new ServiceError('E_VALIDATION', `${path}: ${refused}`, { issues: [{ path, message: refused }] })
}

/** The longest callback or webhook URL: browsers' and CDNs' common bound, and the most a row should carry. */
export const MAX_CALLBACK_URL = 2048

/**
 * A callback or webhook URL: at most `MAX_CALLBACK_URL` characters (stored with the job or account and sent
 * to on every event, so unbounded it would be up to the whole body limit), then `checkTargetUrl`.
 */
export async function checkCallbackUrl(path: string, url: string | null | undefined, policy: NetworkPolicy): Promise<void> {
  if (url && url.length > MAX_CALLBACK_URL) {
    const message = `must be at most ${MAX_CALLBACK_URL} characters (got ${url.length})`
    throw new ServiceError('E_VALIDATION', `${path}: ${message}`, { issues: [{ path, message }] })
  }
  await checkTargetUrl(path, url, policy)
}
