import type { RenderPlan } from '../plan/plan.js'
import { encodePng } from '../render/png.js'
import { FrameScaler } from './frame-scaler.js'

/**
 * The frames of a preview session as the `png` output writes them, no process started per frame: encoded here,
 * and scaled to `output.scaleTo` first by the session's one warm scaler (FrameScaler: the output's filter).
 */
export class FrameEncoder {
  private scaler: FrameScaler | undefined

  /** The frame the plan's painter holds, as PNG. */
  async encode(plan: RenderPlan): Promise<Buffer> {
    const { width, height } = plan.frame
    const rgba = new Uint8Array(width * height * 4)
    plan.painter.read(rgba)
    const to = plan.scaleTo
    if (!to) return encodePng(rgba, width, height)
    const s = this.scaler
    if (!s || s.failed || !same(s.from, plan.frame) || !same(s.to, to)) {
      s?.close()
      this.scaler = new FrameScaler(plan.frame, to)
    }
    return encodePng(await this.scaler!.scale(rgba), to.width, to.height, 3)
  }

  close(): void {
    this.scaler?.close()
    this.scaler = undefined
  }
}

const same = (a: { width: number; height: number }, b: { width: number; height: number }) => a.width === b.width && a.height === b.height
