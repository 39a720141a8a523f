import { open } from 'node:fs/promises'
import { RenderError } from '../../core/index.js'
import { probeFile } from '../media/probe.js'

/** What an imported file turned out to be: read from its bytes, never from its name or the server's content-type. */
export interface Sniffed {
  type: 'video' | 'image' | 'audio' | 'font'
  contentType: string
  /** The file name's extension that matches the content. */
  ext: string
  width: number | null
  height: number | null
  duration: number | null
  fps: number | null
  hasAudio: boolean
}

const FONTS: Array<[magic: string, ext: string, contentType: string]> = [
  ['00010000', 'ttf', 'font/ttf'],
  ['74727565', 'ttf', 'font/ttf'], // 'true': Apple TrueType
  ['4f54544f', 'otf', 'font/otf'], // 'OTTO'
  ['774f4646', 'woff', 'font/woff'],
  ['774f4632', 'woff2', 'font/woff2'],
]
// Still images by their codec (ffprobe's demuxer is `image2` or `<codec>_pipe` depending on the file's name).
const IMAGES: Record<string, [string, string]> = {
  png: ['png', 'image/png'],
  mjpeg: ['jpg', 'image/jpeg'],
  webp: ['webp', 'image/webp'],
  gif: ['gif', 'image/gif'],
  bmp: ['bmp', 'image/bmp'],
  svg: ['svg', 'image/svg+xml'],
  tiff: ['tiff', 'image/tiff'],
}
const STILL_DEMUXERS = /^(image2|\w+_pipe|gif|svg)$/
const CONTAINERS: Array<[test: RegExp, video: [string, string], audio: [string, string]]> = [
  [/mov|mp4|m4a/, ['mp4', 'video/mp4'], ['m4a', 'audio/mp4']],
  [/matroska|webm/, ['webm', 'video/webm'], ['webm', 'audio/webm']],
  [/^mp3$/, ['mp4', 'video/mp4'], ['mp3', 'audio/mpeg']],
  [/^wav$/, ['wav', 'audio/wav'], ['wav', 'audio/wav']],
  [/^ogg$/, ['ogv', 'video/ogg'], ['ogg', 'audio/ogg']],
  [/^flac$/, ['flac', 'audio/flac'], ['flac', 'audio/flac']],
  [/^aac$/, ['aac', 'audio/aac'], ['aac', 'audio/aac']],
]

/** Fails the import with the reason in words: `what` names the file as the user knows it (its URL). */
export const notMedia = (what: string, why: string) => new RenderError('E_ASSET_UNREADABLE', `${what} is not a video, image, audio or font file (${why})`)

/**
 * Reads what a downloaded file really is: a font by its first four bytes, anything else by ffprobe (which
 * reads content, not names). HTML saved as `.mp4`, an empty file or text fails with what it looks like.
 */
export async function sniff(path: string, what: string): Promise<Sniffed> {
  const head = await firstBytes(path, 512)
  const font = FONTS.find(([magic]) => head.subarray(0, 4).toString('hex') === magic)
  if (font) return { type: 'font', ext: font[1], contentType: font[2], width: null, height: null, duration: null, fps: null, hasAudio: false }
  if (head.length === 0) throw notMedia(what, 'it is empty')
  const text = head.toString('latin1').trimStart().toLowerCase()
  if (text.startsWith('<!doctype html') || text.startsWith('<html')) throw notMedia(what, 'it is an HTML page')
  const probe = await probeFile(path, what).catch(() => {
    throw notMedia(what, 'ffprobe cannot read it')
  })
  const format = String(probe.format?.format_name ?? '')
  const video = probe.streams.find((s) => s.codec_type === 'video') as (Record<string, unknown> & { disposition?: Record<string, number> }) | undefined
  const audio = probe.streams.find((s) => s.codec_type === 'audio')
  const duration = Number(probe.format?.duration) || null
  const image = STILL_DEMUXERS.test(format.split(',')[0]!) ? IMAGES[String(video?.codec_name)] : undefined
  const dims = { width: video ? Number(video.width) || null : null, height: video ? Number(video.height) || null : null }
  if (image && video) return { type: 'image', ext: image[0], contentType: image[1], ...dims, duration: null, fps: null, hasAudio: false }
  const container = CONTAINERS.find(([test]) => format.split(',').some((f) => test.test(f)))
  // A cover picture in an mp3 shows as a video stream of one frame: audio with art is still audio.
  const isVideo = video && !video.disposition?.attached_pic
  if (container && isVideo) {
    const [num, den] = String(video.avg_frame_rate ?? '0/1')
      .split('/')
      .map(Number)
    const fps = num && den ? Math.round((num / den) * 1000) / 1000 : null
    return { type: 'video', ext: container[1][0], contentType: container[1][1], ...dims, duration, fps, hasAudio: !!audio }
  }
  if (container && audio)
    return { type: 'audio', ext: container[2][0], contentType: container[2][1], width: null, height: null, duration, fps: null, hasAudio: true }
  throw notMedia(what, `ffprobe reads it as "${format || 'unknown'}"`)
}

async function firstBytes(path: string, n: number): Promise<Buffer> {
  const file = await open(path, 'r')
  try {
    const { buffer, bytesRead } = await file.read(Buffer.alloc(n), 0, n, 0)
    return buffer.subarray(0, bytesRead)
  } finally {
    await file.close()
  }
}
