import { readFileSync } from 'node:fs'
import { createServer } from 'node:http'
import type { AddressInfo } from 'node:net'
import { join } from 'node:path'
import { suite } from 'uvu'
import * as assert from 'uvu/assert'
import { lavfi, tempDir } from '../../helpers/media.js'
import { testService } from '../../helpers/service.js'

// Probe (service/media/probe.ts): ffprobe's JSON of a remote file, fetched through the SSRF guard — every redirect
// hop included — and never naming the server's local copy. The service allows loopback (LOOPBACK), so the
// host below is reachable and 10.0.0.1 is the private address it still refuses.

const svc = await testService()
const paths = (r: { body: any }) => (r.body.error?.issues ?? []).map((i: { path: string }) => i.path)
const dir = tempDir()
const clip = readFileSync(await lavfi('testsrc2=s=320x240:d=2:r=25', join(dir, 'clip.mp4'), ['-c:v', 'libx264', '-pix_fmt', 'yuv420p']))
const host = createServer((req, res) => {
  if (req.url === '/redirect') return res.writeHead(302, { location: 'http://10.0.0.1/clip.mp4' }).end()
  if (req.url === '/clip.mp4') return res.writeHead(200, { 'content-length': clip.length }).end(clip)
  if (req.url === '/notes.txt') return res.end('not media at all')
  res.writeHead(404).end()
})
await new Promise<void>((r) => host.listen(0, '127.0.0.1', r))
const base = `http://127.0.0.1:${(host.address() as AddressInfo).port}`
const probe = (url: string, key?: string) => svc.call('GET', `/v1/probe?url=${encodeURIComponent(url)}`, { key })

const probing = suite('GET /v1/probe')
probing("a loopback-served video (loopback allowed) → ffprobe's JSON, naming the URL, not a local path", async () => {
  const r = await probe(`${base}/clip.mp4`)
  assert.is(r.status, 200, JSON.stringify(r.body))
  const video = r.body.streams.find((s: any) => s.codec_type === 'video')
  assert.is(video.width, 320)
  assert.is(video.height, 240)
  assert.ok(Math.abs(Number(r.body.format.duration) - 2) < 0.1, r.body.format.duration)
  assert.is(r.body.format.filename, `${base}/clip.mp4`)
  assert.not.ok(JSON.stringify(r.body).includes(svc.config.dataDir), 'no local path')
})
probing('a private address, a redirect into one, a file URL and no URL are 400s naming `url`', async () => {
  for (const url of ['http://10.0.0.1/clip.mp4', `${base}/redirect`, 'file:///etc/passwd', '/etc/passwd']) {
    const r = await probe(url)
    assert.is(r.status, 400, `${url}: ${JSON.stringify(r.body)}`)
    assert.equal(paths(r), ['url'], url)
  }
  assert.equal(paths(await svc.call('GET', '/v1/probe')), ['url'])
})
probing('without the allowance, loopback is a private address like any other', async () => {
  const closed = await testService({ config: { network: {} } })
  const r = await closed.call('GET', `/v1/probe?url=${encodeURIComponent(`${base}/clip.mp4`)}`)
  await closed.close()
  assert.is(r.status, 400, JSON.stringify(r.body))
  assert.equal(paths(r), ['url'])
  assert.match(r.body.error.message, /loopback/)
})
probing('an unreachable or unreadable URL is a 422 that leaks no local path', async () => {
  for (const url of [`${base}/missing.mp4`, `${base}/notes.txt`]) {
    const r = await probe(url)
    assert.is(r.status, 422, `${url}: ${JSON.stringify(r.body)}`)
    assert.is(r.body.error.code, 'E_ASSET_UNREADABLE')
    assert.not.ok(r.body.error.message.includes(svc.config.cacheDir), r.body.error.message)
  }
})
probing.after(async () => {
  host.close()
  await svc.close()
})
probing.run()
