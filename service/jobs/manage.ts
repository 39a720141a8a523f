import type { Principal } from '../accounts/keys.js'
import { ServiceError } from '../errors.js'
import type { JobQueue } from '../queue/queue.js'
import { failJob, type SettleDeps } from './settle.js'
import type { Job } from './store.js'

const UUID = /^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/i

/**
 * A caller's render by id. Another account's job — or, to a sandbox key, a live one — is reported exactly
 * like a missing one, so ids reveal nothing.
 */
export async function findRender(d: Pick<SettleDeps, 'jobs'>, principal: Principal, id: string): Promise<Job> {
  const job = UUID.test(id) ? await d.jobs.getFor(id.toLowerCase(), principal.accountId, principal.sandbox) : undefined
  if (!job) throw new ServiceError('E_NOT_FOUND', `no render ${id}`)
  return job
}

/** Cancels a caller's queued or running render; it ends FAILED with error "cancelled". Returns it as it ended. */
export async function cancelRender(d: SettleDeps & { queue: JobQueue }, principal: Principal, id: string): Promise<Job> {
  const job = await findRender(d, principal, id)
  if (job.status === 'COMPLETE' || job.status === 'FAILED') throw new ServiceError('E_CONFLICT', `render ${job.id} already ended (${job.status})`)
  await d.jobs.requestCancel(job.id, principal.accountId)
  // Failed at once: claims skip it, and a worker rendering it (here, or elsewhere on its next
  // heartbeat) stops — its own completion or failure can no longer overwrite this.
  await failJob(d, job.id, null, 'cancelled', true)
  d.queue.cancel(job.id)
  return (await d.jobs.get(job.id))!
}
