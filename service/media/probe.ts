import { ffmpegReason, ffprobeBin, RenderError, spawnFfmpeg, type LoaderPlugin } from '../../core/index.js'
import { AddressRefused, type NetworkPolicy } from '../../plugins/index.js'
import { httpLoader } from '../../plugins/loaders/index.js'
import type { ServiceConfig } from '../config.js'
import { ServiceError } from '../errors.js'
import { checkTargetUrl } from '../lib/validate.js'

/** ffprobe's own JSON (`-show_format -show_streams`), with `format.filename` the probed URL. */
export interface ProbeResult {
  streams: Record<string, unknown>[]
  format: Record<string, unknown>
}

export interface ProbeOptions {
  /** The download's time limit (default 60 s); reading the file then has `PROBE_MS` more. */
  timeoutMs?: number
  /** The largest file fetched (default 1 GiB, the render downloads' limit). */
  maxBytes?: number
  signal?: AbortSignal
}

const PROBE_MS = 30_000
const loaders = new WeakMap<NetworkPolicy, LoaderPlugin>()
const refused = (message: string) => new ServiceError('E_VALIDATION', `url: ${message}`, { issues: [{ path: 'url', message }] })

/**
 * ffprobe of a remote media file (Shotstack's probe). Only http(s) URLs, judged by the SSRF guard first (a
 * refused or local URL is a 400 naming `url`, whatever files the operator allows renders to read). The file is
 * downloaded by the renders' own HTTP loader — every redirect hop guarded, within size and time limits, into
 * the shared download cache (a render of it afterwards downloads nothing) — and ffprobe reads that local copy:
 * ffprobe fetching the URL itself would follow redirects and resolve names beyond the guard. A file that
 * cannot be fetched or read is a 422 `E_ASSET_UNREADABLE` naming the URL, never the local copy.
 */
export async function probeUrl(deps: { config: ServiceConfig }, url: string, opts: ProbeOptions = {}): Promise<ProbeResult> {
  return probeFile(await fetchGuarded(deps, url, opts), url, opts.signal)
}

/**
 * Downloads an http(s) URL the way render sources are fetched (guard on every hop, size and time limits) and
 * returns the local path. `cacheDir` defaults to the shared download cache; a fresh folder forces a fresh copy.
 */
export async function fetchGuarded(deps: { config: ServiceConfig }, url: string, opts: ProbeOptions & { cacheDir?: string } = {}): Promise<string> {
  if (!url) throw refused('is required: the http(s) URL of a media file')
  await checkTargetUrl('url', url, deps.config.network)
  const { network } = deps.config
  let loader = loaders.get(network)
  if (!loader) loaders.set(network, (loader = httpLoader({ network })))
  const timeoutMs = opts.timeoutMs ?? 60_000
  try {
    const cacheDir = opts.cacheDir ?? deps.config.cacheDir
    const ctx = { signal: opts.signal ?? new AbortController().signal, cacheDir, baseDir: '/', maxBytes: opts.maxBytes ?? 1024 ** 3, timeoutMs }
    return await loader.load(url, ctx)
  } catch (e) {
    // A redirect into a private network is refused at connection time: the same 400 as a direct one.
    if (e instanceof RenderError && e.cause instanceof AddressRefused) throw refused(e.cause.message)
    if (e instanceof RenderError) throw new RenderError(e.code, `cannot fetch ${url}: ${e.message}`)
    throw e
  }
}

/** Runs ffprobe on a local file; its JSON and errors name `url` (what the user knows it as) in place of the path. */
export async function probeFile(path: string, url: string, signal?: AbortSignal): Promise<ProbeResult> {
  const limit = AbortSignal.any([AbortSignal.timeout(PROBE_MS), ...(signal ? [signal] : [])])
  const p = spawnFfmpeg(['-v', 'error', '-print_format', 'json', '-show_format', '-show_streams', path], { bin: ffprobeBin(), signal: limit, stdout: true })
  const chunks: Buffer[] = []
  p.child.stdout!.on('data', (c: Buffer) => chunks.push(c))
  const code = await p.exited
  if (limit.aborted) throw new RenderError('E_ASSET_UNREADABLE', `ffprobe took longer than ${PROBE_MS / 1000} s to read ${url}`)
  if (code !== 0) throw new RenderError('E_ASSET_UNREADABLE', `ffprobe cannot read ${url}: ${ffmpegReason(p.stderr().replaceAll(path, url))}`)
  const json = JSON.parse(Buffer.concat(chunks).toString('utf8')) as Partial<ProbeResult>
  return { ...json, streams: json.streams ?? [], format: { ...json.format, filename: url } }
}
