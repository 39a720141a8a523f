import { stat } from 'node:fs/promises'
import { RenderError } from '../errors.js'
import { ffprobeBin, lastLines, spawnFfmpeg } from './run.js'

export interface ProbedStream {
  index: number
  type: 'video' | 'audio' | 'subtitle' | 'data' | 'attachment'
  codec: string
  width?: number
  height?: number
  /** Frames per second (r_frame_rate). */
  fps?: number
  duration?: number
  frames?: number
  pixFmt?: string
  sampleRate?: number
  channels?: number
  /** Rotation metadata in degrees (phone videos). */
  rotation?: number
  /** The picture carries an alpha channel (VP8/VP9 `alpha_mode`, or an alpha pixel format). */
  alpha?: boolean
  /** Cover art embedded in an audio file, not a moving picture. */
  attachedPic?: boolean
  /** ffprobe's colour tags (`bt709`, `bt2020nc`…; `arib-std-b67` is HLG, `smpte2084` PQ; range `tv`/`pc`). */
  colorSpace?: string
  colorPrimaries?: string
  colorTransfer?: string
  colorRange?: string
}

export interface Probe {
  format: string
  duration?: number
  size: number
  streams: ProbedStream[]
}

const rate = (r?: string) => {
  if (!r) return undefined
  const [n, d] = r.split('/').map(Number)
  return d ? n! / d : n
}
const numOr = (x: unknown) => (x === undefined || x === 'N/A' ? undefined : Number(x))

/**
 * What ffprobe said of each file, keyed by path, size, modification time (ns) and inode, so an unchanged file —
 * a cached download drawn by render after render, a source used by several clips or segment pieces — is probed
 * once per process; a file rewritten or replaced (rename gives a new inode) is probed again. Oldest out at 512.
 */
const probed = new Map<string, Probe>()
const MEMO_SIZE = 512

/**
 * Runs ffprobe on a local file, or answers from the memo above when the file is unchanged (callers get their own
 * copy). `countFrames` decodes the whole video to count frames exactly (slow); `countPackets` counts the video's
 * packets instead, reading without decoding (a fifth of the CPU) — one a frame in the files reelforge writes and in
 * most others, but not where a codec packs several frames in one (old AVI B-frames). Counts are never memoised.
 */
export async function probe(path: string, opts: ProbeOptions = {}): Promise<Probe> {
  const file = opts.countFrames || opts.countPackets ? undefined : await stat(path, { bigint: true }).catch(() => undefined)
  if (!file?.isFile()) return runProbe(path, opts)
  const key = `${path}\0${file.size}\0${file.mtimeNs}\0${file.ino}`
  const hit = probed.get(key)
  if (hit) return structuredClone(hit)
  const info = await runProbe(path, opts)
  if (probed.size >= MEMO_SIZE) probed.delete(probed.keys().next().value!)
  probed.set(key, structuredClone(info))
  return info
}

export interface ProbeOptions {
  signal?: AbortSignal
  countFrames?: boolean
  countPackets?: boolean
}

/**
 * ffprobe's reason a file could not be read, without the file's own path (ffprobe names it, twice; to a user it is a
 * cache or scratch file they never named) nor a demuxer's address: what a message quoting the user's `src` can say.
 */
export function unreadableReason(error: Error, path: string): string {
  return error.message
    .replace(`ffprobe cannot read ${path}: `, '')
    .replaceAll(`${path}: `, '')
    .replaceAll(path, 'the file')
    .replace(/\[[^\]]* @ 0x[0-9a-f]+\] /g, '')
}

async function runProbe(path: string, opts: ProbeOptions): Promise<Probe> {
  const args = ['-v', 'error', '-print_format', 'json', '-show_format', '-show_streams']
  if (opts.countFrames) args.push('-count_frames')
  else if (opts.countPackets) args.push('-count_packets')
  const p = spawnFfmpeg([...args, path], { bin: ffprobeBin(), signal: opts.signal, stdout: true })
  const chunks: Buffer[] = []
  p.child.stdout!.on('data', (c: Buffer) => chunks.push(c))
  const code = await p.exited
  if (code !== 0) throw new RenderError('E_ASSET_UNREADABLE', `ffprobe cannot read ${path}: ${lastLines(p.stderr())}`)
  const json = JSON.parse(Buffer.concat(chunks).toString('utf8')) as {
    format?: { format_name?: string; duration?: string; size?: string }
    streams?: Array<
      Record<string, unknown> & {
        side_data_list?: Array<{ rotation?: number }>
        tags?: { rotate?: string; alpha_mode?: string; ALPHA_MODE?: string }
        disposition?: { attached_pic?: number }
      }
    >
  }
  return {
    format: json.format?.format_name ?? 'unknown',
    duration: numOr(json.format?.duration),
    size: Number(json.format?.size ?? 0),
    streams: (json.streams ?? []).map((s) => ({
      index: s.index as number,
      type: s.codec_type as ProbedStream['type'],
      codec: s.codec_name as string,
      width: s.width as number | undefined,
      height: s.height as number | undefined,
      fps: rate(s.r_frame_rate as string | undefined),
      duration: numOr(s.duration),
      frames: numOr(s.nb_read_frames ?? (s.codec_type === 'video' ? s.nb_read_packets : undefined) ?? s.nb_frames),
      pixFmt: s.pix_fmt as string | undefined,
      sampleRate: numOr(s.sample_rate),
      channels: s.channels as number | undefined,
      rotation: s.side_data_list?.find((d) => d.rotation !== undefined)?.rotation ?? numOr(s.tags?.rotate),
      attachedPic: s.disposition?.attached_pic === 1,
      colorSpace: s.color_space as string | undefined,
      colorPrimaries: s.color_primaries as string | undefined,
      colorTransfer: s.color_transfer as string | undefined,
      colorRange: s.color_range as string | undefined,
      alpha: (s.tags?.alpha_mode ?? s.tags?.ALPHA_MODE) === '1' || /^(yuva|rgba|bgra|argb|abgr|ya|gbrap|pal8)/.test(String(s.pix_fmt ?? '')),
    })),
  }
}
