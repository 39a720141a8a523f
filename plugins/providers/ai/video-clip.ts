import { readFile, writeFile } from 'node:fs/promises'
import { join } from 'node:path'
import { setTimeout as sleep } from 'node:timers/promises'
import { BT709_TAGS, bt709Filters, ffmpegArgs, probe, type ProbedStream, RenderError, runFfmpeg, type Size } from '../../../core/index.js'
import { nearestAspect } from '../fit-image.js'

// What the AI-video providers share: the exact-size check, polling a vendor's task, handing it the start
// image, and making the vendor's clip exactly the size and length that was asked for.

/** Turns a local image into an HTTPS URL the vendor can fetch (a signed storage URL, the service's own hosting). */
export type PublishImage = (path: string, signal: AbortSignal) => Promise<string>

/** H.264 in 4:2:0 holds only even sizes: the request's size, or a clear error rather than a clip one pixel off. */
export function evenSize(req: Size, vendor: string): Size {
  const { width, height } = req
  if (!Number.isInteger(width) || !Number.isInteger(height) || width < 2 || height < 2 || width % 2 || height % 2 || width > 8192 || height > 8192)
    throw new RenderError('E_PROVIDER_FAILED', `${vendor}: a video needs an even width and height up to 8192, not ${width}×${height}`)
  return req
}

/** What a vendor needs before any call: an even size, and a prompt or a start image to make the video from. */
export function checkVideoRequest(req: Size & { prompt?: string; image?: string }, vendor: string): void {
  evenSize(req, vendor)
  if (!req.image && !req.prompt) throw new RenderError('E_PROVIDER_FAILED', `${vendor}: a video needs a prompt or a start image`)
}

/** The vendor ratio (`1280:720`, `16:9`) nearest the requested aspect. */
export function nearestRatio(ratios: readonly string[], want: Size): string {
  const sizes = ratios.map((r) => {
    const [width, height] = r.split(':').map(Number)
    return { width: width!, height: height!, r }
  })
  return (nearestAspect(sizes, want) as (typeof sizes)[number]).r
}

/**
 * Polls `check` until it answers, waiting `intervalMs` at first and 1.5× longer each time (at most 4×
 * `intervalMs`): generations take minutes, and vendors ask not to be polled faster than every few seconds.
 * Gives up with `E_PROVIDER_TIMEOUT` after `maxWaitMs`, and with `E_CANCELLED` as soon as `signal` aborts.
 */
export async function pollTask<T>(
  vendor: string,
  id: string,
  check: () => Promise<T | undefined>,
  o: { signal: AbortSignal; intervalMs: number; maxWaitMs: number },
): Promise<T> {
  const deadline = Date.now() + o.maxWaitMs
  for (let delay = o.intervalMs; ; delay = Math.min(delay * 1.5, o.intervalMs * 4)) {
    const left = deadline - Date.now()
    if (left <= 0) throw new RenderError('E_PROVIDER_TIMEOUT', `${vendor}: task ${id} not finished after ${o.maxWaitMs / 1000} s`, { vendor, retryable: true })
    await sleep(Math.min(delay, left), undefined, { signal: o.signal }).catch(() => {
      throw new RenderError('E_CANCELLED', 'cancelled')
    })
    const done = await check()
    if (done !== undefined) return done
  }
}

const MIME: Array<[RegExp, string]> = [
  [/^\x89PNG/, 'image/png'],
  [/^\xff\xd8\xff/, 'image/jpeg'],
  [/^RIFF....WEBP/s, 'image/webp'],
]

/**
 * A local image as a `data:` URI under `maxBytes` (Runway takes up to 5 MB inline). PNG, JPEG and WebP go as
 * they are when small enough; anything else, or anything larger, is re-encoded as JPEG at most 2048 px a side.
 */
export async function imageDataUri(path: string, o: { maxBytes: number; workDir: string; signal: AbortSignal }): Promise<string> {
  const uri = (bytes: Buffer, mime: string) => `data:${mime};base64,${bytes.toString('base64')}`
  const bytes = await readFile(path)
  const mime = MIME.find(([magic]) => magic.test(bytes.subarray(0, 12).toString('latin1')))?.[1]
  if (mime && Math.ceil(bytes.length / 3) * 4 + 40 <= o.maxBytes) return uri(bytes, mime)
  const out = join(o.workDir, `start-image-${Date.now()}.jpg`)
  const fit = "scale='min(iw,2048)':'min(ih,2048)':force_original_aspect_ratio=decrease"
  await runFfmpeg(ffmpegArgs`-v error -y -i ${path} -vf ${fit} -frames:v 1 -update 1 -q:v 3 ${out}`, {
    signal: o.signal,
    what: 'start image',
    code: 'E_ASSET_UNREADABLE',
  })
  return uri(await readFile(out), 'image/jpeg')
}

/**
 * Writes a downloaded vendor clip and makes it exactly `width`×`height` (scaled to cover and centre-cropped,
 * as image providers' results are: the vendor's nearest ratio, never black bars) and exactly `duration`
 * (trimmed; a clip shorter than asked is slowed down to fill it, smoother than holding the last frame).
 * Silent: the vendors' clips have no sound, and stretched sound would be wrong anyway.
 */
export async function conformClip(
  vendor: string,
  data: Buffer,
  req: { width: number; height: number; duration: number },
  o: { workDir: string; signal: AbortSignal; fps?: number; id: string },
): Promise<{ path: string; duration: number }> {
  const raw = join(o.workDir, `${vendor}-${o.id}-download.mp4`)
  await writeFile(raw, data)
  let video: ProbedStream | undefined
  let have: number | undefined
  try {
    const info = await probe(raw, { signal: o.signal })
    video = info.streams.find((s) => s.type === 'video')
    have = video?.duration ?? info.duration
  } catch {
    if (o.signal.aborted) throw new RenderError('E_CANCELLED', 'cancelled')
  }
  if (!video) throw new RenderError('E_PROVIDER_FAILED', `${vendor}: the downloaded result is not a video`, { vendor })
  const fps = o.fps ?? (video.fps && video.fps >= 1 && video.fps <= 120 ? Math.round(video.fps) : 24)
  const frames = Math.max(1, Math.round(req.duration * fps))
  const stretch = have && have < req.duration ? req.duration / have : 1
  const filter = [
    ...(stretch > 1 ? [`setpts=${stretch.toFixed(6)}*PTS`] : []),
    `scale=${req.width}:${req.height}:force_original_aspect_ratio=increase:flags=lanczos,crop=${req.width}:${req.height},setsar=1`,
    // BT.709 TV range from whatever the vendor sent (tone-mapped if HDR), tagged so below: the renderer and players read it right.
    ...bt709Filters(video),
    // A frame or two of slack for rounding; `-frames:v` then cuts at exactly the frame count.
    `fps=${fps},tpad=stop_mode=clone:stop=2`,
  ].join(',')
  const out = join(o.workDir, `${vendor}-${o.id}.mp4`)
  await runFfmpeg(
    [
      ...ffmpegArgs`-v error -y -i ${raw} -map 0:v:0 -vf ${filter} -frames:v ${frames} -an -c:v libx264 -preset fast -crf 18 -pix_fmt yuv420p`,
      ...BT709_TAGS,
      ...ffmpegArgs`-movflags +faststart ${out}`,
    ],
    { signal: o.signal, what: `${vendor} clip` },
  )
  return { path: out, duration: frames / fps }
}
