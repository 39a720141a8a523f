import {
  frameOrigin,
  probe,
  probeHardware,
  RawVideoDecoder,
  RenderError,
  type Animatable,
  type Hardware,
  type PrepareContext,
  type PreparedAsset,
  type Probe,
  type ProbedStream,
  unreadableReason,
} from '../../../core/index.js'
import { decodedSource, i420Matrix } from './decoded-source.js'
import { scrubbedVideo } from './scrubbed-video.js'

// Preparing a video source for drawing: what the `video`, `luma` and generated-video assets share (a room of its own,
// so the generated-video asset no longer imports the video plugin that imports it).

/**
 * ffprobe of a loaded source; an unreadable file fails naming the clip and the `src` the edit gave — not the
 * cache file it was downloaded to, which ffprobe's own words name (twice).
 */
export async function probeMedia(path: string, src: string, ctx: PrepareContext): Promise<Probe> {
  return probe(path, { signal: ctx.signal }).catch((e: Error) => {
    const why = unreadableReason(e, path)
    throw new RenderError('E_ASSET_UNREADABLE', `${ctx.path}.asset.src: ${src} is not a readable media file (${why})`, { path: `${ctx.path}.asset.src`, src })
  })
}

/** A still picture (however it is named) as ffprobe reports it. */
export const isStill = (info: Probe) => /_pipe$|^image2$/.test(info.format)

/** A decoded-video clip: frames from one native ffmpeg decoder per clip, and its sound. */
export function prepareVideo(
  path: string,
  info: Probe,
  params: { src?: string; trim?: number; speed?: number; volume?: Animatable; volumeEffect?: 'none' | 'fadeIn' | 'fadeOut' | 'fadeInFadeOut' },
  ctx: PrepareContext,
): PreparedAsset {
  const where = `${ctx.path}.asset`
  // A still picture (however it is named) or cover art is not a video.
  const still = isStill(info)
  const stream = still ? undefined : info.streams.find((s) => s.type === 'video' && !s.attachedPic)
  if (!stream?.width || !stream.height) {
    throw new RenderError(
      'E_ASSET_UNREADABLE',
      `${where}.src: ${params.src ?? path} is not a video (${still ? `a ${info.format.replace(/_pipe$/, '')} image` : 'no video stream'})`,
      { path: `${where}.src` },
    )
  }
  const speed = params.speed ?? 1
  // Speed 0 is a freeze frame: the picture at `trim` for the whole clip, silent (Shotstack Studio's "0x").
  const frozen = speed <= 0
  const trim = params.trim ?? 0
  const fileDuration = info.duration ?? stream.duration ?? 0
  if (trim >= fileDuration && fileDuration > 0) ctx.warn(`trim ${trim} s is past the end of the ${fileDuration.toFixed(2)} s source; the clip shows nothing`)
  const rotated = Math.abs(stream.rotation ?? 0) % 180 === 90
  const size = rotated ? { width: stream.height, height: stream.width } : { width: stream.width, height: stream.height }
  const hasAudio = info.streams.some((s) => s.type === 'audio')
  const fps = ctx.frame.fps
  return {
    size,
    duration: frozen ? undefined : Math.max(0, fileDuration - trim) / speed,
    static: frozen,
    audio:
      hasAudio && !frozen
        ? { path, trim, speed, volume: params.volume ?? 1, effect: params.volumeEffect, duration: Math.max(0, fileDuration - trim) }
        : undefined,
    async open(gpu, need, from, hints) {
      const alpha = alphaOptions(stream)
      const onGpu = hardwareDecode(stream, await probeHardware())
      // Threads too with NVDEC: a profile it cannot decode falls back to software decoding.
      const inputArgs = [...onGpu, ...decodeThreads(stream, frozen ? 1 : speed, fps, ctx.cores), ...(alpha.inputArgs ?? [])]
      const decoding = {
        path,
        trim,
        speed: frozen ? 1 : speed,
        fps,
        width: need.width,
        height: need.height,
        label: `${where}.src`,
        inputArgs,
        filters: alpha.filters,
        transfer: stream.colorTransfer,
        primaries: stream.colorPrimaries,
        matrix: stream.colorSpace,
      }
      // A preview session's playhead goes anywhere: decoded frames are kept and decoders seek.
      if (hints?.scrub && !frozen) return scrubbedVideo(gpu, need, decoding, { from, length: hints.length, keep: hints.keep })
      // Starting mid-clip (a render range, a frame preview, a piece of a split render): seek there instead of
      // decoding from `trim`, on the frame grid a decoder from `trim` lays (so the frames are the whole render's).
      const skip = frozen ? 0 : Math.round(from * fps)
      const origin = skip > 0 ? await frameOrigin(path, trim) : undefined
      const i420 = i420Matrix(stream, need, ctx.frame, hints)
      const decoder = new RawVideoDecoder({ ...decoding, skip, origin, frames: frozen ? 1 : undefined, format: i420 ? 'i420' : 'rgba' })
      const at = (t: number) => (frozen ? 0 : Math.max(0, Math.round(t * fps) - skip))
      return decodedSource(gpu, need, decoder, at, { alpha: !!stream.alpha, i420 })
    },
  }
}

/** Codecs whose single-threaded decoder keeps well ahead of the compositor at 1080p. */
const LIGHT_CODECS = new Set(['h264', 'vp8', 'mpeg4', 'mpeg2video', 'mjpeg', 'prores', 'png', 'gif'])

/**
 * `-threads 1` for the decoder where one thread is plenty. ffmpeg's default (cores + 1 frame threads) keeps a
 * decoding context per thread — ~75 MB more for a 1080p H.264 source — for throughput the compositor cannot
 * use: one thread decodes 1080p H.264 at ~90 frames/s on this project's 2-core machines, three times what a
 * render draws. Sources larger than 1080p, fast-forwarded ones (several source frames per output frame) and
 * heavier codecs (HEVC, VP9, AV1) keep ffmpeg's default — sized to the render's share of the machine (`cores`)
 * when it has one, so eight pieces on 16 cores do not each open 17 decoding contexts.
 */
export function decodeThreads(stream: ProbedStream, speed: number, fps: number, cores?: number): string[] {
  const shared = cores === undefined ? [] : ['-threads', String(Math.max(1, cores))]
  if (!LIGHT_CODECS.has(stream.codec) || !stream.width || !stream.height) return shared
  const sourceFramesPerFrame = Math.max(1, (speed * (stream.fps ?? fps)) / fps)
  return stream.width * stream.height * sourceFramesPerFrame <= 1920 * 1088 * 1.5 ? ['-threads', '1'] : shared
}

/** Codecs NVDEC decodes (the GPU generations this targets: H.264, HEVC, VP9, AV1 and the MPEGs). */
const NVDEC_CODECS = new Set(['h264', 'hevc', 'vp9', 'av1', 'mpeg2video', 'mpeg4'])

/**
 * `-hwaccel cuda` where this machine's GPU decodes (`probeHardware`): ffmpeg hands the frames back to memory and
 * the same filters scale and convert them, so what is drawn does not change — the CPU's ~20 ms a 1080p frame
 * does. Sources with alpha keep libvpx (NVDEC drops alpha); other codecs decode on the CPU.
 */
export function hardwareDecode(stream: ProbedStream, hw: Hardware): string[] {
  return hw.cudaDecode.ok && NVDEC_CODECS.has(stream.codec) && !stream.alpha ? ['-hwaccel', 'cuda'] : []
}

/** VP8/VP9 keep alpha only through libvpx's decoder; frames with alpha are premultiplied for blending. */
function alphaOptions(stream: ProbedStream): { inputArgs?: string[]; filters?: string[] } {
  if (!stream.alpha) return {}
  const inputArgs = stream.codec === 'vp9' ? ['-c:v', 'libvpx-vp9'] : stream.codec === 'vp8' ? ['-c:v', 'libvpx'] : []
  return { inputArgs, filters: ['premultiply=inplace=1'] }
}
