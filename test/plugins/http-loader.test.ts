import { createServer, type Server } from 'node:http'
import { readFileSync } from 'node:fs'
import { join } from 'node:path'
import { suite } from 'uvu'
import * as assert from 'uvu/assert'
import { createRenderer, RenderError } from '../../index.js'
import { addressGuard } from '../../kit.js'
import { near, pixel } from '../helpers/frames.js'
import { solidPng, tempDir } from '../helpers/media.js'
import { edit, renderAndDecode } from '../helpers/render.js'
import { LOOPBACK } from '../helpers/service.js'

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
    if (req.url === '/to-metadata.png') return res.writeHead(302, { location: 'http://169.254.169.254/latest/meta-data/' }).end()
    if (req.url === '/huge.png') return res.writeHead(200, { 'content-length': String(50_000_000) }).end()
    if (req.url === '/page.html') return res.writeHead(200, { 'content-type': 'text/html' }).end('<html><body>a web page</body></html>')
    if (req.url === '/slow.png') return void setTimeout(() => res.end(png), 2000)
    res.writeHead(404).end('not here')
  })
  await new Promise<void>((r) => server.listen(0, '127.0.0.1', r))
  base = `http://127.0.0.1:${(server.address() as { port: number }).port}`
})

http('an image URL is downloaded once and cached by content for later renders', async () => {
  const cacheDir = join(dir, 'cache-a')
  const e = edit([{ asset: { type: 'image', src: `${base}/green.png` }, start: 0, length: 0.04, fit: 'cover' }])
  const { frames } = await renderAndDecode(e, { cacheDir, network: LOOPBACK })
  assert.ok(near(pixel(frames, 0, 160, 90), [0, 255, 0]))
  await renderAndDecode(e, { cacheDir, network: LOOPBACK })
  assert.is(hits.get('/green.png'), 1)
})
http('redirects are followed', async () => {
  const { frames } = await renderAndDecode(edit([{ asset: { type: 'image', src: `${base}/moved.png` }, start: 0, length: 0.04, fit: 'cover' }]), {
    cacheDir: join(dir, 'cache-b'),
    network: LOOPBACK,
  })
  assert.ok(near(pixel(frames, 0, 160, 90), [0, 255, 0]))
})

const fails = async (src: string, opts: object, code: string, pattern: RegExp, type = 'image') => {
  try {
    await createRenderer({ cacheDir: join(dir, `cache-${Math.random()}`), network: LOOPBACK, ...opts }).render(
      edit([{ asset: { type, src }, start: 0, length: 0.04 }]),
      { out: join(dir, 'x.mp4') },
    )
    assert.unreachable()
  } catch (e) {
    assert.instance(e, RenderError)
    assert.is((e as RenderError).code, code)
    assert.match((e as Error).message, pattern)
  }
}
http('HTTP errors name the clip path and the URL', () =>
  fails(`${base}/gone.png`, {}, 'E_ASSET_UNREADABLE', /tracks\[0\]\.clips\[0\]\.asset\.src: cannot load "http:.*\/gone\.png": HTTP 404/),
)
http('a page that is no media names its URL, not the file it was cached as', async () => {
  for (const type of ['video', 'audio']) {
    const said =
      /^timeline\.tracks\[0\]\.clips\[0\]\.asset\.src: http:\S+\/page\.html is not a readable media file \(Invalid data found when processing input\)$/
    await fails(`${base}/page.html`, {}, 'E_ASSET_UNREADABLE', said, type)
  }
})
http('downloads over the size limit are refused', () => fails(`${base}/huge.png`, { maxDownloadBytes: 1_000_000 }, 'E_ASSET_TOO_LARGE', /download limit/))
http('downloads past the time limit fail', () => fails(`${base}/slow.png`, { downloadTimeoutMs: 300 }, 'E_ASSET_UNREADABLE', /timed out|timeout/i))

const ssrf = suite('SSRF guard')
const refused = async (src: string, opts: object, pattern: RegExp) => {
  try {
    await createRenderer({ cacheDir: join(dir, `cache-${Math.random()}`), ...opts }).render(edit([{ asset: { type: 'image', src }, start: 0, length: 0.04 }]), {
      out: join(dir, 'x.mp4'),
    })
    assert.unreachable()
  } catch (e) {
    assert.instance(e, RenderError)
    assert.is((e as RenderError).code, 'E_ASSET_UNREADABLE')
    assert.match((e as Error).message, pattern)
  }
}
ssrf('by default loopback, private, link-local and metadata addresses are refused, by literal IP and by name', async () => {
  const before = hits.get('/green.png') ?? 0
  await refused(`${base}/green.png`, {}, /127\.0\.0\.1 is a loopback address/)
  await refused(`http://localhost:${base.split(':')[2]}/green.png`, {}, /loopback address/)
  await refused('http://10.1.2.3/x.png', {}, /10\.1\.2\.3 is a private address/)
  await refused('http://169.254.169.254/latest/meta-data/', {}, /link-local \(cloud metadata\)/)
  await refused('http://[::ffff:127.0.0.1]:9/x.png', {}, /127\.0\.0\.1 is a loopback address/)
  await refused('http://[::1]:9/x.png', {}, /::1 is a loopback address/)
  assert.is(hits.get('/green.png') ?? 0, before, 'no request reached the server')
})
ssrf('a redirect from an allowed host into a refused network is refused at the hop', async () => {
  // Loopback is allowed here, the metadata address is not: only the redirect's target can be refused.
  await refused(`${base}/to-metadata.png`, { network: LOOPBACK }, /169\.254\.169\.254 is a link-local/)
  assert.is(hits.get('/to-metadata.png'), 1, 'the first hop was made')
})
ssrf('addressGuard: allow-lists re-open single addresses and networks; public addresses pass', () => {
  const g = addressGuard({ allow: ['10.0.0.0/8', '::1'] })
  assert.is(g.refusal('10.9.9.9'), undefined)
  assert.is(g.refusal('::1'), undefined)
  assert.match(g.refusal('192.168.1.1')!, /private/)
  assert.match(g.refusal('100.64.0.1')!, /carrier-grade NAT/)
  assert.match(g.refusal('fd12::1')!, /unique local/)
  assert.match(g.refusal('fe80::1')!, /link-local/)
  assert.is(addressGuard().refusal('93.184.215.14'), undefined)
  assert.is(addressGuard().refusal('2606:4700::1111'), undefined)
  assert.is(addressGuard({ allow: ['*'] }).refusal('127.0.0.1'), undefined)
  assert.throws(() => addressGuard({ allow: ['not-an-ip'] }), /network\.allow/)
})
// The server outlives the first suite: suites run in order.
ssrf.after(() => new Promise<void>((r) => server.close(() => r())))
http.run()
ssrf.run()
