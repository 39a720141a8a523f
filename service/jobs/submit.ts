import { outputSize, RenderError, type Compositor, type Issue, type ValidateOptions, type ValidEdit, type Warning } from '../../core/index.js'
import type { Principal } from '../accounts/keys.js'
import type { Billing } from '../billing/billing.js'
import type { ServiceConfig } from '../config.js'
import type { IntegrationStore } from '../destinations/integrations.js'
import { checkDestinations } from '../destinations/schema.js'
import { ServiceError } from '../errors.js'
import type { JobEvents } from './job-events.js'
import type { JobQueue } from '../queue/queue.js'
import { checkCallbackUrl, parseBody } from '../lib/validate.js'
import { checkInputBounds, checkMergeBounds } from './input-bounds.js'
import { checkLimits, knownDuration } from './limits.js'
import { checkSources, sourcePolicy, stitchPath } from './source-policy.js'
import { StitchSchema, stitchToEdit, type StitchRequest } from './stitch.js'
import type { Job, JobKind, JobOptions, JobStore } from './store.js'

export interface SubmitDeps {
  config: ServiceConfig
  jobs: JobStore
  queue: JobQueue
  renderer: Compositor
  billing: Billing
  events: JobEvents
  /** The account's integrations: an s3 destination without credentials is refused (absent: not checked, e.g. saving a template). */
  integrations?: Pick<IntegrationStore, 'hasS3'>
}

/** A request that passed every check: what is stored (as the client sent it) and the edit it renders. */
interface Checked {
  request: unknown
  edit: ValidEdit
  warnings: Warning[]
  callback: string | null
}

/** `template`: the body is a template saved for later renders (see `ValidateOptions`). */
export type CheckOptions = ValidateOptions

/**
 * The checks before anything is stored, in the order clients meet their errors: the stitch body (turned
 * into the edit it means), the size of its merge, the edit, how much input it carries, the service limits (sandbox keys have shorter ones), the sources — a
 * stitch's named by its `clips[i]`, as the client wrote them — the callback URL and `output.destinations`.
 */
export async function check(d: SubmitDeps, principal: Principal, kind: JobKind, body: unknown, opts: CheckOptions = {}): Promise<Checked> {
  const request = kind === 'stitch' ? parseBody(StitchSchema, body) : body
  if (kind !== 'stitch') checkMergeBounds(body, d.config.limits)
  const { edit, warnings, open = [] } = d.renderer.validate(kind === 'stitch' ? stitchToEdit(request as StitchRequest) : body, opts)
  // A template's placeholders fill these fields at render, where they are judged with their values.
  const given = (path: string) => !open.includes(path)
  checkInputBounds(edit, d.config.limits)
  checkLimits(edit, d.config.limits, principal.sandbox)
  await checkSources(edit, sourcePolicy(d.config), kind === 'stitch' ? stitchPath : undefined, given)
  const callback = (kind === 'stitch' ? (request as StitchRequest).callback : edit.callback) ?? null
  // Here, not only in submitJob: validate must refuse the callback a submission would (it said valid: true).
  if (given('callback')) await checkCallbackUrl('callback', callback, d.config.network)
  const integrations = d.integrations
  const hasS3 = integrations && (() => integrations.hasS3(principal.accountId))
  warnings.push(...(await checkDestinations(edit.output.destinations, { network: d.config.network, hasS3, given })))
  return { request, edit, warnings, callback }
}

/**
 * Submits a render or stitch for `principal`: checked, then stored with its credit hold, then queued. A
 * refused request stores nothing; the job is QUEUED when this returns.
 */
export async function submitJob(
  d: SubmitDeps,
  principal: Principal,
  kind: JobKind,
  body: unknown,
  opts: JobOptions = {},
): Promise<{ job: Job; warnings: Warning[] }> {
  const { request, edit, warnings, callback } = await check(d, principal, kind, body)
  // The job and its credit hold commit together: without the credits (402) nothing is queued.
  const job = await d.jobs.transaction(async () => {
    const created = await d.jobs.create({
      accountId: principal.accountId,
      keyId: principal.keyId,
      kind,
      request,
      callback,
      sandbox: principal.sandbox,
      // The service's own convention unless the edge says otherwise (Shotstack's surface counts y up).
      yAxis: opts.yAxis ?? d.config.yAxis,
      api: opts.api ?? 'v1',
      // How it is split over the workers is decided now, once: whoever queues it again follows this.
      segments: d.config.redisUrl ? (d.config.segments ?? 1) : 1,
    })
    await d.billing.holdRender(principal, created.id, { seconds: knownDuration(edit), ...outputSize(edit.output) })
    // render.queued commits with the job: whoever sees the job queued finds its event written.
    await d.events.emit('render.queued', created)
    return created
  })
  d.queue.notify(job.id)
  return { job, warnings }
}

/**
 * The checks of a render submission without the submission (nothing stored, nothing charged). Issues are
 * the verdict here, not an error; anything without issues (a 415, a crash) still throws.
 */
export async function dryRun(
  d: SubmitDeps,
  principal: Principal,
  body: unknown,
  opts: CheckOptions = {},
): Promise<{ valid: boolean; issues: Issue[]; warnings: Warning[] }> {
  try {
    const { warnings } = await check(d, principal, 'render', body, opts)
    return { valid: true, issues: [], warnings }
  } catch (e) {
    const issues = (e instanceof RenderError || e instanceof ServiceError) && (e.data?.issues as Issue[] | undefined)
    if (!issues) throw e
    return { valid: false, issues, warnings: [] }
  }
}
