import { existsSync, mkdirSync, writeFileSync } from 'node:fs'
import { join } from 'node:path'
import { suite } from 'uvu'
import * as assert from 'uvu/assert'
import { summary } from '../../adapters/cli/compat.js'
import { passed, runCompat } from '../../adapters/compat/runner.js'
import { decodeFrames, isBlue, isGreen, isRed, locate } from '../helpers/frames.js'
import { tempDir } from '../helpers/media.js'

// The whole corpus passing the layout check is asserted in compat.test.ts; here, that the check can fail.
const dir = tempDir()
const SHARED = join(import.meta.dirname, '..', '..', '..', 'shared', 'compat')
const MENU = 'shottower-docs__featured__restaurant-monthly-specials.json'

const layout = suite('compat: the layout check')
// Shotstack's convention: +x right, +y up. Shapes in known colours let the encoded file confirm the probes.
const box = (color: string, offset: { x?: number; y?: number }, extra = {}) => ({
  asset: { type: 'shape', shape: 'rectangle', width: 120, height: 80, rectangle: { width: 120, height: 80 }, fill: { color } },
  start: 0,
  length: 2,
  offset,
  ...extra,
})
const OFFSETS = {
  timeline: {
    tracks: [
      {
        clips: [
          box('#ff0000', { y: 0.3 }),
          box('#0000ff', { y: -0.3 }),
          box('#00ff00', { x: 0.3 }),
          // Black on the black frame: only the probe's alpha sees it.
          { asset: { type: 'text', text: 'LEFT', font: { family: 'Open Sans', size: 40, color: '#000000' } }, start: 0, length: 2, offset: { x: -0.3 } },
          // Placed at the top and moved down from there: above the frame's centre, yet where its offset says.
          box('#ffffff', { y: -0.1 }, { position: 'topLeft' }),
          box('#ffffff', { x: 0.01 }),
        ],
      },
    ],
  },
  output: { format: 'mp4', resolution: 'preview' },
}
const runOffsets = async (yAxis: 'up' | 'down') => {
  mkdirSync(join(dir, `offsets-${yAxis}`))
  writeFileSync(join(dir, `offsets-${yAxis}`, 'offsets.json'), JSON.stringify(OFFSETS))
  const [r] = await runCompat({ dir: join(dir, `offsets-${yAxis}`), outDir: join(dir, `offsets-${yAxis}-out`), standInDir: join(dir, 'standins'), yAxis })
  const video = await decodeFrames(r!.output!, 512, 288)
  const at = (test: typeof isRed) => locate(video, 15, test)
  return { r: r!, red: at(isRed), blue: at(isBlue), green: at(isGreen) }
}
layout('offsets up, down, left and right land on their side with yAxis up; a tiny offset is skipped, not judged', async () => {
  const { r, red, blue, green } = await runOffsets('up')
  assert.ok(r.rendered, r.error)
  assert.equal(r.layout, { checked: 5, failed: [], skipped: [{ clip: 'timeline.tracks[0].clips[5]', reason: 'offset under 2 % of the frame' }] })
  assert.ok(passed(r))
  // The encoded file agrees with the probes: red (y +0.3) above the centre, blue below, green right.
  assert.ok(red.y < 144 - 60 && blue.y > 144 + 60 && green.x > 256 + 100, JSON.stringify({ red, blue, green }))
})
layout('a flipped axis (yAxis down) fails the file, naming every clip with a y offset and where it landed', async () => {
  const { r, red } = await runOffsets('down')
  assert.ok(r.rendered, r.error)
  assert.equal(
    r.layout!.failed.map((f) => f.clip),
    ['timeline.tracks[0].clips[0]', 'timeline.tracks[0].clips[1]', 'timeline.tracks[0].clips[4]'],
  )
  assert.is(r.layout!.checked, 5, 'the x offsets still pass')
  const up = r.layout!.failed[0]!
  assert.equal(up.offset, { x: 0, y: 0.3 })
  assert.ok(Math.abs(up.centroid.y - up.reference.y + 0.3) < 0.01, `drawn 0.3 below where it belongs: ${JSON.stringify(up)}`)
  assert.ok(red.y > 144 + 60, 'and the encoded file shows it below')
  assert.not.ok(passed(r))
  assert.match(summary([r]), /layout: 0\/1 files right; 2\/5 offset clips on their side, 1 not verifiable\n0\/1 passed/)
})
layout('the restaurant menu with its axis flipped on purpose fails: dish names and prices swap sides', async () => {
  if (!existsSync(SHARED)) return console.warn(`  note: ${SHARED} is not present; the flipped menu was not run`)
  const [r] = await runCompat({ dir: SHARED, files: [MENU], outDir: join(dir, 'flipped'), standInDir: join(dir, 'standins'), yAxis: 'down' })
  assert.not.ok(passed(r!))
  const failed = new Map(r!.layout!.failed.map((f) => [f.clip, f]))
  // "Grilled Banderilles" (y 0.25) and its price (y −0.25), which issue 19 saw drawn the wrong way round.
  assert.ok(failed.get('timeline.tracks[15].clips[0]')!.centroid.y < failed.get('timeline.tracks[15].clips[0]')!.reference.y)
  assert.ok(failed.get('timeline.tracks[15].clips[2]')!.centroid.y > failed.get('timeline.tracks[15].clips[2]')!.reference.y)
  assert.ok(failed.size >= 10, `${failed.size} clips failed`)
})
layout.run()
