import type { FrameSource, LayerState, Size } from '../plugin.js'
import { parseColor } from '../plan/color.js'
import type { LayerPlan } from '../plan/layers.js'
import type { RenderPlan } from '../plan/plan.js'
import type { Affine } from './affine.js'
import { coverOf, decodedI420, directFrames, fadedI420, overlayOf } from './cover.js'
import { blendOver } from './cpu-over.js'
import { createCpuWarp } from './cpu-warp.js'
import { askSource } from './draw-frame.js'
import type { LiveLayer } from './scheduler.js'

/** Texel-exact layers over a cover the CPU blends at most; a frame with more is drawn with GL. */
const MAX_OVERLAYS = 8

interface Overlay {
  layer: LayerPlan
  source: FrameSource
  /** Its pixels' size. */
  size: Size
  matrix: Affine
  opacity: number
}

/**
 * The frame loop's way around the GPU for a frame an opaque layer covers (cover.ts): its pixels as they are
 * (`exact`) or scaled on the CPU (`scaled`: cpu-warp.ts), texel-exact layers above it (titles, captions) blended
 * there (cpu-over.ts), then handed to the sink as RGBA or packed to I420 by a packer that can (on the CPU). Where
 * no layer covers it, the background is the cover: a gap, a faded-out moment, a title card are filled and blended
 * the same way. With a GPU packer (hardware GL) nothing goes around it.
 */
export class CoverFrames {
  private readonly take: ((rgba: Uint8Array, into: Uint8Array) => void) | undefined
  private readonly enabled: boolean
  /** Whether a frame a source covers exactly can go to the sink as I420 the source made (packed output). */
  readonly takesI420: boolean
  /** Whether a fading clip's frame over the background can come from its source as I420 (`i420Over`). */
  private readonly fadesI420: boolean
  private readonly matrix: Affine = [0, 0, 0, 0, 0, 0]
  private readonly background: [number, number, number, number]
  private readonly overlays: Overlay[] = []
  private warp: ReturnType<typeof createCpuWarp> | undefined
  private scratch: Uint8Array | undefined
  /** The background as an RGBA frame, made once. */
  private ground: Uint8Array | undefined
  private cover = -1
  private kind: 'exact' | 'faded' | 'scaled' | undefined
  /** `i420Over`'s opacity and background for a fading cover. */
  private readonly over: { opacity: number; background: readonly number[] }
  private opacity = 1
  private visible = 0
  private below = 0
  private above = 0
  private blendable = true
  count = 0 // frames written this way

  constructor(private readonly plan: RenderPlan) {
    this.take = plan.yuv ? plan.yuv.pack?.bind(plan.yuv) : (rgba, into) => into.set(rgba)
    // A still (`POST /v1/render/frame`'s PNG) is one frame: drawn with GL, as a preview session draws it, so the two
    // agree pixel for pixel (service/previews); the CPU's ways differ from GL's by a level here and there.
    this.enabled = this.take !== undefined && directFrames() && plan.output.takes !== 'still'
    this.takesI420 = this.enabled && plan.yuv !== undefined && decodedI420()
    this.fadesI420 = this.takesI420 && fadedI420()
    this.background = parseColor(plan.edit.timeline.background ?? '#000000')
    this.over = { opacity: 1, background: this.background }
  }

  /** A new frame: no layer seen yet, the background its cover so far. */
  begin(): void {
    this.cover = -1
    this.visible = 0
    this.above = 0
    this.blendable = true
  }

  /** HOT: layer `j` of the frame's live layers (bottom first) was evaluated into `s` at clip-local `t`. */
  see(j: number, layer: LayerPlan, source: FrameSource, s: LayerState, t: number): void {
    if (!this.enabled || layer.role !== 'content' || s.opacity <= 0 || s.clipRight <= s.clipLeft || s.clipBottom <= s.clipTop) return
    this.visible++
    const kind = source.pixels && source.opaque ? coverOf(layer, s, t, this.plan.frame, this.matrix) : undefined
    if (kind) {
      this.cover = j
      this.kind = kind
      this.opacity = Math.min(1, s.opacity)
      this.below = this.visible - 1
      this.above = 0
      this.blendable = true
    } else if (this.blendable) this.blendable = this.overlay(layer, source, s, t)
  }

  /** Notes a layer over the cover for blending on the CPU; false where it cannot be. */
  private overlay(layer: LayerPlan, source: FrameSource, s: LayerState, t: number): boolean {
    if (!source.pixels || this.above === MAX_OVERLAYS) return false
    // A source that says its size needs no texture for it: a frame made here then never touches GL. One that
    // does not is asked for its texture only over a cover (not over the background: a cover above may hide it).
    const size = source.size ?? (this.cover >= 0 ? source.frame(t) : undefined)
    if (!size || size instanceof Promise) return false
    const o = (this.overlays[this.above] ??= { layer, source, size, matrix: [0, 0, 0, 0, 0, 0], opacity: 1 })
    if (!overlayOf(layer, s, t, this.plan.frame, size, o.matrix)) return false
    o.layer = layer
    o.source = source
    o.size = size
    o.opacity = Math.min(1, s.opacity)
    this.above++
    return true
  }

  /** The frame at `t` in a buffer from `acquire`, when a layer covers it; undefined: draw it with GL. */
  async frame(live: readonly LiveLayer[], t: number, acquire: () => Promise<Uint8Array>): Promise<Uint8Array | undefined> {
    // A translucent cover shows what is under it: only the background may be.
    if (!this.enabled || !this.blendable || (this.cover >= 0 && this.opacity < 1 && this.below > 0)) return undefined
    if (this.cover < 0) return this.finish(this.groundFrame(), t, acquire)
    const { layer, source } = live[this.cover]!
    if (!this.above && this.takesI420 && (this.kind === 'exact' ? source.i420 : this.kind === 'faded' && this.fadesI420 && source.i420Over)) {
      // A decoded clip's I420, as the encoder takes it (faded over the background on the way, for a fade): no 8 MB
      // RGBA frame from the decoder or into the packer.
      this.over.opacity = this.opacity
      const pending =
        this.kind === 'exact' ? askSource(layer, source, 'i420', t - layer.start) : askSource(layer, source, 'i420Over', t - layer.start, this.over)
      const i420 = pending instanceof Promise ? await pending : pending
      if (i420 && i420.length === this.plan.yuv!.bytes) {
        const buffer = await acquire()
        buffer.set(i420)
        this.count++
        return buffer
      }
    }
    const pending = askSource(layer, source, 'pixels', t - layer.start)
    const pixels = pending instanceof Promise ? await pending : pending
    const { frame } = this.plan
    let rgba: Uint8Array
    if (pixels && this.kind === 'exact' && pixels.length === frame.width * frame.height * 4) {
      // The decoder's own buffer: blended over, a copy.
      rgba = this.above ? (this.scratch ??= new Uint8Array(pixels.length)) : pixels
      if (this.above) rgba.set(pixels)
    } else if (pixels && this.kind !== 'exact' && pixels.length === layer.need.width * layer.need.height * 4) {
      this.warp ??= createCpuWarp(frame)
      const call = {
        pixels,
        refilled: layer.asset.static !== true,
        size: layer.need,
        matrix: this.matrix,
        uv: layer.uv,
        opacity: this.opacity,
        background: this.background,
      }
      if (!this.above && this.plan.yuv) {
        // Nothing to blend over it: warped and packed two rows at a time, straight to I420.
        const buffer = await acquire()
        this.warp.drawI420(call, buffer)
        this.count++
        return buffer
      }
      rgba = this.warp.draw(call)
    } else return undefined
    return this.finish(rgba, t, acquire)
  }

  /**
   * A frame of the background: the frame every draw starts from, as GL clears it. Handed on as it is when nothing
   * is blended over it (the sink copies or packs it); a copy to blend on otherwise.
   */
  private groundFrame(): Uint8Array {
    const { width, height } = this.plan.frame
    if (!this.ground) {
      this.ground = new Uint8Array(width * height * 4)
      const bytes = this.background.map((c) => Math.round(c * 255))
      for (let p = 0; p < this.ground.length; p += 4) this.ground.set(bytes, p)
    }
    if (!this.above) return this.ground
    this.scratch ??= new Uint8Array(this.ground.length)
    this.scratch.set(this.ground)
    return this.scratch
  }

  /** The layers over the cover blended onto `rgba`, handed on in a buffer from `acquire`. */
  private async finish(rgba: Uint8Array, t: number, acquire: () => Promise<Uint8Array>): Promise<Uint8Array> {
    const { frame } = this.plan
    for (let i = 0; i < this.above; i++) {
      const o = this.overlays[i]!
      const over = askSource(o.layer, o.source, 'pixels', t - o.layer.start)
      const bytes = over instanceof Promise ? await over : over
      if (bytes && bytes.length === o.size.width * o.size.height * 4)
        blendOver(rgba, frame, { pixels: bytes, size: o.size, matrix: o.matrix, quad: o.layer.quad, uv: o.layer.uv, opacity: o.opacity })
    }
    const buffer = await acquire()
    this.take!(rgba, buffer)
    this.count++
    return buffer
  }
}
