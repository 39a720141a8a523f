import { writeStill } from '../ffmpeg/still.js'
import type { RenderPlan } from '../plan/plan.js'

/**
 * `output.poster` and `output.thumbnail`: copies of the frames at their capture times, taken while the
 * video renders (no second pass) and written as JPEGs beside the output file once it is done. A capture
 * time outside the rendered range uses the nearest rendered frame.
 */
export function createCaptures(plan: RenderPlan, out: string) {
  const stem = out.replace(/\.[^./]+$/, '')
  const size = plan.scaleTo ?? plan.frame
  const wanted: { name: 'poster' | 'thumbnail'; frame: number; path: string; size: typeof size; rgba?: Uint8Array }[] = []
  const clampFrame = (seconds: number) => Math.min(plan.firstFrame + plan.frames - 1, Math.max(plan.firstFrame, Math.round(seconds * plan.fps)))
  const { poster, thumbnail } = plan.edit.output
  if (poster) wanted.push({ name: 'poster', frame: clampFrame(poster.capture), path: `${stem}-poster.jpg`, size })
  if (thumbnail) {
    const even = (n: number) => Math.max(2, 2 * Math.round((n * thumbnail.scale) / 2))
    wanted.push({
      name: 'thumbnail',
      frame: clampFrame(thumbnail.capture),
      path: `${stem}-thumbnail.jpg`,
      size: { width: even(size.width), height: even(size.height) },
    })
  }
  return {
    onFrame: wanted.length
      ? (frame: number, rgba: Uint8Array) => {
          for (const w of wanted) if (w.frame === frame) w.rgba = rgba.slice()
        }
      : undefined,
    async write(): Promise<{ poster?: string; thumbnail?: string }> {
      const result: { poster?: string; thumbnail?: string } = {}
      for (const w of wanted) {
        if (!w.rgba) continue
        await writeStill(w.rgba, plan.frame, w.path, w.size.width === plan.frame.width && w.size.height === plan.frame.height ? undefined : w.size)
        result[w.name] = w.path
      }
      return result
    },
  }
}
