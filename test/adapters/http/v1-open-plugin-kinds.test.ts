import { fileURLToPath } from 'node:url'
import { loadImage } from '@napi-rs/canvas'
import { createCanvas } from '@napi-rs/canvas'
import { suite } from 'uvu'
import * as assert from 'uvu/assert'
import { listen } from '../../helpers/browser.js'
import { type TestService, testService } from '../../helpers/service.js'
import { runnable } from '../../helpers/serve-child.js'

// A server started with a plugin module (`REELFORGE_PLUGINS`) takes that module's output format, fit and image
// provider over HTTP as it takes a custom transition: `output.format: "avif"` renders through the plugin, the
// stored file has the plugin's extension and is served with its type, a clip's custom `fit` sizes its asset, and
// the provider's model (`flux`) is drawn by it — in `/v1/ai/image` and in a render — not by the sandbox.

const ctx = {} as { svc: TestService; http: Awaited<ReturnType<typeof listen>> }
const test = suite('/v1 with plugin output formats and fits', ctx)
test.before(async () => {
  const module = runnable(fileURLToPath(new URL('../../helpers/open-kind-plugins.ts', import.meta.url)))
  ctx.svc = await testService({ start: true, config: { pluginModules: [module] } })
  ctx.http = await listen(ctx.svc)
})
test.after(async () => {
  await ctx.http.close()
  await ctx.svc.close()
})

const shape = (fit?: string) => ({
  timeline: {
    background: '#000000',
    tracks: [
      {
        clips: [
          {
            asset: { type: 'shape', shape: 'rectangle', rectangle: { width: 320, height: 180 }, fill: { color: '#ff0000' } },
            start: 0,
            length: 1,
            ...(fit ? { fit } : {}),
          },
        ],
      },
    ],
  },
  output: { format: 'avif', size: { width: 320, height: 180 } },
})

test('output.format "avif" from a plugin: rendered, stored as .avif, served as image/avif', async () => {
  const { status, body } = await ctx.svc.call('POST', '/v1/render', { body: shape() })
  assert.is(status, 201, JSON.stringify(body))
  const done = await ctx.svc.waitFor(body.jobId, ['COMPLETE', 'FAILED'])
  assert.is(done.status, 'COMPLETE', done.error)
  assert.match(done.url, /\.avif$/, 'the extension is the plugin’s')
  const res = await fetch(done.url, { headers: { authorization: `Bearer ${ctx.svc.live}` } })
  assert.is(res.status, 200)
  assert.is(res.headers.get('content-type'), 'image/avif')
  const bytes = Buffer.from(await res.arrayBuffer())
  assert.is(bytes.subarray(4, 12).toString('latin1'), 'ftypavif')
  const image = await loadImage(bytes)
  const g = createCanvas(image.width, image.height).getContext('2d')
  g.drawImage(image, 0, 0)
  const [r, gr, b] = g.getImageData(160, 90, 1, 1).data
  assert.ok(r! > 200 && gr! < 60 && b! < 60, `the red shape at the centre: ${r},${gr},${b}`)
})

test("GET /v1/plugins lists the output formats, the plugin module's among them", async () => {
  const { status, body } = await ctx.svc.call('GET', '/v1/plugins')
  assert.is(status, 200)
  for (const format of ['mp4', 'gif', 'mp3', 'avif']) assert.ok(body.outputs.includes(format), format)
})

test('a custom fit over HTTP validates; a misspelt format or fit is a 400 naming the field', async () => {
  const ok = await ctx.svc.call('POST', '/v1/render', { body: { ...shape('half'), output: { format: 'mp4', resolution: 'preview' } } })
  assert.is(ok.status, 201, JSON.stringify(ok.body))
  const badFit = await ctx.svc.call('POST', '/v1/render', { body: shape('halff') })
  assert.is(badFit.status, 400)
  assert.match(JSON.stringify(badFit.body), /timeline\.tracks\[0\]\.clips\[0\]\.fit.*unknown fit \\"halff\\"/)
  const badFormat = await ctx.svc.call('POST', '/v1/render', { body: { ...shape(), output: { format: 'avf' } } })
  assert.is(badFormat.status, 400)
  assert.match(JSON.stringify(badFormat.body), /output\.format/)
})

test("the module's image provider answers its model: /v1/ai/image and a render's prompted image", async () => {
  const image = await ctx.svc.call('POST', '/v1/ai/image', { body: { prompt: 'a green card', model: 'flux', width: 512, height: 512 } })
  assert.is(image.status, 200, JSON.stringify(image.body))
  assert.is(image.body.provider, 'greencard')
  const prompted = {
    timeline: { tracks: [{ clips: [{ asset: { type: 'text-to-image', prompt: 'a green card', width: 1024, height: 576 }, start: 0, length: 0.5 }] }] },
    output: { format: 'png', size: { width: 320, height: 180 } },
  }
  const { status, body } = await ctx.svc.call('POST', '/v1/render', { body: prompted })
  assert.is(status, 201, JSON.stringify(body))
  const done = await ctx.svc.waitFor(body.jobId, ['COMPLETE', 'FAILED'])
  assert.is(done.status, 'COMPLETE', done.error)
  const png = await loadImage(Buffer.from(await (await fetch(done.url, { headers: { authorization: `Bearer ${ctx.svc.live}` } })).arrayBuffer()))
  const g = createCanvas(png.width, png.height).getContext('2d')
  g.drawImage(png, 0, 0)
  const [r, gr, b] = g.getImageData(160, 90, 1, 1).data
  assert.ok(r! < 30 && gr! > 220 && b! < 30, `the provider's green: ${r},${gr},${b}`)
})

test.run()
