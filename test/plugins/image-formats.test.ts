import { join } from 'node:path'
import { test } from 'uvu'
import * as assert from 'uvu/assert'
import type { PrepareContext } from '../../core/index.js'
import { wasmPixelsOf } from '../../core/render/wasm-pixels.js'
import { image } from '../../plugins/assets/image.js'
import { near, pixel } from '../helpers/frames.js'
import { lavfi, tempDir } from '../helpers/media.js'
import { edit, renderAndDecode } from '../helpers/render.js'

const dir = tempDir()

test('PNG, JPEG, WebP and the first frame of a GIF all decode', async () => {
  const sources = {
    png: await lavfi('color=c=0xff0000:s=64x36', join(dir, 'a.png'), ['-frames:v', '1']),
    jpg: await lavfi('color=c=0x00ff00:s=64x36', join(dir, 'b.jpg'), ['-frames:v', '1']),
    webp: await lavfi('color=c=0x0000ff:s=64x36', join(dir, 'c.webp'), ['-frames:v', '1']),
    // A two-frame GIF: yellow then black; only the first frame is shown.
    gif: await lavfi("color=c=0xffff00:s=64x36:r=1:d=2,geq=r='if(lt(T,1),255,0)':g='if(lt(T,1),255,0)':b=0", join(dir, 'd.gif')),
  }
  const expected = [
    [255, 0, 0],
    [0, 255, 0],
    [0, 0, 255],
    [255, 255, 0],
  ]
  const clips = Object.values(sources).map((src, i) => ({ asset: { type: 'image', src }, start: i * 0.04, length: 0.04, fit: 'cover' }))
  const { frames } = await renderAndDecode(edit(clips, {}, { background: '#808080' }))
  expected.forEach((rgb, i) => assert.ok(near(pixel(frames, i, 160, 90), rgb, 20), `${Object.keys(sources)[i]}: ${pixel(frames, i, 160, 90)}`))
})

test("a photo's pixels lie in a memory of their own, where the CPU warp scales them (held once)", async () => {
  const src = await lavfi('color=c=0x00ff00:s=640x360', join(dir, 'held.jpg'), ['-frames:v', '1'])
  const ctx = { path: 'timeline.tracks[0].clips[0]', load: async (s: string) => s } as unknown as PrepareContext
  const prepared = await image.prepare({ type: 'image', src }, ctx)
  // No GL: a still whose frames the CPU makes never asks for a texture.
  const source = await prepared.open!(undefined as never, { width: 320, height: 180 }, 0)
  const pixels = source.pixels!(0) as Uint8Array
  assert.is(pixels.length, 320 * 180 * 4)
  assert.ok(wasmPixelsOf(pixels), 'in a WebAssembly memory of its own')
  assert.ok(near([...pixels.subarray(4 * (90 * 320 + 160), 4 * (90 * 320 + 160) + 3)], [0, 255, 0], 8))
  assert.ok(source.opaque)
  // Opened as it shows, and its memory handed to the next photo of its size once it closes (no wait for V8).
  assert.ok(prepared.openWhenShown)
  const memory = wasmPixelsOf(pixels)!.memory
  source.close()
  assert.throws(() => source.pixels!(0), /after release/)
  const next = await prepared.open!(undefined as never, { width: 320, height: 180 }, 0)
  assert.is(wasmPixelsOf(next.pixels!(0) as Uint8Array)!.memory, memory)
  next.close()
})

test("the title asset's own offset moves the text (y down-positive, like clips)", async () => {
  const clips = [
    { asset: { type: 'title', text: 'I', size: 'large' }, start: 0, length: 0.04 },
    { asset: { type: 'title', text: 'I', size: 'large', offset: { x: 0.25, y: 0.25 } }, start: 0.04, length: 0.04 },
  ]
  const { frames } = await renderAndDecode(edit(clips, {}, { background: '#000000' }))
  const brightest = (i: number) => {
    let best = [0, 0, 0]
    for (let y = 0; y < 180; y++) for (let x = 0; x < 320; x++) if (pixel(frames, i, x, y)[0] > 200) best = [best[0]! + x, best[1]! + y, best[2]! + 1]
    return [best[0]! / best[2]!, best[1]! / best[2]!]
  }
  const [x0, y0] = brightest(0)
  const [x1, y1] = brightest(1)
  assert.ok(Math.abs(x1! - x0! - 80) < 4, `x moved ${x1! - x0!}`)
  assert.ok(Math.abs(y1! - y0! - 45) < 4, `y moved ${y1! - y0!}`)
})

test.run()
