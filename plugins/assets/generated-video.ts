import type { PrepareContext, PreparedAsset, Size } from '../../core/index.js'
import { prepareVideo, probeMedia } from '../lib/video/prepare-video.js'

/** Seconds of video asked for when neither the asset's `duration` nor a numeric clip `length` says. */
const DEFAULT_SECONDS = 5

/**
 * A generated clip's size: the asked aspect (default: the frame's) with the frame's long side, even for 4:2:0 —
 * a 9:16 clip in a 16:9 render is made upright at full height, then fitted like any video.
 */
export function generatedSize(aspectRatio: string | undefined, frame: Size): Size {
  const [w, h] = (aspectRatio ?? '').split(':').map(Number)
  const aspect = w && h ? w / h : frame.width / frame.height
  const long = Math.max(frame.width, frame.height)
  const even = (n: number) => Math.max(2, 2 * Math.round(n / 2))
  return aspect >= 1 ? { width: even(long), height: even(long / aspect) } : { width: even(long * aspect), height: even(long) }
}

/**
 * `video` with a `prompt` and `image-to-video`: a clip from the render's video engine (a vendor on a server
 * that has one, the sandbox's moving picture otherwise — said in a warning), exactly the asked duration, then
 * decoded like any video. `image` is a source URL loaded through the loaders first.
 */
export async function prepareGeneratedVideo(
  ask: { prompt?: string; image?: string; duration?: string | number; aspectRatio?: string; model?: string },
  ctx: PrepareContext,
): Promise<PreparedAsset> {
  const asked = Number(ask.duration)
  const duration = asked > 0 ? asked : (ctx.length ?? DEFAULT_SECONDS)
  if (ask.model) ctx.warn(`video model "${ask.model}" is not chosen per clip; the server's video engine made this clip`)
  const image = ask.image ? await ctx.load(ask.image) : undefined
  const video = await ctx.runAi('video', { prompt: ask.prompt, image, duration, ...generatedSize(ask.aspectRatio, ctx.frame) })
  if (video.standIn) ctx.warn('video generation needs an AI video provider, which is not configured; a moving picture from the sandbox engine stands in')
  return prepareVideo(video.path, await probeMedia(video.path, video.path, ctx), {}, ctx)
}
