import { suite } from 'uvu'
import * as assert from 'uvu/assert'
import { ConnectionWatch } from '../../service/lib/connection-watch.js'
import { logger } from '../../service/log.js'
import { publicText } from '../../service/lib/public-text.js'
import { retrying } from '../../service/lib/retry.js'
import { transientStorageError } from '../../service/storage/storage-retry.js'

// The small parts the outage tests (outage-database.test.ts here, test/adapters/outage-*.e2e.test.ts) rely on,
// each on its own: the watch that logs a dependency's state once per change, the retry loop and what it
// retries, the text clients see, and the logger.

/** A logger whose lines land in `lines` (as `[component] message`). */
function captured(): { lines: string[]; log: ReturnType<typeof logger> } {
  const lines: string[] = []
  const push = (...p: unknown[]) => void lines.push(p.join(' '))
  return { lines, log: { info: push, warn: push, error: push } }
}
const refused = Object.assign(new Error('connect ECONNREFUSED 10.1.2.3:6379'), { code: 'ECONNREFUSED' })

const watch = suite('ConnectionWatch')
watch('one line when a dependency goes, none per further failure, one when every connection that went is back', () => {
  const { lines, log } = captured()
  const w = new ConnectionWatch(log, 'Redis')
  const [a, b] = [{}, {}]
  for (let i = 0; i < 50; i++) w.failed(refused, { retryMs: 1200, member: i % 2 ? a : b })
  assert.equal(lines, ['Redis unreachable (connect ECONNREFUSED 10.1.2.3:6379); retrying in 1.2 s'])
  w.ok(a)
  assert.is(lines.length, 1, 'one connection back is not the dependency back')
  assert.ok(w.down)
  w.ok(b)
  assert.match(lines[1]!, /^Redis reachable again after \d+\.\d s$/)
  w.failed(refused, { startedAt: Date.now() - 1000 })
  assert.is(lines.length, 2, 'a call begun before the recovery says nothing new')
  assert.not.ok(w.down)
  const closing = {}
  w.failed(refused, { member: closing })
  w.forget(closing) // quit while stopping: nothing says Redis is back
  assert.equal([lines.length, w.down], [3, false])
})
watch.run()

const retry = suite('retrying')
retry('tries again through transient failures, gives up past the budget, throws the rest at once', async () => {
  let calls = 0
  const flaky = () => (++calls < 3 ? Promise.reject(refused) : Promise.resolve('in'))
  assert.is(await retrying(flaky, { budgetMs: 10_000, transient: () => true }), 'in')
  assert.is(calls, 3)
  calls = 0
  const denied = Object.assign(new Error('Access Denied'), { name: 'AccessDenied', $metadata: { httpStatusCode: 403 } })
  await retrying(() => (calls++, Promise.reject(denied)), { budgetMs: 10_000, transient: transientStorageError }).catch((e) => assert.is(e, denied))
  assert.is(calls, 1, 'a refusal is not tried again')
  const started = Date.now()
  const gaveUp = await retrying(() => Promise.reject(refused), { budgetMs: 600, transient: transientStorageError, giveUp: () => 'gave up' }).catch((e) => e)
  assert.is(gaveUp, 'gave up')
  assert.ok(Date.now() - started < 1500, 'within the budget')
  for (const e of [refused, { $metadata: { httpStatusCode: 503 } }, { name: 'SlowDown' }, { code: 'EBUSY' }, new AggregateError([refused])])
    assert.ok(transientStorageError(e), JSON.stringify(e))
})
retry.run()

const text = suite('publicText')
text('drops the address of a socket error, keeps what happened', () => {
  assert.is(publicText('upload failed: connect ECONNREFUSED 10.0.0.5:9000'), 'upload failed: connect ECONNREFUSED')
  assert.is(publicText('getaddrinfo ENOTFOUND minio.internal, giving up'), 'getaddrinfo ENOTFOUND, giving up')
  assert.is(publicText('connect ETIMEDOUT ::1:5432 (after 3 tries)'), 'connect ETIMEDOUT (after 3 tries)')
  assert.is(publicText('read ECONNRESET while sending'), 'read ECONNRESET while sending', 'no address there: nothing goes')
})
text.run()

const logs = suite('logger')
logs('text lines read as they always did; REELFORGE_LOG=json makes one JSON object per line', () => {
  const lines: string[] = []
  const saved = { log: console.log, warn: console.warn, error: console.error }
  Object.assign(console, { log: (l: string) => lines.push(l), warn: (l: string) => lines.push(l), error: (l: string) => lines.push(l) })
  const format = process.env.REELFORGE_LOG
  try {
    delete process.env.REELFORGE_LOG
    logger('queue').warn('job x lost its worker;', 're-queued')
    logger('worker', { prefix: false }).info('rendering x (attempt 1)')
    process.env.REELFORGE_LOG = 'json'
    logger('http').error('GET /v1/render failed:', new Error('multi\nline'))
  } finally {
    Object.assign(console, saved)
    process.env.REELFORGE_LOG = format
    if (format === undefined) delete process.env.REELFORGE_LOG
  }
  assert.equal(lines.slice(0, 2), ['[queue] job x lost its worker; re-queued', 'rendering x (attempt 1)'])
  assert.not.match(lines[2]!, /\n/, 'one line')
  const entry = JSON.parse(lines[2]!)
  assert.equal(Object.keys(entry), ['time', 'level', 'component', 'message'])
  assert.equal([entry.level, entry.component], ['error', 'http'])
  assert.match(entry.message, /^GET \/v1\/render failed: Error: multi\nline\n\s+at /)
})
logs.run()
