import { existsSync, mkdirSync, writeFileSync } from 'node:fs'
import { rename } from 'node:fs/promises'
import { join } from 'node:path'
import { createCanvas } from '@napi-rs/canvas'
import { runFfmpeg } from '../../core/index.js'

/** What a remote source is replaced with. */
export type StandInKind = 'image' | 'video' | 'audio' | 'luma' | 'luma-image' | 'subtitles' | 'font'

/** Seconds of the generated media: long enough for the clips real edits cut from them. */
export const STAND_IN_SECONDS = { video: 30, audio: 60, luma: 2 } as const

/** File extensions by the kind they stand for. */
const EXT_KIND: Record<string, StandInKind> = {
  png: 'image',
  jpg: 'image',
  jpeg: 'image',
  webp: 'image',
  gif: 'image',
  bmp: 'image',
  mp4: 'video',
  mov: 'video',
  webm: 'video',
  m4v: 'video',
  mkv: 'video',
  mp3: 'audio',
  wav: 'audio',
  m4a: 'audio',
  aac: 'audio',
  ogg: 'audio',
  flac: 'audio',
  srt: 'subtitles',
  vtt: 'subtitles',
  ttml: 'subtitles',
  dfxp: 'subtitles',
  ttf: 'font',
  otf: 'font',
  woff: 'font',
  woff2: 'font',
}

/** The extension of a URL's path, lower-case, or undefined. */
export function extensionOf(src: string): string | undefined {
  const path = src.split(/[?#]/)[0]!
  return /\.([a-z0-9]{2,5})$/i.exec(path)?.[1]?.toLowerCase()
}

/**
 * Which stand-in replaces `src`: by its file extension, else by what reads it (the asset type, a
 * soundtrack, a font). A luma is a luma whatever its extension says, but keeps still-or-moving.
 */
export function kindFor(src: string, reader: string): { kind: StandInKind; ext: string } {
  const ext = extensionOf(src)
  let kind = ext ? EXT_KIND[ext] : undefined
  if (reader === 'luma') kind = kind === 'image' ? 'luma-image' : 'luma'
  if (!kind)
    kind =
      (
        {
          image: 'image',
          video: 'video',
          audio: 'audio',
          soundtrack: 'audio',
          font: 'font',
          caption: 'subtitles',
          'rich-caption': 'subtitles',
          'image-to-video': 'image',
        } as Record<string, StandInKind>
      )[reader] ?? 'image'
  const fallbackExt: Record<StandInKind, string> = { image: 'png', video: 'mp4', audio: 'mp3', luma: 'mp4', 'luma-image': 'png', subtitles: 'srt', font: 'ttf' }
  return { kind, ext: ext && EXT_KIND[ext] && (EXT_KIND[ext] === kind || (kind.startsWith('luma') && EXT_KIND[ext] !== 'audio')) ? ext : fallbackExt[kind] }
}

/** Generates (once, cached in `dir`) the stand-in file for a kind and extension; returns its path. */
export async function standIn(dir: string, kind: Exclude<StandInKind, 'font'>, ext: string): Promise<string> {
  mkdirSync(dir, { recursive: true })
  const path = join(dir, `${kind}.${ext}`)
  if (existsSync(path)) return path
  const part = `${path}.part.${ext}`
  if (kind === 'image' || kind === 'luma-image') writeFileSync(part, await picture(kind === 'luma-image', ext))
  else if (kind === 'subtitles') writeFileSync(part, subtitles(ext))
  else await runFfmpeg(['-v', 'error', '-y', ...FFMPEG[kind](ext), part])
  await rename(part, path)
  return path
}

const codec = (ext: string) =>
  ext === 'webm'
    ? ['-c:v', 'libvpx', '-deadline', 'realtime', '-cpu-used', '8', '-b:v', '1M', '-c:a', 'libopus']
    : ['-c:v', 'libx264', '-preset', 'ultrafast', '-pix_fmt', 'yuv420p', '-c:a', 'aac']
const FFMPEG: Record<'video' | 'audio' | 'luma', (ext: string) => string[]> = {
  // A moving test pattern with a tone: every frame differs, so frame-reuse bugs would show.
  video: (ext) => [
    '-f',
    'lavfi',
    '-i',
    `testsrc2=s=640x360:r=25:d=${STAND_IN_SECONDS.video}`,
    '-f',
    'lavfi',
    '-i',
    `sine=f=440:r=48000:d=${STAND_IN_SECONDS.video}`,
    ...codec(ext),
    '-shortest',
    '-f',
    ext === 'mov' ? 'mov' : ext === 'webm' ? 'webm' : 'mp4',
  ],
  audio: (ext) => [
    '-f',
    'lavfi',
    '-i',
    `sine=f=330:r=44100:d=${STAND_IN_SECONDS.audio},volume=0.3`,
    ...(ext === 'wav' ? [] : ext === 'mp3' ? ['-c:a', 'libmp3lame', '-q:a', '6'] : ['-c:a', 'aac']),
    '-f',
    ext === 'm4a' || ext === 'aac' ? 'mp4' : ext === 'ogg' ? 'ogg' : ext,
  ],
  // A left-to-right wipe from black to white, the commonest luma transition.
  luma: (ext) => [
    '-f',
    'lavfi',
    '-i',
    `nullsrc=s=640x360:r=25:d=${STAND_IN_SECONDS.luma},format=gray,geq=lum='clip((T/${STAND_IN_SECONDS.luma})*1.3*W-X,0,0.3*W)/(0.3*W)*255'`,
    ...codec(ext).filter((a, i, all) => !(a === '-c:a' || all[i - 1] === '-c:a')),
    '-f',
    ext === 'mov' ? 'mov' : ext === 'webm' ? 'webm' : 'mp4',
  ],
}

/** A 1280×720 picture: a colour gradient with a grid (or, for a luma, a black-to-white ramp). */
async function picture(luma: boolean, ext: string): Promise<Buffer> {
  const canvas = createCanvas(1280, 720)
  const g = canvas.getContext('2d')
  const grad = g.createLinearGradient(0, 0, 1280, 720)
  if (luma) {
    grad.addColorStop(0, '#000000')
    grad.addColorStop(1, '#ffffff')
  } else {
    grad.addColorStop(0, '#2b5876')
    grad.addColorStop(1, '#c0504d')
  }
  g.fillStyle = grad
  g.fillRect(0, 0, 1280, 720)
  if (!luma) {
    g.strokeStyle = 'rgba(255,255,255,0.35)'
    for (let x = 0; x <= 1280; x += 80) g.strokeRect(x, 0, 0, 720)
    for (let y = 0; y <= 720; y += 80) g.strokeRect(0, y, 1280, 0)
  }
  return ext === 'jpg' || ext === 'jpeg' ? canvas.encode('jpeg', 85) : ext === 'webp' ? canvas.encode('webp', 85) : canvas.encode('png')
}

/** One cue every 3 s for the audio stand-in's length. */
function subtitles(ext: string): string {
  const stamp = (s: number, sep: string) =>
    `${String(Math.floor(s / 3600)).padStart(2, '0')}:${String(Math.floor(s / 60) % 60).padStart(2, '0')}:${String(s % 60).padStart(2, '0')}${sep}000`
  const cues = Array.from({ length: STAND_IN_SECONDS.audio / 3 }, (_, i) => ({ start: i * 3, end: i * 3 + 2.5, text: `Stand-in caption number ${i + 1}` }))
  if (ext === 'vtt')
    return `WEBVTT\n\n${cues.map((c) => `${stamp(c.start, '.')} --> ${stamp(Math.floor(c.end), '.').replace('.000', '.500')}\n${c.text}`).join('\n\n')}\n`
  return `${cues.map((c, i) => `${i + 1}\n${stamp(c.start, ',')} --> ${stamp(Math.floor(c.end), ',').replace(',000', ',500')}\n${c.text}`).join('\n\n')}\n`
}
