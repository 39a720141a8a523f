import { createHash, randomBytes } from 'node:crypto'
import { readFile, writeFile } from 'node:fs/promises'
import { join } from 'node:path'
import { type AiProviderPlugin, defineAiProvider, ffmpegArgs, probe, RenderError, runFfmpeg } from '../../../core/index.js'
import { sandboxProvider } from '../sandbox.js'
import { evenSize } from './video-clip.js'

/** Frame rate of sandbox clips: Shotstack's default output rate, so a clip drops into a render frame for frame. */
export const SANDBOX_VIDEO_FPS = 25

/**
 * `video` as a free local stand-in for every model: the given `image` (or the sandbox picture of the prompt)
 * made into a moving clip of exactly `duration` seconds (rounded to whole frames at 25 fps) and
 * `width`×`height`. Two layers give a parallax feel: a blurred, darkened copy fills the frame and pans one way,
 * while the whole picture, fitted inside 86 % of the frame, zooms in slowly and drifts the other way — so an
 * image of any aspect is shown entire, never cropped. Pan direction comes from the request's hash.
 *
 * Deterministic: same request (its image by content) → same frames, and the same bytes on the same ffmpeg
 * (`-bitexact`, no timestamps or encoder strings in the file; x264's threading is deterministic by default).
 */
export const sandboxVideoProvider: AiProviderPlugin<'video'> = defineAiProvider({
  kind: 'ai',
  name: 'sandbox-video',
  task: 'video',
  models: ['sandbox'],
  local: true,
  standIn: true,
  async run(req, { signal, workDir }) {
    const { width: W, height: H } = evenSize(req, 'sandbox-video')
    if (!(req.duration > 0)) throw new RenderError('E_PROVIDER_FAILED', `sandbox-video: duration must be positive, not ${req.duration}`)
    const fps = SANDBOX_VIDEO_FPS
    const frames = Math.max(1, Math.round(req.duration * fps))
    const id = randomBytes(6).toString('hex')
    // The image by its bytes, not its path: a render's cache folder is its own, and the same edit must move the
    // same way wherever it renders.
    const imageHash = req.image
      ? createHash('sha256')
          .update(await readFile(req.image))
          .digest('hex')
      : ''
    const digest = createHash('sha256')
      .update(JSON.stringify([req.prompt ?? '', imageHash, W, H, frames]))
      .digest()
    let src = req.image
    let size: { width: number; height: number }
    if (src) {
      const video = (await probe(src, { signal })).streams.find((s) => s.type === 'video')
      if (!video?.width || !video.height) throw new RenderError('E_ASSET_UNREADABLE', 'sandbox-video: the start image has no picture')
      size = { width: video.width, height: video.height }
    } else {
      // Larger than the frame (capped for cost): the slow zoom then magnifies real detail, not pixels.
      const k = Math.min(1.25, 2560 / Math.max(W, H))
      size = { width: Math.round(W * k), height: Math.round(H * k) }
      const image = await sandboxProvider.generate({ prompt: req.prompt ?? '', model: req.model, ...size }, { signal })
      src = join(workDir, `sandbox-video-${id}.png`)
      await writeFile(src, image.data)
    }
    // The picture layer: the source fitted inside 86 % of the frame, even-sized for 4:2:0.
    const fit = Math.min((0.86 * W) / size.width, (0.86 * H) / size.height)
    const fw = Math.max(2, 2 * Math.round((size.width * fit) / 2))
    const fh = Math.max(2, 2 * Math.round((size.height * fit) / 2))
    // zoompan crops at whole input pixels; zooming from a 2× copy halves the visible step (capped for 4K's cost).
    const pre = Math.max(1, Math.min(2, 4096 / Math.max(fw, fh)))
    // The backdrop is blurred, so half resolution costs a quarter and looks the same.
    const bw = Math.max(2, Math.round(W / 2))
    const bh = Math.max(2, Math.round(H / 2))
    const last = Math.max(1, frames - 1)
    const dir = digest[0]! & 1 ? 1 : -1
    const drift = Math.round(0.025 * W)
    const graph = [
      '[0:v]format=rgb24,split[a][b]',
      `[a]scale=${bw}:${bh}:force_original_aspect_ratio=increase,crop=${bw}:${bh},gblur=sigma=${(Math.min(bw, bh) / 30).toFixed(2)},` +
        `eq=brightness=-0.12:saturation=0.8,zoompan=z=1.25:x='(iw-iw/zoom)*${dir > 0 ? `on/${last}` : `(1-on/${last})`}':y='(ih-ih/zoom)/2'` +
        `:d=${frames}:s=${W}x${H}:fps=${fps}[bg]`,
      `[b]scale=${Math.round(fw * pre)}:${Math.round(fh * pre)}:flags=lanczos,` +
        `zoompan=z='1+0.05*on/${last}':x='iw/2-iw/zoom/2':y='ih/2-ih/zoom/2':d=${frames}:s=${fw}x${fh}:fps=${fps}[fg]`,
      `[bg][fg]overlay=x='(W-w)/2+${-dir * drift}*(2*n/${last}-1)':y='(H-h)/2':eval=frame,scale=out_color_matrix=bt709:out_range=tv,format=yuv420p[v]`,
    ].join(';')
    const out = join(workDir, `sandbox-video-${id}.mp4`)
    await runFfmpeg(
      // One encoder and filter thread: byte-identical output even on a busy machine (threaded runs differed under load).
      ffmpegArgs`-v error -y -filter_threads 1 -i ${src} -filter_complex ${graph} -map [v] -frames:v ${frames} -c:v libx264 -threads 1 -preset veryfast
        -crf 20 -pix_fmt yuv420p -colorspace bt709 -color_primaries bt709 -color_trc bt709 -color_range tv
        -fflags +bitexact -flags:v +bitexact -map_metadata -1 -movflags +faststart ${out}`,
      { signal, what: 'sandbox-video' },
    )
    return { path: out, duration: frames / fps }
  },
})
