import { readFileSync } from 'node:fs'
import { fileURLToPath } from 'node:url'
import { suite } from 'uvu'
import * as assert from 'uvu/assert'
import { builtinFonts } from '../../../plugins/index.js'
import { listen } from '../../helpers/browser.js'
import { type TestService, testService } from '../../helpers/service.js'
import { runnable } from '../../helpers/serve-child.js'

// What an editor may offer: the renderer's plugin names (custom plugin modules included), each of which the
// validation then accepts, and the font families — built-in and the account's uploads.

const ctx = {} as { svc: TestService; http: Awaited<ReturnType<typeof listen>> }
const test = suite('/v1/plugins and /v1/fonts', ctx)
test.before(async () => {
  const custom = runnable(fileURLToPath(new URL('../../helpers/custom-look-plugins.ts', import.meta.url)))
  ctx.svc = await testService({ start: true, config: { pluginModules: [custom] } })
  ctx.http = await listen(ctx.svc)
})
test.after(async () => {
  await ctx.http.close()
  await ctx.svc.close()
})

const oneClip = (clip: object) => ({
  timeline: { tracks: [{ clips: [{ asset: { type: 'title', text: 'x' }, start: 0, length: 2, ...clip }] }] },
  output: { format: 'mp4', resolution: 'preview' },
})

test('GET /v1/plugins lists the built-in names with their speeds and the custom plugins beside them', async () => {
  const r = await ctx.svc.call('GET', '/v1/plugins')
  assert.is(r.status, 200, JSON.stringify(r.body))
  const { assets, transitions, effects, filters, fits } = r.body
  for (const name of ['fade', 'fadeSlow', 'fadeFast', 'slideLeft', 'zoom', 'irisTest']) assert.ok(transitions.includes(name), `transition ${name}`)
  for (const name of ['zoomIn', 'zoomInSlow', 'slideUpFast', 'wobbleTest', 'wobbleTestSlow', 'wobbleTestFast'])
    assert.ok(effects.includes(name), `effect ${name}`)
  for (const name of ['greyscale', 'blur', 'greenTest']) assert.ok(filters.includes(name), `filter ${name}`)
  assert.ok(!transitions.includes('zoomSlow'), 'zoom has no slow variant: nothing draws it')
  assert.ok(![...transitions, ...effects, ...filters].includes('none'), '`none` is no plugin')
  assert.equal([...fits].sort(), ['contain', 'cover', 'crop', 'none', 'thirdTest'])
  for (const type of ['title', 'video', 'image', 'shape', 'html', 'text', 'audio']) assert.ok(assets.includes(type), `asset ${type}`)
})

test('every listed transition, effect and filter passes the validation', async () => {
  const { transitions, effects, filters } = (await ctx.svc.call('GET', '/v1/plugins')).body as { transitions: string[]; effects: string[]; filters: string[] }
  // One clip per name, one after another on a single track.
  const looks = [
    ...transitions.map((t) => ({ transition: { in: t, out: t } })),
    ...effects.map((effect) => ({ effect })),
    ...filters.map((filter) => ({ filter })),
  ]
  const clips = looks.map((look, i) => ({ asset: { type: 'title', text: 'x' }, start: i * 2, length: 2, ...look }))
  const r = await ctx.svc.call('POST', '/v1/render/validate', { body: { timeline: { tracks: [{ clips }] }, output: { format: 'mp4', resolution: 'preview' } } })
  assert.equal(r.body.issues, [])
  assert.is(r.body.valid, true)
  const unknown = await ctx.svc.call('POST', '/v1/render/validate', { body: oneClip({ filter: 'notAPlugin' }) })
  assert.is(unknown.body.valid, false, 'and a name it does not list is refused')
})

test("GET /v1/fonts lists the built-in families and this account's uploaded font, which a frame then draws", async () => {
  const before = (await ctx.svc.call('GET', '/v1/fonts')).body.fonts as { family: string; weights: number[]; source: string; src?: string }[]
  const openSans = before.find((f) => f.family === 'Open Sans')
  assert.ok(openSans, 'the default family')
  assert.is(openSans.source, 'builtin')
  assert.ok(openSans.weights.includes(400) && openSans.weights.includes(700), `weights ${openSans.weights}`)
  assert.is(new Set(before.map((f) => f.family)).size, new Set(builtinFonts.map((f) => f.family)).size, 'each built-in family once')
  assert.is(before.filter((f) => f.source === 'upload').length, 0)

  const upload = (await ctx.svc.call('POST', '/v1/upload', { body: { filename: 'Brand Display.ttf' } })).body
  const anton = builtinFonts.find((f) => f.family === 'Anton')!.path
  const put = await fetch(upload.url, { method: 'PUT', body: readFileSync(anton) })
  assert.is(put.status, 200, await put.clone().text())
  const source = await put.json()
  assert.is(source.type, 'font')

  const fonts = (await ctx.svc.call('GET', '/v1/fonts')).body.fonts as { family: string; source: string; src?: string }[]
  const mine = fonts.filter((f) => f.source === 'upload')
  assert.equal(mine, [{ family: 'Brand-Display', weights: [], source: 'upload', src: source.url }])
  const sandbox = (await ctx.svc.call('GET', '/v1/fonts', { key: ctx.svc.sandbox })).body.fonts as { source: string }[]
  assert.is(sandbox.filter((f) => f.source === 'upload').length, 0, "another environment's uploads stay its own")

  // The listed name is one the renderer draws once the file is in timeline.fonts.
  const edit = {
    timeline: {
      fonts: [{ src: source.url }],
      tracks: [{ clips: [{ asset: { type: 'text', text: 'Brand', font: { family: 'Brand-Display', size: 60 } }, start: 0, length: 1 }] }],
    },
    output: { format: 'mp4', size: { width: 320, height: 180 } },
  }
  const frame = await ctx.svc.call('POST', '/v1/render/frame', { body: { ...edit, time: 0.5 } })
  assert.is(frame.status, 200, JSON.stringify(frame.body).slice(0, 300))
})

test.run()
