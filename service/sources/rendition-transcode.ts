import { stat } from 'node:fs/promises'
import { BT709_TAGS, bt709Filters, ffmpegArgs, fpsRational, probe, runFfmpeg, toneMapFilters } from '../../core/index.js'
import { CONTENT_TYPES } from '../storage/storage.js'
import { type Box, RENDITION_FORMATS, type Rendition, type RenditionFormat, renditionSize } from './rendition-schema.js'

/** What a made rendition is, read back from the file by ffprobe. */
export interface Made {
  width: number | null
  height: number | null
  duration: number | null
  fps: number | null
  bytes: number
  contentType: string
}

/** Quality 1–100 onto an encoder's scale from `worst` to `best`; none given: the encoder's sensible default. */
const scaled = (q: number | undefined, worst: number, best: number, fallback: number) =>
  q === undefined ? fallback : Math.round(worst + ((q - 1) / 99) * (best - worst))

/** The scaling part of the filter graph: Shotstack's `fit` into `out` (`src` is the upright source size). */
export function fitFilter(fit: Rendition['fit'], src: Box, out: Box, format: RenditionFormat): string {
  const { width: W, height: H } = out
  const even = RENDITION_FORMATS[format] === 'video' ? ':force_divisible_by=2' : ''
  // Bars (contain, none) are transparent where the format keeps alpha, black elsewhere.
  const pad = format === 'png' || format === 'webp' ? `format=rgba,pad=${W}:${H}:-1:-1:color=black@0` : `pad=${W}:${H}:-1:-1:color=black`
  switch (fit ?? 'crop') {
    case 'cover':
      return `scale=${W}:${H},setsar=1`
    case 'contain':
      return `scale=${W}:${H}:force_original_aspect_ratio=decrease${even},setsar=1,${pad}`
    case 'none':
      return `crop=${Math.min(src.width, W)}:${Math.min(src.height, H)},setsar=1,${pad}`
    default:
      return `scale=${W}:${H}:force_original_aspect_ratio=increase${even},crop=${W}:${H},setsar=1`
  }
}

/** Encoder arguments per format; `quality` maps onto CRF (x264, VP9), JPEG's qscale or WebP's quality. */
function encoderArgs(r: Rendition, format: RenditionFormat): string[] {
  const gop = r.keyframeInterval ? ffmpegArgs`-g ${r.keyframeInterval}` : []
  switch (format) {
    case 'mp4':
    case 'mov':
      return [
        ...ffmpegArgs`-c:v libx264 -preset veryfast -crf ${scaled(r.quality, 40, 14, 23)} -pix_fmt yuv420p`,
        ...BT709_TAGS,
        ...gop,
        ...ffmpegArgs`-c:a aac -b:a 160k -movflags +faststart -f ${format}`,
      ]
    case 'webm':
      return [
        ...ffmpegArgs`-c:v libvpx-vp9 -deadline realtime -cpu-used 8 -row-mt 1 -crf ${scaled(r.quality, 55, 18, 35)} -b:v 0 -pix_fmt yuv420p`,
        ...BT709_TAGS,
        ...gop,
        ...ffmpegArgs`-c:a libopus -b:a 128k -f webm`,
      ]
    case 'gif':
      return ffmpegArgs`-loop 0 -f gif`
    case 'jpg':
      return ffmpegArgs`-frames:v 1 -update 1 -c:v mjpeg -q:v ${scaled(r.quality, 31, 2, 3)} -f image2`
    case 'png':
      return ffmpegArgs`-frames:v 1 -update 1 -c:v png -f image2`
    case 'webp':
      return ffmpegArgs`-frames:v 1 -update 1 -c:v libwebp -quality ${r.quality ?? 80} -f webp`
  }
}

/**
 * How a still is made from a video's YUV, read through the frame's own matrix (swscale's `auto`). JPEG is JFIF:
 * BT.601 full range, 4:4:4 as the render's own stills — swscale would otherwise copy a BT.709 video's matrix into
 * it unconverted and every JPEG viewer would shift its reds. WebP as BGRA: libwebp converts with WebP's own
 * (BT.601) matrix, where a yuv420p frame would pass through as BT.709. PNG is RGB already.
 */
const STILL_COLOUR: Partial<Record<RenditionFormat, string[]>> = {
  jpg: ['scale=out_color_matrix=bt601:out_range=full:flags=accurate_rnd+full_chroma_int', 'format=yuvj444p'],
  webp: ['format=bgra'],
}

/**
 * Makes one rendition of the local file `input` at `output`: upright (rotation metadata applied unless
 * `fixRotation: false`), at its `fps`, fitted into its size, encoded as `format` — a still format takes the
 * first frame, GIF builds its own palette. Sound is kept for mp4, mov and webm.
 */
export async function transcode(input: string, output: string, r: Rendition, format: RenditionFormat, signal?: AbortSignal): Promise<Made> {
  const source = await probe(input, { signal })
  const video = source.streams.find((s) => s.type === 'video' && !s.attachedPic)
  if (!video?.width || !video.height) throw new Error('the source has no picture to make a rendition from')
  const turned = r.fixRotation !== false && Math.abs(video.rotation ?? 0) % 180 === 90
  const src = turned ? { width: video.height, height: video.width } : { width: video.width, height: video.height }
  const box = renditionSize(r, src, format)
  const moving = RENDITION_FORMATS[format] === 'video'
  // Colour: HDR and BT.2020 sources tone-mapped to SDR BT.709 (stills at the source size — one frame, and before
  // a png's transparent bars; moving formats after the fit, the step costs per pixel); mp4, mov and webm then in
  // BT.709's matrix, TV range, tagged so — what players assume. Stills keep their formats' own rules (STILL_COLOUR).
  const hdr = toneMapFilters(video.colorTransfer, video.colorPrimaries, video.colorSpace)
  const steps = [
    ...(moving && r.fps ? [`fps=${fpsRational(r.fps)}`] : []),
    ...(moving ? [] : hdr),
    fitFilter(r.fit, src, box, format),
    ...(!moving ? (STILL_COLOUR[format] ?? []) : format === 'gif' ? hdr : bt709Filters(video)),
  ]
  let graph = `[0:v:0]${steps.join(',')}`
  graph += format === 'gif' ? ',split[a][b];[a]palettegen=stats_mode=diff[p];[b][p]paletteuse=dither=bayer:bayer_scale=4:diff_mode=rectangle[out]' : '[out]'
  const sound = moving && format !== 'gif' ? ffmpegArgs`-map 0:a:0?` : []
  const rotate = r.fixRotation === false ? ['-noautorotate'] : []
  await runFfmpeg(
    [
      ...ffmpegArgs`-v error -y -nostdin`,
      ...rotate,
      ...ffmpegArgs`-i ${input} -filter_complex ${graph} -map [out]`,
      ...sound,
      ...encoderArgs(r, format),
      output,
    ],
    { signal, what: `the ${format} rendition` },
  )
  const made = await probe(output, { signal })
  const picture = made.streams.find((s) => s.type === 'video')
  return {
    width: picture?.width ?? null,
    height: picture?.height ?? null,
    duration: moving && made.duration ? Math.round(made.duration * 1000) / 1000 : null,
    fps: moving && picture?.fps ? Math.round(picture.fps * 1000) / 1000 : null,
    bytes: (await stat(output)).size,
    contentType: CONTENT_TYPES[format]!,
  }
}
