import type { Principal } from '../accounts/keys.js'
import type { RenderStatusRecord } from '../api-types.js'
import { findRender } from './manage.js'
import { type JobStore, toStatus } from './store.js'

/** How often the job's row is read: progress is written by whichever process renders it, here or a worker. */
const EVERY_MS = 250

/**
 * A render's life as it happens, for `GET /v1/render/{id}/events`: its record now, then each time status, stage
 * or progress (to the percent) changes, ending with the final record (COMPLETE or FAILED). Read from the
 * database, so renders on BullMQ workers are followed the same way. Stops when `signal` aborts.
 */
export async function* renderEvents(d: { jobs: JobStore }, p: Principal, id: string, signal: AbortSignal): AsyncGenerator<RenderStatusRecord> {
  let last = ''
  for (;;) {
    const record = toStatus(await findRender(d, p, id))
    const key = `${record.status} ${record.stage} ${Math.floor(record.progress * 100)}`
    if (key !== last) yield record
    last = key
    if (record.status === 'COMPLETE' || record.status === 'FAILED' || signal.aborted) return
    await new Promise<void>((resolve) => {
      const timer = setTimeout(resolve, EVERY_MS)
      signal.addEventListener('abort', () => (clearTimeout(timer), resolve()), { once: true })
    })
    if (signal.aborted) return
  }
}
