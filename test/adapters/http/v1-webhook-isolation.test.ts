import { suite } from 'uvu'
import * as assert from 'uvu/assert'
import { ManualClock } from '../../../service/lib/clock.js'
import { MAX_PER_DESTINATION, RETRY_SCHEDULE_MS } from '../../../service/webhooks/outbox.js'
import { startReceiver } from '../../helpers/receiver.js'
import { testService } from '../../helpers/service.js'

// One account's dead webhook receiver must not delay another account's deliveries. The outbox runs its real
// background loop (real timers); a manual clock decides what is due, so the 30 s retry is reached at once.

const sleep = (ms: number) => new Promise((r) => setTimeout(r, ms))

const test = suite('webhooks: a receiver that never answers delays only itself')
test("while a sandbox account's endpoint hangs, another account's first attempt goes out ≤ 1 s after its event and its retry within 2 s of schedule", async () => {
  const clock = new ManualClock(Date.UTC(2026, 0, 1))
  const dead = await startReceiver()
  dead.setHang(true)
  const rx = await startReceiver()
  rx.setStatus(500)
  const svc = await testService({ start: true, overrides: { clock } })
  let closed = false
  try {
    const sandboxAccount = (await svc.call('GET', '/v1/me', { key: svc.sandbox })).body.account_id as string
    // 1. The sandbox account floods its dead endpoint (callbacks on one host, different paths).
    for (let i = 0; i < 6; i++) await svc.webhooks.emit(sandboxAccount, 'render.complete', { id: `a${i}` }, `${dead.url}/cb?job=${i}`)
    await dead.waitFor(MAX_PER_DESTINATION, 5000)
    // 2. Another account's event: its first attempt is not queued behind the hanging sends.
    const sent = performance.now()
    const [id] = await svc.webhooks.emit(svc.liveAccount, 'render.complete', { id: 'b' }, `${rx.url}/hook`)
    await rx.waitFor(1, 5000)
    const firstMs = performance.now() - sent
    assert.ok(firstMs <= 1000, `first attempt ${Math.round(firstMs)} ms after the event`)
    assert.is(dead.received.length, MAX_PER_DESTINATION, 'the dead host holds only its own slots; its other deliveries wait')
    // 3. The refused attempt is recorded with its retry due 30 s (on the clock) after the failure.
    let delivery = (await svc.outbox.get(svc.liveAccount, id!))!
    for (const until = Date.now() + 5000; delivery.attempts < 1 && Date.now() < until; delivery = (await svc.outbox.get(svc.liveAccount, id!))!) await sleep(20)
    assert.is(delivery.attempts, 1)
    assert.is(Date.parse(delivery.next_attempt_at!) - clock.now(), RETRY_SCHEDULE_MS[0])
    // 4. Not early: 2 s before it is due nothing goes out …
    rx.setStatus(200)
    clock.advance(RETRY_SCHEDULE_MS[0]! - 2000)
    await sleep(1500)
    assert.is(rx.received.length, 1, 'no retry before its time')
    // 5. … and once due, it goes out within 2 s while the other account's sends still hang.
    clock.advance(2000)
    const due = performance.now()
    await rx.waitFor(2, 5000)
    const retryMs = performance.now() - due
    assert.ok(retryMs <= 2000, `retry ${Math.round(retryMs)} ms after it was due`)
    for (let until = Date.now() + 5000; (await svc.outbox.get(svc.liveAccount, id!))!.status !== 'delivered' && Date.now() < until; ) await sleep(20)
    assert.is((await svc.outbox.get(svc.liveAccount, id!))!.status, 'delivered')
    const closing = performance.now()
    await svc.close()
    closed = true
    assert.ok(performance.now() - closing < 5000, 'closing does not wait out the hanging sends')
  } finally {
    if (!closed) await svc.close()
    await dead.close()
    await rx.close()
  }
})
test('sends cut short by a shutdown are not counted as attempts and are due again at once', async () => {
  const dead = await startReceiver()
  dead.setHang(true)
  const svc = await testService({ start: true })
  const [id] = await svc.webhooks.emit(svc.liveAccount, 'render.complete', { id: 'x' }, dead.url)
  await dead.waitFor(1, 5000)
  const { createService } = await import('../../../adapters/http/create-service.js')
  await svc.close()
  await dead.close()
  const again = await createService(svc.config)
  const d = (await again.outbox.get(svc.liveAccount, id!))!
  assert.is(d.status, 'pending')
  assert.is(d.attempts, 0, 'no attempt recorded for a send the shutdown aborted')
  assert.ok(Date.parse(d.next_attempt_at!) <= Date.now(), 'due now, not after a lease')
  await again.close()
})
test.run()
