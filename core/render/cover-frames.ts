import type { FrameSource, LayerState } from '../plugin.js'
import { parseColor } from '../plan/color.js'
import type { LayerPlan } from '../plan/layers.js'
import type { RenderPlan } from '../plan/plan.js'
import type { Affine } from './affine.js'
import { coverOf, directFrames, pixelsOf } from './cover.js'
import { createCpuWarp } from './cpu-warp.js'
import type { LiveLayer } from './scheduler.js'

/**
 * The frame loop's way around the GPU for a frame one opaque layer covers (cover.ts): its decoded pixels as
 * they are (`exact`), or drawn scaled on the CPU (`scaled`: cpu-warp.ts), then handed to the sink as RGBA or
 * packed to I420 by a packer that can (on the CPU). On a GPU packer (hardware GL) nothing goes around it.
 */
export class CoverFrames {
  private readonly take: ((rgba: Uint8Array, into: Uint8Array) => void) | undefined
  private readonly enabled: boolean
  private readonly matrix: Affine = [0, 0, 0, 0, 0, 0]
  private readonly background: [number, number, number, number]
  private warp: ReturnType<typeof createCpuWarp> | undefined
  private cover = -1
  private kind: 'exact' | 'scaled' | undefined
  private opacity = 1
  private visible = 0
  /** Frames written this way. */
  count = 0

  constructor(private readonly plan: RenderPlan) {
    this.take = plan.yuv ? plan.yuv.pack?.bind(plan.yuv) : (rgba, into) => into.set(rgba)
    this.enabled = this.take !== undefined && directFrames()
    this.background = parseColor(plan.edit.timeline.background ?? '#000000')
  }

  /** A new frame: no layer seen yet. */
  begin(): void {
    this.cover = -1
    this.visible = 0
  }

  /** HOT: layer `j` of the frame's live layers (bottom first) was evaluated into `s` at clip-local `t`. */
  see(j: number, layer: LayerPlan, source: FrameSource, s: LayerState, t: number): void {
    if (!this.enabled || layer.role !== 'content' || s.opacity <= 0 || s.clipRight <= s.clipLeft || s.clipBottom <= s.clipTop) return
    this.visible++
    this.kind = source.pixels ? coverOf(layer, s, t, this.plan.frame, this.matrix) : undefined
    this.cover = this.kind ? j : -1
    this.opacity = Math.min(1, s.opacity)
  }

  /** The frame at `t` in a buffer from `acquire`, when the layer seen last covers it; undefined: draw it. */
  async frame(live: readonly LiveLayer[], t: number, acquire: () => Promise<Uint8Array>): Promise<Uint8Array | undefined> {
    // A translucent cover shows what is under it: only the background may be.
    if (this.cover < 0 || (this.opacity < 1 && this.visible > 1)) return undefined
    const { layer, source } = live[this.cover]!
    const pending = pixelsOf(layer, source, t - layer.start)
    const pixels = pending instanceof Promise ? await pending : pending
    const { frame } = this.plan
    let rgba: Uint8Array
    if (pixels && this.kind === 'exact' && pixels.length === frame.width * frame.height * 4) rgba = pixels
    else if (pixels && this.kind === 'scaled' && pixels.length === layer.need.width * layer.need.height * 4) {
      this.warp ??= createCpuWarp(frame)
      rgba = this.warp.draw({ pixels, size: layer.need, matrix: this.matrix, uv: layer.uv, opacity: this.opacity, background: this.background })
    } else return undefined
    const buffer = await acquire()
    this.take!(rgba, buffer)
    this.count++
    return buffer
  }
}
