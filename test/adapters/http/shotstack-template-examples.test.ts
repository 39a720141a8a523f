import { mkdirSync, readFileSync, writeFileSync } from 'node:fs'
import { join } from 'node:path'
import { suite } from 'uvu'
import * as assert from 'uvu/assert'
import { ffmpegArgs, runFfmpeg } from '../../../core/index.js'
import { decodeFrames, mean, near } from '../../helpers/frames.js'
import { lavfi, solidPng, tempDir } from '../../helpers/media.js'
import { testService } from '../../helpers/service.js'
import { startWebHost } from '../../helpers/web-hosts.js'

// Two real templates saved through Shotstack's surface without any merge values — the Templates guide's
// (`{{ URL }}`, `{{ TRIM }}`, `{{ DURATION }}`) and the compat corpus's bulk-CSV card (`{{IMAGE_URL}}`, …;
// test/fixtures/templates/README.md says where each comes from) — then rendered with values that point at media
// on a loopback host. Frames of the results are kept in .test-output/templates/ to be looked at.

const svc = await testService({ start: true, config: { shotstack: true } })
const headers = { 'x-api-key': svc.live, 'content-type': 'application/json' }
const dir = tempDir('reelforge-template-examples-')
const OUT = join(import.meta.dirname, '..', '..', '..', '.test-output', 'templates')
mkdirSync(OUT, { recursive: true })
const fixture = (name: string) => JSON.parse(readFileSync(join(import.meta.dirname, '..', '..', 'fixtures', 'templates', name), 'utf8'))

const clip = await lavfi('testsrc2=size=320x180:rate=25:duration=4', join(dir, 'clip.mp4'), ['-c:v', 'libx264', '-pix_fmt', 'yuv420p'])
const product = await solidPng(join(dir, 'product.png'), 400, 400, '#e11d48', { color: '#22c55e', size: 100 })
const host = await startWebHost({ 'clip.mp4': readFileSync(clip), 'product.png': readFileSync(product) })

const post = async (path: string, body: unknown) => {
  const res = await svc.app.request(path, { method: 'POST', headers, body: JSON.stringify(body) })
  return { status: res.status, body: (await res.json()) as any }
}
/** Saves the template, renders it with `merge`, waits for it to finish and returns the file and its length. */
async function rendered(template: unknown, merge: Record<string, unknown>, name: string): Promise<{ file: string; duration: number }> {
  const saved = await post('/edit/v1/templates', template)
  assert.is(saved.status, 201, JSON.stringify(saved.body))
  const fields = Object.entries(merge).map(([find, replace]) => ({ find, replace }))
  const queued = await post('/edit/v1/templates/render', { id: saved.body.response.id, merge: fields })
  assert.is(queued.status, 201, JSON.stringify(queued.body))
  const done = await svc.waitFor(queued.body.response.id, ['COMPLETE', 'FAILED'], svc.live, 240_000)
  assert.is(done.status, 'COMPLETE', done.error)
  const file = join(dir, `${name}.mp4`)
  writeFileSync(file, Buffer.from(await (await svc.app.request(new URL(done.url).pathname)).arrayBuffer()))
  return { file, duration: done.duration }
}
/** One frame at `seconds`, scaled to w×h, as a PNG in .test-output/templates/ and decoded to RGBA. */
async function frameAt(file: string, seconds: number, w: number, h: number, name: string) {
  const png = join(OUT, `${name}.png`)
  await runFfmpeg(ffmpegArgs`-v error -y -ss ${String(seconds)} -i ${file} -frames:v 1 -vf ${`scale=${w}:${h}`} ${png}`)
  return decodeFrames(png, w, h)
}
/** Mean absolute difference per channel between two frames of one size. */
const difference = (a: Uint8Array, b: Uint8Array) => a.reduce((sum, x, i) => sum + (i % 4 === 3 ? 0 : Math.abs(x - b[i]!)), 0) / ((a.length / 4) * 3)

const examples = suite('Shotstack templates saved without merge values, rendered with them')
examples("the Templates guide's: the merged video, trimmed where TRIM says, for DURATION", async () => {
  const { file, duration } = await rendered(
    fixture('shotstack-guide-template.json'),
    { URL: `${host.url}/length-keep-alive/clip.mp4`, TRIM: 1, DURATION: 2 },
    'guide',
  )
  assert.ok(Math.abs(duration - 2) < 0.05, `DURATION 2 s, got ${duration}`)
  const out = await frameAt(file, 0, 320, 180, 'guide')
  const atTrim = await frameAt(clip, 1, 320, 180, 'guide-source-1s')
  const atStart = await frameAt(clip, 0, 320, 180, 'guide-source-0s')
  const [trimmed, untrimmed] = [difference(out.frame(0), atTrim.frame(0)), difference(out.frame(0), atStart.frame(0))]
  assert.ok(trimmed < 12 && trimmed * 3 < untrimmed, `opens on the source at 1 s (difference ${trimmed.toFixed(1)}), not 0 s (${untrimmed.toFixed(1)})`)
})
examples("the compat corpus's bulk-CSV card: the merged product image and brand colour are in the frame", async () => {
  const merge = {
    IMAGE_URL: `${host.url}/length-keep-alive/product.png`,
    BRAND_COLOR: '#1e3a8a',
    PRICE: '$19',
    HEADLINE: 'Fresh this week',
    PRODUCT_NAME: 'Rose lamp',
  }
  const { file } = await rendered(fixture('bulk-csv-template.json'), merge, 'bulk-csv')
  const f = await frameAt(file, 2.5, 720, 1280, 'bulk-csv')
  // The 560 px square sits at the centre, 0.04 × 1280 = 51 px up (Shotstack's y counts up); its crop fills it.
  assert.ok(near(mean(f, 0, 330, 560, 390, 620), [0xe1, 0x1d, 0x48], 20), `product image at the centre: ${mean(f, 0, 330, 560, 390, 620)}`)
  assert.ok(near(mean(f, 0, 10, 600, 40, 680), [0x1e, 0x3a, 0x8a], 12), `brand colour at the edge: ${mean(f, 0, 10, 600, 40, 680)}`)
})
examples('a real error beside placeholders is still a 400 naming that field, in Shotstack’s envelope', async () => {
  const bad = fixture('bulk-csv-template.json')
  bad.template.timeline.tracks[3].clips[0].fit = 'squash'
  const r = await post('/edit/v1/templates', bad)
  assert.is(r.status, 400)
  assert.equal([r.body.success, r.body.message], [false, 'Bad Request'])
  assert.match(r.body.response, /template\.timeline\.tracks\[3\]\.clips\[0\]\.fit: unknown fit "squash"; known: crop, cover, contain, none/)
  assert.not.match(r.body.response, /IMAGE_URL|BRAND_COLOR|src/)
})
examples.after(async () => {
  await host.close()
  await svc.close()
})
examples.run()
