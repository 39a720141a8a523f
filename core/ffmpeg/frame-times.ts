import { stat } from 'node:fs/promises'
import { ffprobeBin, spawnFfmpeg } from './run.js'

/**
 * Where a decoder started at `trim` lays its frame grid: the presentation time of the source's first frame at or
 * after `trim`, in the video stream's own ticks. A decoder that starts later (`DecoderOptions.skip`) measures its
 * frames from here, so frame k of it is frame skip + k of the whole clip whatever the two rates are.
 */
export interface FrameOrigin {
  /** The first frame's pts, in `timeBase` ticks (as ffmpeg sees it with `-copyts`). */
  pts: number
  /** The stream's time base as [numerator, denominator] (1/15360 is [1, 15360]). */
  timeBase: [number, number]
  /** The longest gap between two frames near it, in seconds: how far before a frame's time its picture may start. */
  gap: number
}

/** The video stream's packets: every presentation time, the key frames among them, and the time base. */
export interface FrameIndex {
  timeBase: [number, number]
  /** The file's start time (ffprobe's `format.start_time`), in seconds: `-ss` counts from it. */
  start: number
  /** Every packet's pts, ascending. */
  pts: number[]
  /** Key frames' pts, ascending. */
  keys: number[]
}

/**
 * The packets of the first video stream — of the whole file, or (`near`) those from the key frame before `near`
 * seconds on, `count` of them. Undefined when ffprobe cannot list them.
 */
export async function readFrameIndex(path: string, o: { near?: number; count?: number; signal?: AbortSignal } = {}): Promise<FrameIndex | undefined> {
  const window = o.near !== undefined ? ['-read_intervals', `${o.near.toFixed(6)}%+#${o.count ?? 240}`] : []
  const args = ['-v', 'error', '-select_streams', 'v:0', ...window, '-show_entries', 'format=start_time:stream=time_base:packet=pts,flags', '-of', 'json', path]
  const p = spawnFfmpeg(args, { bin: ffprobeBin(), signal: o.signal, stdout: true })
  const chunks: Buffer[] = []
  p.child.stdout!.on('data', (c: Buffer) => chunks.push(c))
  if ((await p.exited.catch(() => 1)) !== 0) return undefined
  const json = JSON.parse(Buffer.concat(chunks).toString('utf8')) as {
    format?: { start_time?: string }
    streams?: { time_base?: string }[]
    packets?: { pts?: number | string; flags?: string }[]
  }
  const [num, den] = (json.streams?.[0]?.time_base ?? '').split('/').map(Number)
  if (!num || !den) return undefined
  const packets = (json.packets ?? [])
    .filter((x) => x.pts !== undefined && x.pts !== 'N/A')
    .map((x) => ({ pts: Number(x.pts), key: !!x.flags?.startsWith('K') }))
  const ascending = (a: number, b: number) => a - b
  return {
    timeBase: [num, den],
    start: Number(json.format?.start_time) || 0,
    pts: packets.map((x) => x.pts).sort(ascending),
    keys: packets
      .filter((x) => x.key)
      .map((x) => x.pts)
      .sort(ascending),
  }
}

/**
 * The origin of a decoder started at `trim` in an index: the first pts ffmpeg's accurate seek keeps, which is
 * every one from `-ss trim` (microseconds, as ffmpeg parses it) plus the file's start, rounded to the stream's ticks.
 */
export function originIn(index: FrameIndex, trim: number): FrameOrigin | undefined {
  const [num, den] = index.timeBase
  const from = trim > 0 ? Math.round(((Math.round(trim * 1e6) + Math.round(index.start * 1e6)) * den) / (1e6 * num)) : -Infinity
  const at = index.pts.findIndex((p) => p >= from)
  if (at < 0) return undefined
  const near = index.pts.slice(Math.max(0, at - 8), at + 64)
  const gap = Math.max(0, ...near.slice(1).map((p, i) => p - near[i]!)) * (num / den)
  return { pts: index.pts[at]!, timeBase: index.timeBase, gap: Math.min(1, gap || 0.1) }
}

/** Origins already found, by file (path, size, mtime) and trim: a render process asks again for every frame preview. */
const found = new Map<string, Promise<FrameOrigin | undefined>>()

/** Where a decoder started at `trim` lays its frames (one ffprobe over the packets near `trim`, remembered). */
export function frameOrigin(path: string, trim: number, signal?: AbortSignal): Promise<FrameOrigin | undefined> {
  return remembered(found, 512, path, String(trim), async () => {
    // Enough packets past the key frame before `trim` to reach it (reordered B-frames included); a longer GOP asks again.
    for (const count of [240, 2400]) {
      const index = await readFrameIndex(path, { near: trim, count, signal })
      if (!index) return undefined
      const origin = originIn(index, trim)
      // A reordered B-frame may still come: the window must reach a second past what it found (or the file's end).
      const reach = origin ? origin.pts + index.timeBase[1] / index.timeBase[0] : Infinity
      if (index.pts.length < count || index.pts.at(-1)! > reach || count === 2400) return origin
    }
  })
}

/** Whole-file indexes already read, by file (path, size, mtime). */
const indexes = new Map<string, Promise<FrameIndex | undefined>>()

/** The packets of the whole file's video stream (one ffprobe reading every packet, remembered): its key frames. */
export function fileFrameIndex(path: string): Promise<FrameIndex | undefined> {
  return remembered(indexes, 64, path, '', () => readFrameIndex(path))
}

/**
 * What `make` answers for this file as it is now (path, size, mtime) and `extra`, asked once: the oldest answer
 * goes past `limit`, and a failure or an empty answer is forgotten so that the next call asks again.
 */
async function remembered<T>(memo: Map<string, Promise<T | undefined>>, limit: number, path: string, extra: string, make: () => Promise<T | undefined>) {
  const file = await stat(path).catch(() => undefined)
  const key = `${path}\0${file?.size}\0${file?.mtimeMs}\0${extra}`
  let answer = memo.get(key)
  if (!answer) {
    answer = make()
    if (memo.size >= limit) memo.delete(memo.keys().next().value!)
    memo.set(key, answer)
    answer.then(
      (a) => a ?? memo.delete(key),
      () => memo.delete(key),
    )
  }
  return answer
}
