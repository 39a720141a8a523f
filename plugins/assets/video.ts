import { defineAssetPlugin, probe, RawVideoDecoder, RenderError, VideoAssetSchema, type ProbedStream } from '../../core/index.js'

/**
 * `video`: frames from a native ffmpeg decoder per clip (a source used twice gets two decoders). ffmpeg
 * seeks to `trim`, retimes by `speed`, resamples to the output fps and scales to the drawn size, so frame
 * k of the clip shows source time `trim + k·speed/fps`. After the source ends the clip shows nothing.
 * The clip's sound joins the render's audio graph with its `volume` and `volumeEffect`.
 */
export const video = defineAssetPlugin({
  kind: 'asset',
  name: 'video',
  schema: VideoAssetSchema,
  async prepare(params, ctx) {
    const where = `${ctx.path}.asset`
    if (!params.src) throw new RenderError('E_PLUGIN_NOT_FOUND', `${where}: a video with a "prompt" needs an AI video provider; none is configured`, { path: `${where}.prompt` })
    const path = await ctx.load(params.src)
    const info = await probe(path, { signal: ctx.signal }).catch((e: Error) => {
      throw new RenderError('E_ASSET_UNREADABLE', `${where}.src: not a readable media file (${e.message})`, { path: `${where}.src` })
    })
    // A still picture (however it is named) or cover art is not a video.
    const still = /_pipe$|^image2$/.test(info.format)
    const stream = still ? undefined : info.streams.find((s) => s.type === 'video' && !s.attachedPic)
    if (!stream?.width || !stream.height) {
      throw new RenderError('E_ASSET_UNREADABLE', `${where}.src: ${params.src} is not a video (${still ? `a ${info.format.replace(/_pipe$/, '')} image` : 'no video stream'})`, { path: `${where}.src` })
    }
    let speed = params.speed ?? 1
    if (speed <= 0) {
      ctx.warn('speed 0 is not playable; using 1')
      speed = 1
    }
    const trim = params.trim ?? 0
    const fileDuration = info.duration ?? stream.duration ?? 0
    if (trim >= fileDuration && fileDuration > 0) ctx.warn(`trim ${trim} s is past the end of the ${fileDuration.toFixed(2)} s source; the clip shows nothing`)
    const rotated = Math.abs(stream.rotation ?? 0) % 180 === 90
    const size = rotated ? { width: stream.height, height: stream.width } : { width: stream.width, height: stream.height }
    const hasAudio = info.streams.some((s) => s.type === 'audio')
    const fps = ctx.frame.fps
    return {
      size,
      duration: Math.max(0, fileDuration - trim) / speed,
      audio: hasAudio ? { path, trim, speed, volume: params.volume ?? 1, effect: params.volumeEffect, duration: Math.max(0, fileDuration - trim) } : undefined,
      async open(gpu, need, from) {
        // Starting mid-clip (a render range): seek there instead of decoding from `trim`.
        const skip = Math.round(from * fps)
        const decoder = new RawVideoDecoder({ path, trim: trim + (skip / fps) * speed, speed, fps, width: need.width, height: need.height, label: `${where}.src`, ...alphaOptions(stream) })
        const texture = gpu.texture(null, need.width, need.height)
        let shown: Uint8Array | null = null
        const upload = (data: Uint8Array | null) => {
          if (!data) return null
          if (data !== shown) gpu.update(texture, (shown = data))
          return texture
        }
        return {
          frame(t) {
            const data = decoder.frame(Math.max(0, Math.round(t * fps) - skip))
            return data instanceof Promise ? data.then(upload) : upload(data)
          },
          close() {
            decoder.close()
            gpu.release(texture)
          },
        }
      },
    }
  },
})

/** VP8/VP9 keep alpha only through libvpx's decoder; frames with alpha are premultiplied for blending. */
function alphaOptions(stream: ProbedStream): { inputArgs?: string[]; filters?: string[] } {
  if (!stream.alpha) return {}
  const inputArgs = stream.codec === 'vp9' ? ['-c:v', 'libvpx-vp9'] : stream.codec === 'vp8' ? ['-c:v', 'libvpx'] : []
  return { inputArgs, filters: ['premultiply=inplace=1'] }
}
