import { createServer, type Server } from 'node:http'
import { readFileSync } from 'node:fs'
import { join } from 'node:path'
import { suite } from 'uvu'
import * as assert from 'uvu/assert'
import { createRenderer, RenderError } from '../../adapters/index.js'
import { near, pixel } from '../helpers/frames.js'
import { solidPng, tempDir } from '../helpers/media.js'
import { edit, renderAndDecode } from '../helpers/render.js'

const dir = tempDir()
const http = suite('http(s) sources')
let server: Server
let base = ''
const hits = new Map<string, number>()

http.before(async () => {
  const png = readFileSync(await solidPng(join(dir, 'green.png'), 32, 32, '#00ff00'))
  server = createServer((req, res) => {
    hits.set(req.url!, (hits.get(req.url!) ?? 0) + 1)
    if (req.url === '/green.png') return res.writeHead(200, { 'content-type': 'image/png' }).end(png)
    if (req.url === '/moved.png') return res.writeHead(302, { location: '/green.png' }).end()
    if (req.url === '/huge.png') return res.writeHead(200, { 'content-length': String(50_000_000) }).end()
    if (req.url === '/slow.png') return void setTimeout(() => res.end(png), 2000)
    res.writeHead(404).end('not here')
  })
  await new Promise<void>((r) => server.listen(0, '127.0.0.1', r))
  base = `http://127.0.0.1:${(server.address() as { port: number }).port}`
})
http.after(() => new Promise<void>((r) => server.close(() => r())))

http('an image URL is downloaded once and cached by content for later renders', async () => {
  const cacheDir = join(dir, 'cache-a')
  const e = edit([{ asset: { type: 'image', src: `${base}/green.png` }, start: 0, length: 0.04, fit: 'cover' }])
  const { frames } = await renderAndDecode(e, { cacheDir })
  assert.ok(near(pixel(frames, 0, 160, 90), [0, 255, 0]))
  await renderAndDecode(e, { cacheDir })
  assert.is(hits.get('/green.png'), 1)
})
http('redirects are followed', async () => {
  const { frames } = await renderAndDecode(edit([{ asset: { type: 'image', src: `${base}/moved.png` }, start: 0, length: 0.04, fit: 'cover' }]), { cacheDir: join(dir, 'cache-b') })
  assert.ok(near(pixel(frames, 0, 160, 90), [0, 255, 0]))
})

const fails = async (src: string, opts: object, code: string, pattern: RegExp) => {
  try {
    await createRenderer({ cacheDir: join(dir, `cache-${Math.random()}`), ...opts }).render(edit([{ asset: { type: 'image', src }, start: 0, length: 0.04 }]), { out: join(dir, 'x.mp4') })
    assert.unreachable()
  } catch (e) {
    assert.instance(e, RenderError)
    assert.is((e as RenderError).code, code)
    assert.match((e as Error).message, pattern)
  }
}
http('HTTP errors name the clip path and the URL', () => fails(`${base}/gone.png`, {}, 'E_ASSET_UNREADABLE', /tracks\[0\]\.clips\[0\]\.asset\.src: cannot load "http:.*\/gone\.png": HTTP 404/))
http('downloads over the size limit are refused', () => fails(`${base}/huge.png`, { maxDownloadBytes: 1_000_000 }, 'E_ASSET_TOO_LARGE', /download limit/))
http('downloads past the time limit fail', () => fails(`${base}/slow.png`, { downloadTimeoutMs: 300 }, 'E_ASSET_UNREADABLE', /timed out|timeout/i))
http.run()
