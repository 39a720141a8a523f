import * as v from 'valibot'
import { defineAssetPlugin } from '../../core/index.js'

/**
 * `busy-loop`: an asset whose source, once opened, holds its thread for `seconds` in one synchronous step — as a
 * huge text layout does — so its render process cannot hear an abort until it is done: only a kill stops it. It
 * blocks in `Atomics.wait` rather than spinning: the process is as deaf either way, and a spin burnt a core the
 * other test files share until the kill (the soak file, SOAK_SEED=12345: 73.4 → 48.1 CPU-s).
 */
export const busyLoop = defineAssetPlugin({
  kind: 'asset',
  name: 'busy-loop',
  schema: v.looseObject({ type: v.literal('busy-loop'), seconds: v.optional(v.number(), 600) }),
  async prepare(params) {
    return {
      size: { width: 16, height: 16 },
      static: true,
      async open() {
        // Said on stderr, so a test watching another process's log knows it is past hearing an abort now.
        process.stderr.write(`busy-loop: spinning for ${params.seconds} s\n`)
        // Holds the thread on purpose: nothing else may run meanwhile (no timer, no message, no abort).
        Atomics.wait(new Int32Array(new SharedArrayBuffer(4)), 0, 0, params.seconds * 1000)
        return { frame: () => null, close() {} }
      },
    }
  },
})

/** Kept alive so the memory stays resident while the render goes on. */
const held: Buffer[] = []

/** `memory-hog`: an asset whose source, once opened, fills `mb` megabytes and keeps them, then waits. */
export const memoryHog = defineAssetPlugin({
  kind: 'asset',
  name: 'memory-hog',
  schema: v.looseObject({ type: v.literal('memory-hog'), mb: v.number() }),
  async prepare(params) {
    return {
      size: { width: 16, height: 16 },
      static: true,
      async open() {
        // 16 MB at a time, each written so its pages are really resident.
        for (let i = 0; i < params.mb / 16; i++) {
          held.push(Buffer.alloc(16 * 2 ** 20, i + 1))
          await new Promise((r) => setTimeout(r, 5))
        }
        await new Promise((r) => setTimeout(r, 600_000))
        return { frame: () => null, close() {} }
      },
    }
  },
})

export default [busyLoop, memoryHog]
