import { join } from 'node:path'
import { suite } from 'uvu'
import * as assert from 'uvu/assert'
import { createRenderer, defineGlslTransition } from '../../index.js'
import { easing, SHOTSTACK_TRANSITIONS } from '../../kit.js'
import { frameDiff, isRed, locate, mean, near, pixel } from '../helpers/frames.js'
import { solidPng, tempDir } from '../helpers/media.js'
import { edit, renderAndDecode } from '../helpers/render.js'

const dir = tempDir()
let block = ''
let full = ''
const BLUE = [0, 0, 255],
  RED = [255, 0, 0]

/** Seconds per name, as SHOTSTACK.md §4.4 gives them (not read from the plugins). */
function duration(name: string): number {
  if (name === 'zoom') return 0.4
  const short = /^(slide|carousel)/.test(name)
  if (name.endsWith('Slow')) return 2
  if (name.endsWith('Fast')) return short ? 0.25 : 0.5
  return short ? 0.5 : 1
}

const all = suite('every Shotstack transition')
let big = ''
all.before(async () => {
  block = await solidPng(join(dir, 'block.png'), 60, 30, '#ff0000')
  big = await solidPng(join(dir, 'big.png'), 100, 50, '#ff0000')
  full = await solidPng(join(dir, 'full.png'), 320, 180, '#ff0000')
})
all('all 61 names run in and out: mid-way differs from the settled clip, which then matches a clip without one', async () => {
  const names = SHOTSTACK_TRANSITIONS.filter((n) => n !== 'none')
  assert.is(names.length, 61)
  const fps = 12
  let t = 0
  const clips = [] as object[]
  const checks: { name: string; midIn: number; settled: number; midOut: number }[] = []
  for (const name of names) {
    const d = duration(name)
    const length = 2 * d + 0.6
    clips.push({ asset: { type: 'image', src: big }, start: t, length, fit: 'none', transition: { in: name, out: name } })
    checks.push({ name, midIn: Math.round((t + d / 2) * fps), settled: Math.round((t + d + 0.3) * fps), midOut: Math.round((t + length - d / 2) * fps) })
    t = Math.round((t + length) * 100) / 100
  }
  // A reference clip with transition "none" at the very end: the settled picture every clip must match.
  clips.push({ asset: { type: 'image', src: big }, start: t, length: 0.5, fit: 'none', transition: { in: 'none', out: 'none' } })
  const reference = Math.round((t + 0.2) * fps)
  const { frames } = await renderAndDecode({ ...edit(clips, { fps, size: { width: 160, height: 90 } }) })
  for (const c of checks) {
    assert.ok(
      frameDiff(frames, c.settled, reference) < 2,
      `${c.name}: settled frame matches the untransitioned clip (${frameDiff(frames, c.settled, reference).toFixed(1)})`,
    )
    assert.ok(frameDiff(frames, c.midIn, reference) > 3, `${c.name} in: mid-way frame differs (${frameDiff(frames, c.midIn, reference).toFixed(1)})`)
    assert.ok(frameDiff(frames, c.midOut, reference) > 3, `${c.name} out: mid-way frame differs (${frameDiff(frames, c.midOut, reference).toFixed(1)})`)
  }
})
all.run()

const defs = suite('transition midpoints against their definitions')
const ease = easing('ease')
defs('carouselLeft in moves a full frame width linearly; carouselUp out rises 1.1 heights on "ease"', async () => {
  // 48 fps so frame k is t = k/48. Block 60×30 centred in 320×180 (centre 160, 90).
  const clips = [{ asset: { type: 'image', src: block }, start: 0, length: 1, fit: 'none', transition: { in: 'carouselLeft', out: 'carouselUp' } }]
  const { frames } = await renderAndDecode(edit(clips, { fps: 48 }))
  const inAt = locate(frames, 18, isRed) // t = 0.375, p = 0.75: offset +(1 − p) frame widths
  assert.ok(Math.abs(inAt.x - (160 + 0.25 * 320)) < 2, `carousel in centre x ${inAt.x}`)
  assert.ok(Math.abs(inAt.y - 90) < 2, 'no vertical motion')
  const outAt = locate(frames, 27, isRed) // t = 0.5625: 0.0625 s into the 0.5 s out, p = 0.125
  const expected = 90 - 1.1 * 180 * ease(0.125)
  assert.ok(Math.abs(outAt.y - expected) < 2, `carousel out centre y ${outAt.y}, expected ${expected}`)
  const alpha = mean(frames, 27, Math.round(outAt.x) - 5, Math.round(outAt.y) - 3, Math.round(outAt.x) + 5, Math.round(outAt.y) + 3)
  assert.ok(near(alpha, RED, 20), `carousel does not fade: ${alpha}`)
})
defs('reveal uncovers left to right: the visible edge sits at ease(p) of the width', async () => {
  const { frames } = await renderAndDecode(edit([{ asset: { type: 'image', src: full }, start: 0, length: 2, transition: { in: 'reveal' } }], { fps: 25 }))
  const at = locate(frames, 10, isRed, { x0: 0, y0: 90, x1: 320, y1: 91 }) // t = 0.4 of 1 s
  assert.ok(at.minX <= 1, 'starts at the left edge')
  assert.ok(Math.abs(at.maxX + 1 - ease(0.4) * 320) < 3, `edge at ${at.maxX}, expected ${ease(0.4) * 320}`)
})
defs('wipeLeft in uncovers from the right with a soft edge; wipeRight from the left', async () => {
  const clips = [
    { asset: { type: 'image', src: full }, start: 0, length: 2, transition: { in: 'wipeLeft' } },
    { asset: { type: 'image', src: full }, start: 2, length: 2, transition: { in: 'wipeRight' } },
  ]
  const { frames } = await renderAndDecode(edit(clips, { fps: 25 }))
  // Frame 12: p = 0.48. The edge has travelled easeInOut(p) × 1.35 widths from the entry side; its soft
  // part is 0.35 wide and follows smoothstep.
  const edge = easing('easeInOut')(0.48) * 1.35
  const shown = (fromEntry: number) => {
    const k = Math.min(1, Math.max(0, (fromEntry - (edge - 0.35)) / 0.35))
    return 1 - k * k * (3 - 2 * k)
  }
  const row = (i: number, x: number) => mean(frames, i, x - 2, 88, x + 2, 92)
  assert.ok(near(row(12, 300), RED), `wipeLeft: right side shown ${row(12, 300)}`)
  assert.ok(near(row(12, 20), BLUE), `wipeLeft: left side hidden ${row(12, 20)}`)
  const a = shown(0.5)
  assert.ok(a > 0.2 && a < 0.8 && near(row(12, 160), [255 * a, 0, 255 * (1 - a)], 10), `wipeLeft: inside the soft edge ${row(12, 160)}, expected alpha ${a}`)
  assert.ok(near(row(62, 20), RED) && near(row(62, 300), BLUE), 'wipeRight mirrors it')
})
defs('zoom in: 10× shrinking to 1× on easeIn while fading up', async () => {
  const small = await solidPng(join(dir, 'small.png'), 20, 10, '#ff0000')
  const { frames } = await renderAndDecode(
    edit([{ asset: { type: 'image', src: small }, start: 0, length: 1, fit: 'none', transition: { in: 'zoom' } }], { fps: 25 }),
  )
  const e = 1 - easing('easeIn')(0.5) // frame 5: t = 0.2 of 0.4 s
  const seen = locate(frames, 5, ([r, , b]) => r > 40 && r > b - 200)
  assert.ok(Math.abs(seen.maxX - seen.minX + 1 - 20 * (1 + 9 * e)) < 4, `width ${seen.maxX - seen.minX + 1}, expected ${20 * (1 + 9 * e)}`)
  const c = pixel(frames, 5, 160, 90)
  assert.ok(near(c, [255 * (1 - e), 0, 255 * e], 14), `opacity ${1 - e}: ${c}`)
})
defs('shuffleTopRight in: arrives from above-right, turning, opaque once a third of the way', async () => {
  const { frames } = await renderAndDecode(
    edit([{ asset: { type: 'image', src: block }, start: 0, length: 2, fit: 'none', transition: { in: 'shuffleTopRight' } }], { fps: 25 }),
  )
  const away = 1 - easing('easeOutCubic')(0.32) // frame 8: t = 0.32 of 1 s
  const at = locate(frames, 8, isRed)
  assert.ok(Math.abs(at.x - (160 + 0.4 * away * 320)) < 2, `x ${at.x}`)
  assert.ok(Math.abs(at.y - (90 - away * 180)) < 2, `y ${at.y}`)
  assert.ok(at.maxY - at.minY + 1 > 34, `rotated: taller than the unrotated 30 px block (${at.maxY - at.minY + 1})`)
  const settled = locate(frames, 40, isRed)
  assert.ok(settled.maxY - settled.minY + 1 <= 31, 'settles unrotated')
})
defs.run()

const gl = suite('GLSL transitions')
gl('gl:fade from the gl-transitions collection blends half way at its midpoint', async () => {
  const { frames } = await renderAndDecode(edit([{ asset: { type: 'image', src: full }, start: 0, length: 2, transition: { in: 'gl:fade' } }], { fps: 24 }))
  assert.ok(near(mean(frames, 0, 100, 60, 220, 120), BLUE), 'starts on the frame without the clip')
  assert.ok(near(mean(frames, 12, 100, 60, 220, 120), [128, 0, 128], 10), `midpoint ${mean(frames, 12, 100, 60, 220, 120)}`)
  assert.ok(near(mean(frames, 30, 100, 60, 220, 120), RED), 'ends on the clip')
})
gl('a user GLSL transition in a few lines: gl-transitions coordinates (origin bottom-left), in and out', async () => {
  const riseUp = defineGlslTransition({ name: 'gl:riseUp', glsl: 'vec4 transition(vec2 uv) { return uv.y < progress ? getToColor(uv) : getFromColor(uv); }' })
  const renderer = createRenderer({ plugins: [riseUp], cacheDir: join(dir, 'cache') })
  const out = join(dir, 'rise.mp4')
  await renderer.render(edit([{ asset: { type: 'image', src: full }, start: 0, length: 3, transition: { in: 'gl:riseUp', out: 'gl:riseUp' } }], { fps: 24 }), {
    out,
  })
  const { decodeFrames } = await import('../helpers/frames.js')
  const frames = await decodeFrames(out, 320, 180)
  // Half way in: the bottom half already shows the clip, the top half still the background.
  assert.ok(near(mean(frames, 12, 0, 100, 320, 180), RED), `bottom half ${mean(frames, 12, 0, 100, 320, 180)}`)
  assert.ok(near(mean(frames, 12, 0, 0, 320, 80), BLUE), `top half ${mean(frames, 12, 0, 0, 320, 80)}`)
  // Half way out (t = 2.5 of [2, 3]): progress runs towards the frame without the clip, bottom first.
  assert.ok(near(mean(frames, 60, 0, 100, 320, 180), BLUE) && near(mean(frames, 60, 0, 0, 320, 80), RED), 'out goes to the background, bottom first')
})
gl.run()
