import { request as httpRequest, type IncomingMessage } from 'node:http'
import { request as httpsRequest } from 'node:https'
import { isIP, type LookupFunction } from 'node:net'
import { addAbortSignal, PassThrough, type Readable, type Transform } from 'node:stream'
import { createBrotliDecompress, createGunzip, createInflate } from 'node:zlib'
import { RenderError } from '../../../core/index.js'
import { AddressRefused, guardedLookup, type AddressGuard } from './guard.js'

// Why Node's own client and not undici: undici 7's HTTP/1 parser asserts `!this.paused` when a host ends the
// connection while the reader is applying backpressure (nodejs/undici#5360). The AssertionError is thrown
// from the socket's 'end' handler, where no try/catch reaches it, so the render process dies. Python's
// http.server, many small CDNs and object stores end responses that way, and a media download written to
// disk is under backpressure most of the time. The fix (#5474) ships in undici 8, which does not run on
// Node 20, and a patched copy of undici 7 would be a fork of its parser to keep. node:http parses every
// byte it reads and applies backpressure by pausing the socket, so it has no paused-parser state to trip over.

export interface DownloadOptions {
  /** Judges every address connected to: each hop's resolved addresses and literal IPs. */
  guard: AddressGuard
  /** Aborts the download at any point (before the head, or mid-body through `body`). */
  signal: AbortSignal
  /** The longest silence allowed while waiting for the head or for more of the body. */
  idleTimeoutMs: number
}

export interface Download {
  /** The body, already decoded when it came with a content-encoding. */
  body: Readable
  /** `content-length` as sent (the encoded size), when the host sent one. */
  declaredBytes?: number
  /** The URL the bytes came from, after redirects. */
  url: string
}

const REDIRECTS = new Set([301, 302, 303, 307, 308])
const MAX_REDIRECTS = 5
const DECODERS = new Map<string, () => Transform>([
  ['identity', () => new PassThrough()],
  ['gzip', createGunzip],
  ['x-gzip', createGunzip],
  ['deflate', createInflate],
  ['br', createBrotliDecompress],
])
const HEADERS = { accept: '*/*', 'accept-encoding': 'gzip, deflate, br', 'user-agent': 'reelforge' }
const unreadable = (message: string, cause?: Error) => new RenderError('E_ASSET_UNREADABLE', message, undefined, { cause })

/**
 * GETs `src` over HTTP/1.x, following up to 5 redirects by hand so that the address guard checks every hop,
 * and resolves once a 2xx head has arrived. Status, redirect, range and encoding failures throw
 * `E_ASSET_UNREADABLE`; network errors throw as they come. Size limits are the caller's (it counts `body`).
 * @example
 * const { body } = await openDownload(url, { guard: addressGuard(), signal, idleTimeoutMs: 120_000 })
 * await pipeline(body, createWriteStream(path))
 */
export async function openDownload(src: string, opts: DownloadOptions): Promise<Download> {
  const lookup = guardedLookup(opts.guard)
  let url = new URL(src)
  for (let hop = 0; ; hop++) {
    const res = await get(url, lookup, opts)
    const status = res.statusCode ?? 0
    const location = res.headers.location
    if (REDIRECTS.has(status) && location) {
      res.destroy()
      if (hop >= MAX_REDIRECTS) throw unreadable(`more than ${MAX_REDIRECTS} redirects`)
      url = new URL(location, url)
      if (url.protocol !== 'http:' && url.protocol !== 'https:') throw unreadable(`redirected to ${url.protocol} (only http and https are followed)`)
      continue
    }
    const failure = status < 200 || status >= 300 ? `HTTP ${status}` : status === 206 ? partialFailure(res.headers['content-range']) : undefined
    const encoding = (res.headers['content-encoding'] ?? 'identity').trim().toLowerCase()
    const decoder = DECODERS.get(encoding)
    if (failure || !decoder) {
      res.destroy()
      throw unreadable(failure ?? `unsupported content-encoding "${encoding}"`)
    }
    // Wired by hand rather than with pipeline(), to name a body cut short: Node calls it just "aborted".
    const body = decoder()
    res.on('error', (e: NodeJS.ErrnoException) => body.destroy(e.code === 'ECONNRESET' ? unreadable('the connection closed before the end of the body', e) : e))
    body.on('close', () => res.destroy())
    res.pipe(body)
    addAbortSignal(opts.signal, body)
    const declared = Number(res.headers['content-length'])
    return { body, declaredBytes: Number.isFinite(declared) ? declared : undefined, url: url.href }
  }
}

/** We ask for the whole file, so a 206 is only fine when its range is the whole file. */
function partialFailure(range: string | undefined): string | undefined {
  const m = /^bytes 0-(\d+)\/(\d+)$/.exec(range?.trim() ?? '')
  if (m && Number(m[1]) + 1 === Number(m[2])) return undefined
  return `HTTP 206 with only part of the file (content-range: ${range ?? 'none'})`
}

/** One GET on a fresh connection: no pooled socket a host may have closed meanwhile, and every hop is looked up anew. */
function get(url: URL, lookup: LookupFunction, opts: DownloadOptions): Promise<IncomingMessage> {
  const host = url.hostname.replace(/^\[|\]$/g, '')
  // Literal IPs skip DNS, and so the guarded lookup: judge them here.
  const refused = isIP(host) ? opts.guard.refusal(host) : undefined
  if (refused) return Promise.reject(new AddressRefused(host, refused))
  return new Promise((resolve, reject) => {
    let res: IncomingMessage | undefined
    const req = (url.protocol === 'https:' ? httpsRequest : httpRequest)(url, { agent: false, lookup, signal: opts.signal, headers: HEADERS })
    req.setTimeout(opts.idleTimeoutMs, () => {
      const err = unreadable(`timed out after ${opts.idleTimeoutMs} ms`)
      // Once the head is in, the reader holds the response: fail it there, or it would only see "aborted".
      if (res) res.destroy(err)
      else req.destroy(err)
    })
    req
      .on('response', (r) => resolve((res = r)))
      .on('error', reject)
      .end()
  })
}
