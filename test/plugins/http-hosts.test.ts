import { createHash, randomBytes } from 'node:crypto'
import { readFileSync, rmSync, writeFileSync } from 'node:fs'
import { join } from 'node:path'
import { Writable, type Readable } from 'node:stream'
import { pipeline } from 'node:stream/promises'
import { suite } from 'uvu'
import * as assert from 'uvu/assert'
import { RenderError } from '../../core/index.js'
import { httpLoader } from '../../plugins/loaders/http.js'
import { openDownload } from '../../plugins/lib/net/download.js'
import { addressGuard } from '../../plugins/lib/net/guard.js'
import { providerRequest } from '../../plugins/providers/http.js'
import { httpSender } from '../../service/webhooks/http-sender.js'
import { tempDir } from '../helpers/media.js'
import { LOOPBACK } from '../helpers/service.js'
import { startPythonServer } from '../helpers/python-http.js'
import { BEHAVIOURS, startWebHost, type WebHost } from '../helpers/web-hosts.js'

const dir = tempDir()
const MB = 1024 * 1024
const files = { 'a.bin': randomBytes(4 * MB), 'big.bin': randomBytes(20 * MB), 'zeros.bin': Buffer.alloc(20 * MB) }
const sha = (b: Buffer) => createHash('sha256').update(b).digest('hex')
const want = Object.fromEntries(Object.entries(files).map(([k, v]) => [k, sha(v)]))
let host: WebHost, python: WebHost

/** Runs `fn(0..n-1)`, `parallel` at a time: parallel downloads leave each consumer slower than its host. */
async function times(n: number, parallel: number, fn: (i: number) => Promise<void>) {
  let next = 0
  await Promise.all(
    Array.from({ length: parallel }, async () => {
      while (next < n) await fn(next++)
    }),
  )
}

/**
 * Reads like a busy disk: every write takes a timer tick, so the body is under backpressure from start to end and
 * the host closes while reading is paused — the state in which undici 7's parser asserted and killed the process
 * (this reader did so on the first download from Python's server or the close-delimited and length-close routes).
 */
async function slowSha(body: Readable): Promise<string> {
  const hash = createHash('sha256')
  await pipeline(body, new Writable({ highWaterMark: 16 * 1024, write: (chunk: Buffer, _enc, done) => (hash.update(chunk), setTimeout(done, 1)) }))
  return hash.digest('hex')
}
const guard = addressGuard(LOOPBACK)
const download = (src: string, idleTimeoutMs = 30_000) => openDownload(src, { guard, signal: AbortSignal.timeout(60_000), idleTimeoutMs })

const reads = suite('download client, read slowly: 20 downloads of 4 MB per host behaviour, every byte equal')
reads.before(async () => {
  for (const [name, bytes] of Object.entries(files)) writeFileSync(join(dir, name), bytes)
  host = await startWebHost(files)
  python = await startPythonServer(dir)
})
reads("Python's http.server (HTTP/1.0, connection: close)", () =>
  times(20, 4, async () => assert.is(await slowSha((await download(`${python.url}/a.bin`)).body), want['a.bin'])),
)
for (const behaviour of BEHAVIOURS) {
  reads(behaviour, () => times(20, 4, async () => assert.is(await slowSha((await download(`${host.url}/${behaviour}/a.bin`)).body), want['a.bin'])))
}
reads("20 MB from Python's http.server", async () => assert.is(await slowSha((await download(`${python.url}/big.bin`)).body), want['big.bin']))
reads('a host that goes silent mid-body fails after the idle time-out', async () => {
  const { body } = await download(`${host.url}/stall/a.bin`, 300)
  await slowSha(body).then(
    () => assert.unreachable('read a stalled body'),
    (e) => assert.match(String(e), /timed out after 300 ms/),
  )
})

const loader = httpLoader({ network: LOOPBACK })
let caches = 0
const load = (src: string, over: { maxBytes?: number; timeoutMs?: number } = {}) =>
  loader.load(src, {
    signal: new AbortController().signal,
    cacheDir: join(dir, `cache-${caches++}`),
    baseDir: dir,
    maxBytes: 1024 ** 3,
    timeoutMs: 30_000,
    ...over,
  })
/** Loads `src` into a fresh cache and checks the bytes; the cache is removed after (20 MB × many adds up). */
async function loadsExactly(src: string, name: keyof typeof files) {
  const path = await load(src)
  assert.is(sha(readFileSync(path)), want[name], src)
  rmSync(join(path, '..', '..'), { recursive: true, force: true })
}
async function fails(src: string, code: string, pattern: RegExp, over = {}) {
  try {
    await load(src, over)
    assert.unreachable(`${src} loaded`)
  } catch (e) {
    assert.instance(e, RenderError, String(e))
    assert.is((e as RenderError).code, code, (e as Error).message)
    assert.match((e as Error).message, pattern)
  }
}

const loads = suite('http loader on ordinary web hosts')
loads("Python's http.server (HTTP/1.0, connection: close): 20 downloads of 4 MB, every byte equal", async () => {
  await times(20, 4, () => loadsExactly(`${python.url}/a.bin`, 'a.bin'))
})
loads("Python's http.server: 20 MB", () => loadsExactly(`${python.url}/big.bin`, 'big.bin'))
for (const behaviour of BEHAVIOURS) {
  loads(`test host, ${behaviour}: 3 downloads of 4 MB`, () => times(3, 3, () => loadsExactly(`${host.url}/${behaviour}/a.bin`, 'a.bin')))
}
loads('test host, close-delimited: 20 MB', () => loadsExactly(`${host.url}/close-delimited/big.bin`, 'big.bin'))
loads('brotli and deflate bodies are decoded', async () => {
  await loadsExactly(`${host.url}/br/a.bin`, 'a.bin')
  await loadsExactly(`${host.url}/deflate/a.bin`, 'a.bin')
})
loads('a 206 with only part of the file is an error, not a short asset', () =>
  fails(`${host.url}/partial-part/a.bin`, 'E_ASSET_UNREADABLE', /206.*bytes 0-999\//),
)
loads('a body cut short of its content-length is an error', () =>
  fails(`${host.url}/truncated/a.bin`, 'E_ASSET_UNREADABLE', /closed before the end of the body/),
)
loads('more than 5 redirects is an error', () => fails(`${host.url}/redirect/6/a.bin`, 'E_ASSET_UNREADABLE', /redirects/))
loads('HTTP errors keep their message', () => fails(`${host.url}/length-close/missing.bin`, 'E_ASSET_UNREADABLE', /^HTTP 404$/))
loads('the size limit counts decoded bytes (a small gzip of 20 MB of zeros)', () =>
  fails(`${host.url}/gzip/zeros.bin`, 'E_ASSET_TOO_LARGE', /1000000-byte limit/, { maxBytes: 1_000_000 }),
)
loads('a host slower than the time limit times out', () =>
  fails(`${host.url}/slow-first-byte/a.bin`, 'E_ASSET_UNREADABLE', /timed out after 200 ms/, { timeoutMs: 200 }),
)

// undici stays for these: each starts consuming the body as soon as its head arrives (arrayBuffer, dump), and a
// body consumed that way never pushes back, so the parser is not left paused when the host closes.
const others = suite('the other undici clients survive close-delimited hosts')
others('provider requests: 20 reads of 4 MB', () =>
  times(20, 4, async () => {
    const res = await providerRequest('test', `${host.url}/close-delimited/a.bin`, { method: 'GET', signal: AbortSignal.timeout(30_000) })
    assert.is(sha(res.body), want['a.bin'])
  }),
)
others('a provider answer over its size limit is refused at once, not retried', async () => {
  const started = Date.now()
  const e = await providerRequest(
    'test',
    `${host.url}/close-delimited/a.bin`,
    { method: 'GET', signal: AbortSignal.timeout(30_000) },
    { maxBytes: 1024 ** 2 },
  ).catch((x) => x)
  assert.instance(e, RenderError)
  assert.match(e.message, /^test: the answer is over 1 MB; refused$/)
  assert.ok(Date.now() - started < 5000, 'no retry backoff')
})
others('webhook deliveries answered with 4 MB and a close: 20 sends', () =>
  times(20, 4, async () => {
    const res = await httpSender({ network: LOOPBACK }).send(`${host.url}/close-delimited/a.bin`, '{}', {})
    assert.ok(res.ok, res.error)
  }),
)
// The hosts outlive the first suite: suites run in order.
others.after(async () => {
  await host.close()
  await python.close()
})
reads.run()
loads.run()
others.run()
