import { writeFile } from 'node:fs/promises'
import { join } from 'node:path'
import { runFfmpeg } from '../../core/index.js'
import { audioBitrate } from '../../plugins/outputs/args.js'

type Quality = Parameters<typeof audioBitrate>[0]

/**
 * The formats a render can be cut into time segments and joined without re-encoding: each piece is a complete
 * file of the same codec starting on a key frame (H.264 IDR, VP9 key frame, ProRes is all intra), so ffmpeg's
 * concat demuxer copies them end to end. The sound, rendered once over the whole range, gets the codec the
 * format's own output plugin gives it. gif and stills need the whole picture sequence: they render in one piece.
 */
const SEGMENTABLE: Record<string, { audio(quality: Quality): string[]; mux: string[] }> = {
  mp4: { audio: (q) => ['-c:a', 'aac', '-b:a', audioBitrate(q)], mux: ['-movflags', '+faststart'] },
  webm: { audio: (q) => ['-c:a', 'libopus', '-b:a', audioBitrate(q)], mux: ['-f', 'webm'] },
  mov: {
    // As mov.ts: ProRes (high, veryhigh) carries uncompressed sound, H.264 AAC.
    audio: (q) => (q === 'high' || q === 'veryhigh' ? ['-c:a', 'pcm_s16le'] : ['-c:a', 'aac', '-b:a', audioBitrate(q)]),
    mux: ['-movflags', '+faststart', '-f', 'mov'],
  },
}

export const isSegmentable = (format: string): boolean => Object.hasOwn(SEGMENTABLE, format)

/** Joins the pieces (in order) by stream copy and muxes the sound in with the format's audio codec. */
export async function joinSegments(
  parts: string[],
  o: { format: string; quality: Quality; sound?: string; out: string; work: string; signal?: AbortSignal },
): Promise<void> {
  const format = SEGMENTABLE[o.format]!
  const list = join(o.work, 'segments.txt')
  await writeFile(list, parts.map((p) => `file '${p.replace(/'/g, "'\\''")}'`).join('\n'))
  const sound = o.sound ? ['-i', o.sound, '-map', '0:v', '-map', '1:a', ...format.audio(o.quality)] : []
  await runFfmpeg(['-hide_banner', '-loglevel', 'error', '-y', '-f', 'concat', '-safe', '0', '-i', list, ...sound, '-c:v', 'copy', ...format.mux, o.out], {
    signal: o.signal,
    what: 'joining segments',
  })
}

/**
 * How many pieces `segments: 'auto'` cuts a render into. Below 8 cores one piece: the x264 encoder alone keeps a
 * small machine busy, and pieces would only add start-up and memory. From 8 cores, one piece per two cores (x264
 * gains little past a few threads at 1080p, the compositor is one thread per piece), at least 2 s each, at most 16.
 */
export function autoSegments(cores: number, seconds: number): number {
  if (cores < 8) return 1
  return Math.max(1, Math.min(Math.floor(cores / 2), Math.floor(seconds / 2), 16))
}
