import { join } from 'node:path'
import { suite } from 'uvu'
import * as assert from 'uvu/assert'
import * as v from 'valibot'
import { createRenderer, defineAssetPlugin } from '../../index.js'
import { withEnv } from '../helpers/env.js'
import { tempDir } from '../helpers/media.js'
import { rawI420Frames, rawRenders } from '../helpers/raw-frames.js'
import { edit } from '../helpers/render.js'

// A source covering the frame exactly while it fades over the background is asked `i420Over(t, opacity,
// background)` (core/plugin.ts), where it offers one: the frame loop takes its answer as the frame. Without it, or
// when it answers nothing, the frame loop blends `pixels(t)` itself.

const test = suite("a fading source's own I420")
const size = { width: 320, height: 180 }
const luma = (y: number) => {
  const i420 = new Uint8Array((size.width * size.height * 3) / 2).fill(128)
  return i420.fill(y, 0, size.width * size.height)
}
/** Each `i420Over` call's opacity and background. */
const asked: [number, readonly number[]][] = []
let answers = true

const flat = defineAssetPlugin({
  kind: 'asset',
  name: 'flat',
  schema: v.looseObject({ type: v.literal('flat') }),
  async prepare() {
    return {
      size,
      async open(gpu, _need, _from, hints) {
        const pixels = new Uint8Array(size.width * size.height * 4).fill(255)
        const texture = gpu.texture(pixels, size.width, size.height)
        return {
          frame: () => texture,
          pixels: () => pixels,
          opaque: true,
          size,
          i420: hints?.i420 ? () => luma(100) : undefined,
          i420Over: hints?.i420 ? (_t, opacity, background) => (asked.push([opacity, background]), answers ? luma(200) : null) : undefined,
          close() {},
        }
      },
    }
  },
})
const renderer = createRenderer({ plugins: [flat, rawI420Frames], cacheDir: join(tempDir(), 'cache') })
const clip = { asset: { type: 'flat' }, start: 0, length: 2, transition: { in: 'fade' } }

async function frames(name: string) {
  asked.length = 0
  const out = join(tempDir(), `${name}.i420`)
  await renderer.render(edit([], { size, fps: 12, format: 'raw-i420' }, { background: '#336699', tracks: [{ clips: [clip] }] }) as never, { out })
  return rawRenders.get(out)!.map((f) => f[0]!)
}

test('its fading frames are its i420Over answers, asked with each opacity and the background; the rest its i420', async () => {
  const lumas = await frames('answered')
  // 24 frames: 0 faded out (the background alone, filled by the frame loop), 1–11 fading in (a 1 s fade), 12–23 opaque.
  assert.equal(lumas, [lumas[0], ...Array(11).fill(200), ...Array(12).fill(100)])
  assert.is(asked.length, 11)
  const opacities = asked.map(([o]) => o)
  assert.ok(
    opacities.every((o, i) => o > 0 && o < 1 && (i === 0 || o > opacities[i - 1]!)),
    `${opacities}`,
  )
  assert.equal(
    [...asked[0]![1]].map((c) => Math.round(c * 255)),
    [0x33, 0x66, 0x99, 255],
  )
})

test('answering nothing, or switched off, the frame loop blends its pixels over the background itself', async () => {
  answers = false
  const blended = await frames('unanswered')
  answers = true
  assert.is(asked.length, 11)
  const off = await withEnv({ REELFORGE_FADED_I420: 'off' }, () => frames('off'))
  assert.is(asked.length, 0)
  assert.equal(off, blended)
  // White fading in over #336699: luma rising from the background's to the clip's.
  assert.ok(
    blended.slice(1, 12).every((y, i, all) => y > blended[0]! && y < 235 && (i === 0 || y > all[i - 1]!)),
    `${blended}`,
  )
})

test.run()
