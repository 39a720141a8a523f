import { setTimeout as sleep } from 'node:timers/promises'
import { suite } from 'uvu'
import * as assert from 'uvu/assert'
import { createCpuWarp } from '../../core/render/cpu-warp.js'
import { wasmPixels, wasmPixelsOf } from '../../core/render/wasm-pixels.js'
import { seededBytes } from '../helpers/seeded.js'

// A photo's memory is handed to the next photo of about its size once its owner releases it (wasm-pixels.ts):
// V8 frees a WebAssembly memory only when it collects it, so a slideshow otherwise held a dead photo's 35–57 MB
// while the next decoded. Reuse must never show the last photo's pixels, nor warp with its layout.

const test = suite('a still memory handed on')

const opaqueNoise = (pixels: { view(): Uint8Array }, seed: number) => {
  const random = seededBytes(seed)
  const view = pixels.view()
  for (let i = 0; i < view.length; i++) view[i] = i % 4 === 3 ? 255 : random()
}

test('released, its memory goes to the next still of about its size, zeroed; the old view is refused', () => {
  const a = wasmPixels({ width: 300, height: 200 })
  opaqueNoise(a, 1)
  a.release()
  assert.throws(() => a.view(), /after release/)
  const b = wasmPixels({ width: 290, height: 190 })
  assert.is(b.memory, a.memory, 'the same memory')
  assert.ok(
    b.view().every((v) => v === 0),
    'transparent, as a new memory',
  )
  assert.is(wasmPixelsOf(b.view()), b)
  // Taken once: the next still gets a memory of its own.
  assert.is.not(wasmPixels({ width: 290, height: 190 }).memory, a.memory)
})

test('a still much smaller, or larger, than the one released gets a memory of its own', () => {
  const big = wasmPixels({ width: 400, height: 400 })
  big.release()
  assert.is.not(wasmPixels({ width: 100, height: 100 }).memory, big.memory, 'a logo never holds a photo-sized memory')
  const small = wasmPixels({ width: 200, height: 200 })
  small.release()
  assert.is.not(wasmPixels({ width: 201, height: 200 }).memory, small.memory, 'no room: not grown behind its back')
  const again = wasmPixels({ width: 200, height: 200 })
  again.release()
  again.release()
  assert.is(wasmPixels({ width: 200, height: 200 }).memory, again.memory, 'a second release changes nothing')
})

test('a memory released and not taken within a few seconds is let go', async () => {
  const a = wasmPixels({ width: 64, height: 64 })
  a.release()
  await sleep(3200)
  assert.is.not(wasmPixels({ width: 64, height: 64 }).memory, a.memory)
})

test('a still in a handed-on memory warps as in a fresh one: its own work area, not the last still’s', () => {
  const frame = { width: 320, height: 180 }
  const warp = createCpuWarp(frame)
  const call = (pixels: Uint8Array, size: { width: number; height: number }) =>
    ({ pixels, refilled: false, size, matrix: [352, 0, 0, 198, -16, -9], uv: [0, 0, 1, 1], opacity: 0.9, background: [0, 0, 0, 1] }) as never
  const first = { width: 480, height: 270 }
  const a = wasmPixels(first)
  opaqueNoise(a, 2)
  warp.draw(call(a.view(), first))
  a.release()
  const second = { width: 470, height: 260 }
  const b = wasmPixels(second)
  assert.is(b.memory, a.memory)
  opaqueNoise(b, 3)
  const reused = Uint8Array.from(warp.draw(call(b.view(), second)))
  const fresh = createCpuWarp(frame).draw(call(Uint8Array.from(b.view()), second))
  assert.ok(Buffer.from(reused).equals(Buffer.from(fresh)), 'draw')
  const i420 = (w: ReturnType<typeof createCpuWarp>, pixels: Uint8Array) => {
    const out = new Uint8Array((frame.width * frame.height * 3) / 2)
    w.drawI420(call(pixels, second), out)
    return Buffer.from(out)
  }
  assert.ok(i420(warp, b.view()).equals(i420(createCpuWarp(frame), Uint8Array.from(b.view()))), 'drawI420')
})

test.run()
