import { suite } from 'uvu'
import * as assert from 'uvu/assert'
import type { LayerPlan } from '../../core/plan/layers.js'
import { Scheduler } from '../../core/render/scheduler.js'

// When the frame loop opens and closes each layer's source (core/render/scheduler.ts): shortly before it shows
// (the lookahead), or — for an asset whose open briefly holds much more than its source (a photo's decode) — on
// its first frame, after whatever ends there has closed, so the two never hold their memory at once.

const test = suite('opening and closing sources')

function layers(events: string[], specs: [name: string, start: number, end: number, whenShown?: boolean][]) {
  return specs.map(
    ([name, startFrame, endFrame, openWhenShown], order) =>
      ({
        id: order,
        order,
        path: `timeline.tracks[0].clips[${order}]`,
        type: name,
        startFrame,
        endFrame,
        asset: {
          size: { width: 2, height: 2 },
          openWhenShown,
          async open() {
            events.push(`open ${name}`)
            return { frame: () => null, close: () => events.push(`close ${name}`) }
          },
        },
      }) as unknown as LayerPlan,
  )
}

async function framesThrough(scheduler: Scheduler, events: string[], frames: number) {
  for (let i = 0; i < frames; i++) {
    const before = events.length
    const live = await scheduler.at(i)
    for (const e of events.slice(before)) events[events.indexOf(e, before)] = `${i}: ${e}`
    assert.ok(live.length <= 1, 'one layer at a time in these timelines')
  }
}

test('a source opens a lookahead before it shows, and closes on the frame after its last', async () => {
  const events: string[] = []
  const scheduler = new Scheduler(
    layers(events, [
      ['clip', 0, 10],
      ['next', 10, 20],
    ]),
    {} as never,
    3,
    30,
  )
  await framesThrough(scheduler, events, 20)
  assert.equal(events, ['0: open clip', '7: open next', '10: close clip'])
})

test('a source that opens when shown opens on its first frame, after the one before it has closed', async () => {
  const events: string[] = []
  const specs: [string, number, number, boolean?][] = [
    ['clip', 0, 10],
    ['photo 1', 10, 20, true],
    ['photo 2', 20, 30, true],
    ['clip 2', 30, 40],
  ]
  const scheduler = new Scheduler(layers(events, specs), {} as never, 3, 30)
  await framesThrough(scheduler, events, 40)
  assert.equal(events, ['0: open clip', '10: close clip', '10: open photo 1', '20: close photo 1', '20: open photo 2', '27: open clip 2', '30: close photo 2'])
})

test('a render that starts inside a layer that opens when shown opens it at once, from where it starts', async () => {
  const events: string[] = []
  const scheduler = new Scheduler(
    layers(events, [
      ['photo', 0, 10, true],
      ['clip', 10, 20],
    ]),
    {} as never,
    3,
    30,
  )
  for (let i = 5; i < 12; i++) await scheduler.at(i)
  assert.equal(events, ['open photo', 'open clip', 'close photo'])
})

test.run()
