import { randomBytes } from 'node:crypto'
import { join } from 'node:path'
import {
  type AiProviderPlugin,
  BT709_TAGS,
  bt709Filters,
  defineAiProvider,
  ffmpegArgs,
  type Probe,
  probe,
  RenderError,
  runFfmpeg,
  toneMapFilters,
} from '../../../core/index.js'

export interface FfmpegUpscaleOptions {
  /** x264 preset for videos (default `fast`: 4K at `medium` costs about twice the CPU for little gain). */
  preset?: string
  /** x264 CRF for videos (default 18, visually lossless). */
  crf?: number
  /** unsharp luma amount, 0 = none (default 0.6: mild; ffmpeg's own default, 1, halos on upscaled edges). */
  sharpen?: number
}

// Still-image demuxers (`png_pipe`, `jpeg_pipe`, …; `image2` when ffprobe goes by the file name).
const STILL = /_pipe$|^image2$/

/**
 * `upscale` on the local ffmpeg, always available and free: an image or a video scaled with Lanczos to fit
 * inside exactly `width`×`height`, mildly sharpened (unsharp on luma), and padded with black — transparent
 * for PNGs with alpha — where the aspect differs. The whole picture is kept, never cropped: an upscale must
 * not lose content the user asked to enlarge; a caller that wants the frame filled crops before.
 * ffmpeg streams frame by frame, so memory stays bounded whatever the length; nothing passes through Node.
 * Images keep their format (JPEG stays JPEG, anything else becomes PNG); videos become H.264 mp4 with the
 * first audio track copied when it is AAC and re-encoded to AAC otherwise, in BT.709 TV range and tagged so.
 */
export function ffmpegUpscaleProvider(opts: FfmpegUpscaleOptions = {}): AiProviderPlugin<'upscale'> {
  return defineAiProvider({
    kind: 'ai',
    name: 'ffmpeg-upscale',
    task: 'upscale',
    models: ['lanczos'],
    local: true,
    async run(req, { signal, workDir }) {
      const { width: w, height: h } = req
      if (!Number.isInteger(w) || !Number.isInteger(h) || w < 1 || h < 1 || w > 16384 || h > 16384)
        throw new RenderError('E_PROVIDER_FAILED', `ffmpeg-upscale: ${w}×${h} is not a size it can make (1–16384 pixels a side)`)
      let info: Probe
      try {
        info = await probe(req.path, { signal })
      } catch (e) {
        if (signal.aborted) throw new RenderError('E_CANCELLED', 'cancelled')
        throw new RenderError('E_PROVIDER_FAILED', `ffmpeg-upscale: the source is neither an image nor a video (${(e as Error).message})`)
      }
      const video = info.streams.find((s) => s.type === 'video' && !s.attachedPic)
      if (!video) throw new RenderError('E_PROVIDER_FAILED', 'ffmpeg-upscale: the source has no picture')
      const still = STILL.test(info.format)
      // H.264 in 4:2:0 cannot hold an odd width or height; an image can.
      if (!still && (w % 2 || h % 2)) throw new RenderError('E_PROVIDER_FAILED', `ffmpeg-upscale: a video needs an even width and height, not ${w}×${h}`)
      const amount = opts.sharpen ?? 0.6
      const filter = [
        `scale=${w}:${h}:force_original_aspect_ratio=decrease:force_divisible_by=${still ? 1 : 2}:flags=lanczos+accurate_rnd+full_chroma_int`,
        // Sharpen before padding, so the border between picture and bars does not ring.
        ...(amount > 0 ? [`unsharp=5:5:${amount}:5:5:0`] : []),
        `pad=${w}:${h}:(ow-iw)/2:(oh-ih)/2:color=black@0`,
        'setsar=1',
      ].join(',')
      const id = randomBytes(6).toString('hex')
      if (still) {
        const jpeg = video.codec === 'mjpeg'
        const out = join(workDir, `upscale-${id}.${jpeg ? 'jpg' : 'png'}`)
        // `-q:v 2`: near-transparent JPEG quality, the counterpart of keeping a PNG lossless.
        await runFfmpeg([...ffmpegArgs`-v error -y -i ${req.path} -vf ${filter} -frames:v 1 -update 1`, ...(jpeg ? ['-q:v', '2'] : []), out], {
          signal,
          what: 'ffmpeg-upscale',
        })
        return { path: out, mime: jpeg ? 'image/jpeg' : 'image/png' }
      }
      // Colour as every video reelforge writes: HDR and BT.2020 tone-mapped to SDR BT.709 at the source size (before
      // the enlargement multiplies its per-pixel cost), then BT.709's matrix in TV range from the source's own, tagged.
      const picture = [...toneMapFilters(video.colorTransfer, video.colorPrimaries, video.colorSpace), filter, ...bt709Filters()].join(',')
      const audio = info.streams.find((s) => s.type === 'audio')
      const out = join(workDir, `upscale-${id}.mp4`)
      const audioArgs = !audio ? ['-an'] : audio.codec === 'aac' ? ['-c:a', 'copy'] : ffmpegArgs`-c:a aac -b:a 192k`
      await runFfmpeg(
        [
          // passthrough: every source frame once, at its own time (the default for mp4 would pad a late start).
          ...ffmpegArgs`-v error -y -i ${req.path} -map 0:v:0 -map 0:a:0? -vf ${picture} -vsync passthrough
            -c:v libx264 -preset ${opts.preset ?? 'fast'} -crf ${opts.crf ?? 18} -pix_fmt yuv420p -movflags +faststart`,
          ...BT709_TAGS,
          ...audioArgs,
          out,
        ],
        { signal, what: 'ffmpeg-upscale' },
      )
      return { path: out, mime: 'video/mp4' }
    },
  })
}
