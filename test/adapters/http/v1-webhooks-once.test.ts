import { test } from 'uvu'
import * as assert from 'uvu/assert'
import { createService } from '../../../adapters/http/create-service.js'
import { startReceiver } from '../../helpers/receiver.js'
import { testService, titleEdit } from '../../helpers/service.js'

// Several front ends on one database each hear every job event (each listens to the shared queue): an event is
// written to the outbox once per receiver, whoever emits it, so receivers see one `webhook-id` per event.

test('two front ends on one store hear the same events: one delivery per receiver and event, one id; each attempt its own', async () => {
  const rx = await startReceiver()
  const one = await testService()
  const two = await createService(one.config) // the same database: a second front end
  try {
    await one.call('PUT', '/v1/webhooks', { body: { url: `${rx.url}/global`, events: ['render.processing', 'ai.complete'], secret: 's'.repeat(24) } })
    const { jobId } = (await one.call('POST', '/v1/render', { body: { ...titleEdit(1), callback: `${rx.url}/cb` } })).body
    const fronts = [one, two]

    // Both hear BullMQ start the job (its first attempt): one records it; both emit anyway, at once.
    const started = await Promise.all(fronts.map((f) => f.jobs.start(jobId, 'bullmq', 1)))
    assert.equal(started.filter(Boolean).length, 1, 'one front end records the start')
    const job = (await one.jobs.get(jobId))!
    assert.is(job.attempts, 1)
    await Promise.all(fronts.map((f) => f.events.emit('render.processing', job)))
    await Promise.all(fronts.map((f) => f.outbox.tick()))
    const processing = () => rx.received.filter((r) => r.json?.event === 'render.processing')
    assert.equal(
      processing()
        .map((r) => r.path)
        .sort(),
      ['/cb', '/global'],
      'one delivery to the callback, one to the global webhook',
    )
    const listed = (await one.call('GET', '/v1/webhooks/deliveries?event=render.processing')).body.deliveries as { id: string }[]
    assert.equal(
      listed.map((d) => d.id).sort(),
      processing()
        .map((r) => r.headers['webhook-id'])
        .sort(),
      "each delivery's id is its webhook-id",
    )

    // Started again (a stalled worker's job taken by another): a new attempt, a new event, again once.
    assert.equal((await Promise.all(fronts.map((f) => f.jobs.start(jobId, 'bullmq', 2)))).filter(Boolean).length, 1)
    assert.is((await Promise.all(fronts.map((f) => f.jobs.start(jobId, 'bullmq', 1)))).filter(Boolean).length, 0, 'an old start heard late changes nothing')
    const again = (await one.jobs.get(jobId))!
    assert.is(again.attempts, 2)
    await Promise.all(fronts.map((f) => f.events.emit('render.processing', again)))
    await Promise.all(fronts.map((f) => f.outbox.tick()))
    assert.equal(
      processing().map((r) => r.json.data.attempt),
      [1, 1, 2, 2],
    )
    assert.is(new Set(processing().map((r) => r.headers['webhook-id'])).size, 4)

    // Any keyed event: every emitter gets the same delivery ids. Unkeyed ones (a deposit each time) stay apart.
    const keyed = await Promise.all(fronts.map((f) => f.webhooks.emit(one.liveAccount, 'ai.complete', { id: 'img_1' }, `${rx.url}/cb`, { once: 'img_1' })))
    assert.is(keyed[0]!.length, 2)
    assert.equal(keyed[0], keyed[1])
    const plain = await Promise.all(fronts.map((f) => f.webhooks.emit(one.liveAccount, 'ai.complete', { id: 'img_2' }, `${rx.url}/cb`)))
    assert.not.equal(plain[0], plain[1])
  } finally {
    await two.close()
    await one.close()
    await rx.close()
  }
})

test.run()
