import { createServer } from 'node:http'
import type { AddressInfo } from 'node:net'
import { createCanvas } from '@napi-rs/canvas'
import { suite } from 'uvu'
import * as assert from 'uvu/assert'
import { bflProvider } from '../../../index.js'
import { aiProvidersFromConfig } from '../../../plugins/index.js'
import { fakeBFL } from '../../helpers/fake-vendors.js'
import { testService, titleEdit } from '../../helpers/service.js'

// A finished job's webhook is written in the transaction that finishes it: whoever reads the job as done finds its
// event in the outbox too, and a crash between the two cannot lose the event (the outbox is at-least-once only for
// what it holds). The event's writing is slowed here so that a write after the commit would show.

type Service = Awaited<ReturnType<typeof testService>>

/** Every event write of `s` waits `ms` first. */
function slowEvents(s: Service, ms: number) {
  const emit = s.webhooks.emit.bind(s.webhooks)
  s.webhooks.emit = async (...args: Parameters<typeof emit>) => {
    await new Promise((r) => setTimeout(r, ms))
    return emit(...args)
  }
}

/** Reads `read` every 10 ms until `settled` holds, 30 s at most (a client polling): the last reading. */
async function poll<T>(read: () => Promise<T>, settled: (v: T) => boolean): Promise<T> {
  let v = await read()
  for (const until = Date.now() + 30_000; !settled(v) && Date.now() < until; v = await read()) await new Promise((r) => setTimeout(r, 10))
  return v
}

/** `s.wallet[method]`, called from a file whose path holds `caller`, first runs a query the database refuses. */
function refuseReads(s: Service, method: 'balance' | 'state', caller: string) {
  const refused = { count: 0 }
  const real = s.wallet[method].bind(s.wallet) as (account: string) => Promise<never>
  s.wallet[method] = async (account: string) => {
    if (new Error().stack?.includes(caller)) {
      refused.count++
      await s.db.get('SELECT * FROM no_such_table')
    }
    return real(account)
  }
  return refused
}

/** Every event the outbox holds, whichever account's. */
const events = async (s: Service) => (await s.db.all<{ event: string }>('SELECT event FROM webhook_deliveries')).map((d) => d.event).sort()
const hook = (events: string[]) => ({ body: { url: 'http://127.0.0.1:1/unused', events, secret: 'x'.repeat(16) } })

const commit = suite('events commit with what they report')
commit('an image batch read as complete has both ai.complete events in the outbox', async () => {
  const bfl = await fakeBFL('#00ff00')
  const s = await testService({ credits: 100, overrides: { providers: [bflProvider({ apiKey: 'bfl-test', baseUrl: bfl.url, pollIntervalMs: 10 })] } })
  try {
    await s.call('PUT', '/v1/webhooks', hook(['ai.complete', 'ai.failed']))
    slowEvents(s, 300)
    const batch = await s.call('POST', '/v1/ai/image/batch', { body: { requests: [{ prompt: 'a kite' }, { prompt: 'a boat' }] } })
    assert.is(batch.status, 202)
    const view = await poll(
      async () => (await s.call('GET', `/v1/ai/image/batch/${batch.body.batchId}`)).body.status,
      (v) => v === 'complete',
    )
    assert.is(view, 'complete')
    assert.equal(await events(s), ['ai.complete', 'ai.complete'])
  } finally {
    await s.close()
    await bfl.close()
  }
})
commit('a render read as COMPLETE has its render.complete in the outbox', async () => {
  const s = await testService({ start: true })
  try {
    await s.call('PUT', '/v1/webhooks', hook(['render.complete', 'render.failed']))
    slowEvents(s, 300)
    const { jobId } = (await s.call('POST', '/v1/render', { body: titleEdit(1, { fps: 12, size: { width: 160, height: 90 } }) })).body
    const status = await poll(
      async () => (await s.call('GET', `/v1/render/${jobId}`)).body.status,
      (v) => v === 'COMPLETE' || v === 'FAILED',
    )
    assert.is(status, 'COMPLETE')
    assert.equal(await events(s), ['render.complete'])
  } finally {
    await s.close()
  }
})
commit('an AI job read as complete has its ai.complete in the outbox', async () => {
  const s = await testService({ start: true, overrides: { aiProviders: aiProvidersFromConfig({}) } })
  try {
    slowEvents(s, 300)
    const body = { prompt: 'a lighthouse keeper finds a map', callback: 'http://127.0.0.1:1/unused' }
    const queued = await s.call('POST', '/v1/ai/text', { key: s.sandbox, body })
    assert.is(queued.status, 202, JSON.stringify(queued.body))
    const read = async () => (await s.call('GET', `/v1/ai/text/${queued.body.id}`, { key: s.sandbox })).body.status
    const status = await poll(read, (v) => v === 'complete' || v === 'failed')
    assert.is(status, 'complete')
    assert.equal(await events(s), ['ai.complete'])
  } finally {
    await s.close()
  }
})
commit('sources read as ready or failed have source.ready and source.failed in the outbox', async () => {
  const png = createCanvas(32, 32).toBuffer('image/png')
  const host = createServer((_, res) => res.writeHead(200, { 'content-type': 'image/png' }).end(png)).listen(0, '127.0.0.1')
  await new Promise((r) => host.once('listening', r))
  const s = await testService({ start: true })
  try {
    await s.call('PUT', '/v1/webhooks', hook(['source.ready', 'source.failed']))
    slowEvents(s, 300)
    const urls = [`http://127.0.0.1:${(host.address() as AddressInfo).port}/logo.png`, 'http://127.0.0.1:9/gone.png']
    const ids: string[] = []
    for (const url of urls) ids.push((await s.call('POST', '/v1/sources', { body: { url } })).body.id)
    const statuses = async () => Promise.all(ids.map(async (id) => (await s.call('GET', `/v1/sources/${id}`)).body.status as string))
    assert.equal(await poll(statuses, (now) => now.join() === 'ready,failed'), ['ready', 'failed'])
    assert.equal(await events(s), ['source.failed', 'source.ready'])
  } finally {
    await s.close()
    host.close()
  }
})
commit('a webhook write that fails rolls back alone: the render still completes (on PostgreSQL too)', async () => {
  const s = await testService({ start: true })
  try {
    await s.call('PUT', '/v1/webhooks', hook(['render.complete']))
    // A statement the database refuses, where the event is written: PostgreSQL aborts the enclosing transaction
    // at the first failed statement unless the write was a savepoint of its own.
    s.outbox.enqueue = async () => {
      await s.db.run('INSERT INTO no_such_table VALUES (1)')
      return 'never'
    }
    const { jobId } = (await s.call('POST', '/v1/render', { body: titleEdit(1, { fps: 12 }) })).body
    const done = await s.waitFor(jobId, ['COMPLETE', 'FAILED'])
    assert.is(done.status, 'COMPLETE', done.error)
    assert.equal(await events(s), [])
  } finally {
    await s.close()
  }
})
commit('an image whose event cannot be written is still complete, and charged (on PostgreSQL too)', async () => {
  const bfl = await fakeBFL('#00ff00')
  const s = await testService({ credits: 100, overrides: { providers: [bflProvider({ apiKey: 'bfl-test', baseUrl: bfl.url, pollIntervalMs: 10 })] } })
  try {
    await s.call('PUT', '/v1/webhooks', hook(['ai.complete', 'ai.failed']))
    s.outbox.enqueue = async () => {
      await s.db.run('INSERT INTO no_such_table VALUES (1)')
      return 'never'
    }
    const image = await s.call('POST', '/v1/ai/image', { body: { prompt: 'a kite' } })
    assert.equal([image.status, image.body.status, image.body.credits_used], [200, 'complete', 5], JSON.stringify(image.body))
    assert.equal(await events(s), [])
  } finally {
    await s.close()
    await bfl.close()
  }
})
commit('an AI job whose event fails on a read is still complete, and charged (on PostgreSQL too)', async () => {
  const s = await testService({ start: true, credits: 100, overrides: { aiProviders: aiProvidersFromConfig({}) } })
  try {
    await s.call('PUT', '/v1/webhooks', hook(['ai.complete', 'ai.failed']))
    // The event reads the balance it reports: a read the database refuses there aborts a PostgreSQL transaction
    // unless the event is a savepoint of its own — and then the charge and the ending were rolled back unseen.
    const refused = refuseReads(s, 'balance', 'execute')
    const queued = await s.call('POST', '/v1/ai/speech', { body: { text: 'Seven boats sailed out.', format: 'wav' } })
    assert.is(queued.status, 202, JSON.stringify(queued.body))
    const read = async () => (await s.call('GET', `/v1/ai/speech/${queued.body.id}`)).body
    const done = await poll(read, (v) => v.status === 'complete' || v.status === 'failed')
    assert.is(refused.count, 1, 'the event read the balance once')
    assert.is(done.status, 'complete', JSON.stringify(done))
    assert.ok(done.credits_used > 0, 'and charged')
    assert.equal(await events(s), [])
  } finally {
    await s.close()
  }
})
commit('a render whose event fails on a read is still complete (on PostgreSQL too)', async () => {
  const s = await testService({ start: true })
  try {
    await s.call('PUT', '/v1/webhooks', hook(['render.complete']))
    // render.complete reports the balance: a read the database refuses there must roll back alone, as a failed
    // write does, or PostgreSQL drops the completion with it.
    const refused = refuseReads(s, 'state', 'webhooks')
    const { jobId } = (await s.call('POST', '/v1/render', { body: titleEdit(1, { fps: 12 }) })).body
    const done = await s.waitFor(jobId, ['COMPLETE', 'FAILED'])
    assert.is(done.status, 'COMPLETE', done.error)
    assert.is(refused.count, 1, 'the event read the balance once')
    assert.equal(await events(s), [])
  } finally {
    await s.close()
  }
})
commit.run()
