import { type createRenderer, defineOutputPlugin } from '../../index.js'
import { withEnv } from './env.js'

// Outputs that keep the frames the encoder would get, in memory: RGBA exactly as the compositor made them, or
// the I420 an encoder that takes it gets (`yuvFrames`), for comparing two ways of making a frame before any
// encoder blurs the difference (cover-frames.test.ts, i420-frames.test.ts).

declare module '../../index.js' {
  interface OutputFormats {
    'raw-rgba': true
    'raw-i420': true
  }
}

/** The frames of the last render through `rawFrames`, by output path. */
export const rawRenders = new Map<string, Uint8Array[]>()

const keeper = (name: 'raw-rgba' | 'raw-i420', yuvFrames: boolean) =>
  defineOutputPlugin({
    kind: 'output',
    name,
    mime: 'application/octet-stream',
    extension: name.slice(4),
    takes: 'video',
    sound: false,
    yuvFrames,
    async open(spec) {
      const frames: Uint8Array[] = []
      return {
        write: (frame) => void frames.push(Uint8Array.from(frame)),
        async close() {
          rawRenders.set(spec.path, frames)
          return { path: spec.path, bytes: frames.reduce((n, f) => n + f.length, 0) }
        },
        abort() {},
      }
    },
  })

export const rawFrames = keeper('raw-rgba', false)
/** I420 frames, where the frame loop packs them (on llvmpipe in WebAssembly, core/render/frame-packer.ts). */
export const rawI420Frames = keeper('raw-i420', true)

/** The largest difference of any channel of any pixel between two renders' frames (they must have as many). */
export function worstDifference(a: Uint8Array[], b: Uint8Array[]): number {
  if (a.length !== b.length) throw new Error(`${a.length} frames against ${b.length}`)
  let worst = 0
  for (let i = 0; i < a.length; i++) for (let k = 0; k < a[i]!.length; k++) worst = Math.max(worst, Math.abs(a[i]![k]! - b[i]![k]!))
  return worst
}

/**
 * Renders `edit` twice: with frames made around the GPU (core/render/cover.ts) and with `REELFORGE_DIRECT_FRAMES=off`
 * (every frame drawn with GL), to the paths `out` names; each with its result and, through `rawFrames`, its frames.
 */
export async function renderBothWays(renderer: ReturnType<typeof createRenderer>, edit: object, out: (direct: boolean) => string) {
  const run = (direct: boolean) =>
    withEnv({ REELFORGE_DIRECT_FRAMES: direct ? 'on' : 'off' }, async () => {
      const path = out(direct)
      const result = await renderer.render(edit as never, { out: path })
      return { out: path, result, frames: rawRenders.get(path) }
    })
  return { direct: await run(true), drawn: await run(false) }
}
