import * as v from 'valibot'
import { applyMerge, BoolLike, type Issue, type Warning } from '../../core/index.js'
import { checkUrl, type NetworkPolicy } from '../../plugins/index.js'
import type { DestinationRecord } from '../api-types.js'
import { ServiceError } from '../errors.js'
import { describeIssues } from '../lib/validate.js'

// `output.destinations` (Shotstack's field): where a finished render's files go besides reelforge's own
// storage. The edit schema (core/schema/output.ts) takes any `{ provider, … }`; what reelforge can send is
// checked here, at submission, by provider.

export const CANNED_ACLS = [
  'private',
  'public-read',
  'public-read-write',
  'authenticated-read',
  'aws-exec-read',
  'bucket-owner-read',
  'bucket-owner-full-control',
] as const

/** `{ provider: "s3", options }`: Shotstack's S3DestinationOptions, plus `endpoint` for S3-compatible services. */
export const S3OptionsSchema = v.looseObject({
  bucket: v.pipe(v.string(), v.regex(/^[A-Za-z0-9][A-Za-z0-9._-]{1,254}$/, 'must be a bucket name (letters, digits, dots, hyphens, underscores)')),
  region: v.optional(v.pipe(v.string(), v.regex(/^[a-z0-9-]{1,40}$/, 'must be a region name such as us-east-1'))),
  prefix: v.optional(
    v.pipe(
      v.string(),
      v.maxLength(512),
      v.check((s) => !s.includes('\u0000'), 'must not contain NUL characters'),
    ),
  ),
  filename: v.optional(v.pipe(v.string(), v.minLength(1), v.maxLength(255), v.regex(/^[^/\u0000]+$/, 'must be a file name without "/" (use prefix)'))),
  acl: v.optional(v.picklist(CANNED_ACLS, `must be a canned ACL: ${CANNED_ACLS.join(', ')}`)),
  endpoint: v.optional(v.pipe(v.string(), v.regex(/^https?:\/\/[^\s/]+\/?$/i, 'must be an http(s) origin such as https://s3.example.com'))),
})
export type S3Options = v.InferOutput<typeof S3OptionsSchema>

const S3Schema = v.looseObject({ provider: v.literal('s3'), options: S3OptionsSchema })
const ShotstackSchema = v.looseObject({ provider: v.literal('shotstack'), exclude: v.optional(BoolLike) })

/** A destination as the copy uses it; any other provider is kept by name only (reported failed). */
export type Destination = { provider: 's3'; options: S3Options } | { provider: 'shotstack'; exclude?: boolean } | { provider: string; unsupported: true }

/** Where the list sits in the request: an edit's `output.destinations`, or a Serve transfer's `destinations`. */
export const pathOf = (i: number, at = 'output.destinations') => `${at}[${i}]`

/** Parses one destination; `issues` gets what is wrong with it (paths under `<at>[i]`). */
export function parseDestination(raw: unknown, i: number, issues: Issue[], at?: string): Destination {
  const provider = String((raw as { provider?: unknown })?.provider ?? '')
  const schema = provider === 's3' ? S3Schema : provider === 'shotstack' ? ShotstackSchema : undefined
  if (!schema) return { provider, unsupported: true }
  const parsed = v.safeParse(schema, raw)
  if (parsed.success) return parsed.output as Destination
  for (const issue of parsed.issues) {
    const keys = (issue.path ?? []).map((p) => (typeof p.key === 'number' ? `[${p.key}]` : `.${String(p.key)}`)).join('')
    issues.push({ path: `${pathOf(i, at)}${keys}`, message: issue.message })
  }
  return { provider, unsupported: true }
}

/** A job's destinations as submitted, merge fields applied (a stitch's `output` has no merge). */
export function destinationsOf(request: unknown): Destination[] {
  const r = request as { output?: { destinations?: unknown }; merge?: { find: string; replace: unknown }[] }
  const raw = r?.output?.destinations
  if (!Array.isArray(raw) || raw.length === 0) return []
  const merged = applyMerge(raw, Array.isArray(r.merge) ? r.merge : undefined).value
  return merged.map((d, i) => parseDestination(d, i, []))
}

/**
 * The submission check: every destination well formed, s3 endpoints outside private networks (unless the
 * operator allows them) and — when `hasS3` is given — the account's S3 credentials set, else a 400 naming
 * `output.destinations[i]` (or `<at>[i]`). Providers reelforge cannot send to are accepted with a warning. A field
 * that `given` says is not there yet (a template's placeholder fills it) is judged when a render merges it.
 */
export async function checkDestinations(
  raw: readonly unknown[] | undefined,
  opts: { network: NetworkPolicy; hasS3?: () => Promise<boolean>; at?: string; given?: (path: string) => boolean },
): Promise<Warning[]> {
  const pathOfItem = (i: number) => pathOf(i, opts.at)
  const issues: Issue[] = []
  const warnings: Warning[] = []
  let s3: boolean | undefined
  for (const [i, item] of (raw ?? []).entries()) {
    const d = parseDestination(item, i, issues, opts.at)
    if ('unsupported' in d) {
      if (issues.some((x) => x.path.startsWith(pathOfItem(i)))) continue
      warnings.push({ path: `${pathOfItem(i)}.provider`, message: `reelforge cannot send to "${d.provider}": this destination will be reported failed` })
    } else if (d.provider === 's3') {
      const { endpoint } = (d as { options: S3Options }).options
      const refused = endpoint && (await checkUrl(endpoint, opts.network))
      if (refused) issues.push({ path: `${pathOfItem(i)}.options.endpoint`, message: refused })
      if (opts.hasS3 && !(s3 ??= await opts.hasS3()))
        issues.push({ path: pathOfItem(i), message: "an s3 destination needs the account's S3 credentials: set them with PUT /v1/integrations/s3" })
    }
  }
  const real = issues.filter((x) => opts.given?.(x.path) !== false)
  if (real.length)
    throw new ServiceError('E_VALIDATION', `invalid request (${real.length} destination issue${real.length === 1 ? '' : 's'}): ${describeIssues(real)}`, {
      issues: real,
    })
  return warnings
}

/** The status of destinations no copy has reported on: waiting, or never sent because the render failed. */
export const unsentRecords = (destinations: readonly Destination[], failed: boolean): DestinationRecord[] =>
  destinations.map((d) =>
    failed ? { provider: d.provider, status: 'failed', error: 'not sent: the render failed' } : { provider: d.provider, status: 'pending' },
  )
