import { spawnSync } from 'node:child_process'
import { randomUUID } from 'node:crypto'
import { writeFileSync } from 'node:fs'
import { join } from 'node:path'
// Shotstack's official Node SDK, unchanged: its own API classes, models and default transport (superagent).
import Shotstack from 'shotstack-sdk'
import { test } from 'uvu'
import * as assert from 'uvu/assert'
import { decodeFrames, isRed, locate } from '../helpers/frames.js'
import { indexedVideo, solidPng, tempDir } from '../helpers/media.js'
import { startPythonServer } from '../helpers/python-http.js'
import { startS3 } from '../helpers/s3.js'
import { cliArgs, createKey, freePort, root, serve, stop } from '../helpers/serve-child.js'

// A stranger's migration: `reelforge serve --shotstack`, keys from the CLI, media on Python's http.server,
// and their existing SDK code with only `basePath` changed.
const data = tempDir('reelforge-shotstack-')
const media = tempDir('reelforge-shotstack-media-')
await solidPng(join(media, 'red.png'), 64, 64, '#ff0000')
await indexedVideo(join(media, 'bars.mp4'), { fps: 25, seconds: 3 })
const host = await startPythonServer(media)
// The customer's own bucket: s3rver on loopback (the operator's REELFORGE_ALLOW_NETWORKS lets the copy reach it).
const BUCKET = 'customer-bucket'
const s3 = await startS3({ buckets: [BUCKET] })
const port = await freePort()
const base = `http://127.0.0.1:${port}`
const child = await serve(data, port, { REELFORGE_SHOTSTACK: '1', REELFORGE_ALLOW_NETWORKS: '127.0.0.0/8' })
const live = createKey(data)
const sandbox = spawnSync(process.execPath, cliArgs('keys', 'create', '--sandbox', '--data', data), { cwd: root, encoding: 'utf8' }).stdout.trim()

function clientFor(path: string, key: string) {
  const client = new Shotstack.ApiClient(`${base}${path}`)
  client.authentications.DeveloperKey.apiKey = key
  return client
}
const edit = new Shotstack.EditApi(clientFor('/edit/v1', live))
const serveApi = new Shotstack.ServeApi(clientFor('/serve/v1', live))

/** A red square 0.25 of the frame above the centre, as a Shotstack user writes it (y counts up). */
function redSquareEdit(y = 0.25) {
  const image = new Shotstack.ImageAsset('image', `${host.url}/red.png`)
  const clip = new Shotstack.Clip(image, 0, 1)
  clip.setFit('none')
  clip.setOffset(new Shotstack.Offset().setX(0).setY(y))
  const out = new Shotstack.Output('mp4')
  out.setResolution('preview')
  return new Shotstack.Edit(new Shotstack.Timeline([new Shotstack.Track([clip])]), out)
}

const raw = async (path: string) => (await fetch(`${base}${path}`, { headers: { 'x-api-key': live } })).json() as Promise<any>

const waitDone = (id: string) => waitDoneOn(edit, id)
async function waitDoneOn(api: typeof edit, id: string) {
  for (const until = Date.now() + 90_000; Date.now() < until; await new Promise((r) => setTimeout(r, 200))) {
    const res = await api.getRender(id, { data: false })
    assert.ok(res.success)
    if (res.response.status === 'done' || res.response.status === 'failed') return res.response
  }
  throw new Error(`render ${id} never finished`)
}

test('the SDK posts a render, polls it to done and downloads a frame drawn where Shotstack draws it', async () => {
  const withImages = redSquareEdit()
  withImages.getOutput().setPoster(new Shotstack.Poster(0.5)).setThumbnail(new Shotstack.Thumbnail(0.5, 0.25))
  const queued = await edit.postRender(withImages)
  assert.is(queued.success, true)
  assert.is(queued.message, 'Created')
  const done = await waitDone(queued.response.id)
  assert.is(done.status, 'done', done.error)
  const file = join(data, 'out.mp4')
  writeFileSync(file, Buffer.from(await (await fetch(done.url)).arrayBuffer()))
  const frames = await decodeFrames(file, 512, 288)
  const red = locate(frames, 0, isRed)
  assert.ok(red.count > 1000, `red square drawn (${red.count} px)`)
  // y up: the square's centre is 0.25 × 288 = 72 px above the middle (144).
  assert.ok(Math.abs(red.y - 72) < 4, `centre at y ${red.y}, expected 72`)
  assert.ok(Math.abs(red.x - 256) < 4, `centre at x ${red.x}, expected 256`)

  // The SDK README's status call: `merged` applies to `data`, and no data was asked for (were it sent, the SDK
  // could not parse the edit's assets back: it throws "Multiple matches found constructing 'Asset'").
  const status = await edit.getRender(queued.response.id, { data: false, merged: true })
  assert.equal([status.response.status, status.response.data], ['done', undefined])
  // The render's own asset keeps the render's id: readable by it before anything listed the render's assets,
  // made when the render finished, not when first asked for.
  const seen = Date.now()
  await new Promise((r) => setTimeout(r, 1100))
  const own = await serveApi.getAsset(queued.response.id)
  assert.equal([own.data.attributes.url, own.data.attributes.status], [done.url, 'ready'])
  assert.ok(Date.parse(own.data.attributes.created) < seen, `created ${own.data.attributes.created}`)
  const assets = await serveApi.getAssetByRenderId(queued.response.id)
  // The video first (a client taking `data[0]` gets the render), then its poster and thumbnail.
  const video = assets.data[0]
  assert.ok(video.attributes.filename.endsWith('.mp4'), 'the render is served as an asset, listed first')
  assert.is(video.attributes.id, queued.response.id)
  assert.is(video.attributes.status, 'ready')
  assert.equal(
    assets.data.slice(1).map((a: any) => a.attributes.filename.split('.').pop()),
    ['jpg', 'jpg'],
    'then its poster and thumbnail',
  )
  assert.is((await serveApi.getAsset(video.attributes.id)).data.attributes.url, done.url)
  await serveApi.deleteAsset(video.attributes.id)
  assert.is((await serveApi.getAsset(video.attributes.id)).data.attributes.status, 'deleted')
  assert.is((await fetch(done.url)).status, 404, 'the file is gone')
})

test('the SDK saves a template, renders it with merge and reads the merged edit back', async () => {
  const template = new Shotstack.Template()
  template.setName('menu')
  const e = redSquareEdit()
  e.getTimeline().getTracks()[0].getClips()[0].setLength('{{ LENGTH }}')
  e.setMerge([new Shotstack.MergeField().setFind('LENGTH').setReplace(1)])
  template.setTemplate(e)
  const created = await edit.postTemplate(template)
  assert.is(created.success, true)
  const id = created.response.id
  const listed = await edit.getTemplates()
  assert.ok(listed.response.templates.some((t: any) => t.id === id && t.name === 'menu'))
  // Updating through the SDK's putTemplate: the list and the edit read back show the change.
  template.setName('menu v2')
  e.getTimeline().setBackground('#102030')
  const updated = await edit.putTemplate(id, template)
  assert.equal([updated.success, updated.response.id], [true, id])
  assert.ok((await edit.getTemplates()).response.templates.some((t: any) => t.id === id && t.name === 'menu v2'))
  assert.is((await raw(`/edit/v1/templates/${id}`)).response.template.timeline.background, '#102030')
  // The SDK cannot read an edit back (0.2.9 finds several `Asset` models matching an image asset and throws,
  // client side, against Shotstack too): those reads go over plain HTTP with the same header.
  assert.is((await raw(`/edit/v1/templates/${id}`)).response.template.timeline.tracks[0].clips[0].length, '{{ LENGTH }}')

  const render = new Shotstack.TemplateRender()
  render.setId(id)
  render.setMerge([new Shotstack.MergeField().setFind('LENGTH').setReplace(2)])
  const queued = await edit.postTemplateRender(render)
  assert.is(queued.success, true)
  const done = await waitDone(queued.response.id)
  assert.is(done.status, 'done', done.error)
  assert.ok(Math.abs(done.duration - 2) < 0.05, `merged length 2 s, got ${done.duration}`)
  const merged = await raw(`/edit/v1/render/${queued.response.id}?data=true&merged=true`)
  assert.is(merged.response.data.timeline.tracks[0].clips[0].length, 2)
  assert.is((await raw(`/edit/v1/render/${queued.response.id}?data=true`)).response.data.merge[0].replace, 2)
  await edit.deleteTemplate(id)
  const gone = await edit.getTemplate(id).catch((e: any) => e)
  assert.is(gone.status, 404)
  assert.is(gone.response.body.success, false)
})

test('templates with placeholders in length, trim and src, no merge values: saved, listed, rendered on stage and v1', async () => {
  const url = `${host.url}/bars.mp4`
  for (const [path, key] of [
    ['/edit/stage', sandbox],
    ['/edit/v1', live],
  ] as const) {
    const api = new Shotstack.EditApi(clientFor(path, key))
    // Shotstack's Templates guide: the src, trim and length come with each render.
    const video = new Shotstack.VideoAsset().setSrc('{{ URL }}').setTrim('{{ TRIM }}')
    const out = new Shotstack.Output('mp4')
    out.setResolution('preview')
    const body = new Shotstack.Edit(new Shotstack.Timeline([new Shotstack.Track([new Shotstack.Clip(video, 0, '{{ DURATION }}')])]), out)
    const created = await api.postTemplate(new Shotstack.Template().setName('guide').setTemplate(body))
    assert.is(created.success, true, path)
    const id = created.response.id
    assert.ok(
      (await api.getTemplates()).response.templates.some((t: any) => t.id === id && t.name === 'guide'),
      `${path}: listed`,
    )

    const render = (merge: [string, unknown][]) =>
      api.postTemplateRender(
        new Shotstack.TemplateRender().setId(id).setMerge(merge.map(([find, replace]) => new Shotstack.MergeField().setFind(find).setReplace(replace))),
      )
    const missing = await render([
      ['URL', url],
      ['TRIM', 1],
    ]).catch((e: any) => e)
    assert.is(missing.status, 400, path)
    assert.equal([missing.response.body.success, missing.response.body.message], [false, 'Bad Request'])
    assert.match(missing.response.body.response, '{{ DURATION }} has no value in merge; it feeds timeline.tracks[0].clips[0].length')

    const queued = await render([
      ['URL', url],
      ['TRIM', 1],
      ['DURATION', 1.5],
    ])
    assert.is(queued.success, true)
    const done = await waitDoneOn(api, queued.response.id)
    assert.is(done.status, 'done', `${path}: ${done.error}`)
    assert.ok(Math.abs(done.duration - 1.5) < 0.05, `${path}: merged length 1.5 s, got ${done.duration}`)
  }
})

test('the SDK probes a loopback URL through the SSRF guard the operator opened and reads response.metadata', async () => {
  const probed = await edit.probe(`${host.url}/red.png`)
  assert.equal([probed.success, probed.message], [true, 'ok'])
  assert.is(probed.response.metadata.streams[0].width, 64)
  assert.is(probed.response.metadata.format.filename, `${host.url}/red.png`)
})

test('the SDK ingests a source by URL and by direct upload, reads, lists and deletes it', async () => {
  const ingest = new Shotstack.IngestApi(clientFor('/ingest/v1', live))
  const waitReady = async (id: string) => {
    for (const until = Date.now() + 30_000; Date.now() < until; await new Promise((r) => setTimeout(r, 200))) {
      const { data } = await ingest.getSource(id)
      if (data.attributes.status === 'ready' || data.attributes.status === 'failed') return data.attributes
    }
    throw new Error(`source ${id} never finished`)
  }
  const thumb = new Shotstack.Rendition().setFormat('jpg').setSize(new Shotstack.Size().setWidth(32).setHeight(32))
  const queued = await ingest.postSource(new Shotstack.Source().setUrl(`${host.url}/red.png`).setOutputs(new Shotstack.Outputs().setRenditions([thumb])))
  assert.is(queued.data.type, 'source')
  const fetched = await waitReady(queued.data.id)
  // The SDK's model turns `height` into a string (its schema says so); the wire has a number.
  assert.equal([fetched.status, fetched.width, fetched.height, fetched.input], ['ready', 64, '64', `${host.url}/red.png`])
  assert.match(fetched.source, new RegExp(`^${base}/v1/files/${queued.data.id}/red\\.png$`))
  const [rendition] = fetched.outputs.renditions
  assert.equal([rendition.status, rendition.width, rendition.height], ['ready', 32, 32])
  assert.match(rendition.url, new RegExp(`^${base}/v1/files/${queued.data.id}/`))

  const signed = await ingest.getUploadSignedUrl()
  assert.is(signed.data.type, 'upload')
  const put = await fetch(signed.data.attributes.url, { method: 'PUT', body: await (await fetch(`${host.url}/red.png`)).arrayBuffer() })
  assert.is(put.status, 200)
  const uploaded = await waitReady(signed.data.id)
  assert.equal([uploaded.status, uploaded.width, uploaded.input], ['ready', 64, undefined])

  const listed = (await ingest.getSources()).data.map((d: any) => d.id)
  assert.ok(listed.includes(queued.data.id) && listed.includes(signed.data.id))
  await ingest.deleteSource(queued.data.id)
  assert.is((await ingest.getSource(queued.data.id).catch((e: any) => e)).status, 404)
  assert.is((await fetch(fetched.source)).status, 404, 'the hosted file is gone')

  const refused = await ingest.postSource(new Shotstack.Source().setUrl('ftp://example.com/a.mp4')).catch((e: any) => e)
  assert.is(refused.status, 400)
  assert.equal(Object.keys(refused.response.body), ['errors'])
  assert.match(refused.response.body.errors[0].detail, /url/)
  const badRendition = new Shotstack.Source().setUrl(`${host.url}/red.png`).setOutputs(new Shotstack.Outputs().setRenditions([{ format: 'jpg', fps: 7 }]))
  const named = await ingest.postSource(badRendition).catch((e: any) => e)
  assert.is(named.status, 400)
  assert.match(named.response.body.errors[0].detail, /outputs\.renditions\[0\]\.fps/, 'the path as the request wrote it')
})

test("the SDK's ServeApi transfers a render's file and a URL to S3 on v1 and stage; getAsset reads how it went", async () => {
  // The account's S3 credentials, as Shotstack keeps them in its dashboard: here /v1's integration (s3rver's endpoint).
  const put = await fetch(`${base}/v1/integrations/s3`, {
    method: 'PUT',
    headers: { authorization: `Bearer ${live}`, 'content-type': 'application/json' },
    body: JSON.stringify({ access_key_id: 'S3RVER', secret_access_key: 'S3RVER', region: 'us-east-1', endpoint: s3.config.endpoint }),
  })
  assert.is(put.status, 200)
  const { account_id } = (await (await fetch(`${base}/v1/me`, { headers: { authorization: `Bearer ${live}` } })).json()) as any
  const stageKey = spawnSync(process.execPath, cliArgs('keys', 'create', '--sandbox', '--account', account_id, '--data', data), {
    cwd: root,
    encoding: 'utf8',
  })
  const stageServe = new Shotstack.ServeApi(clientFor('/serve/stage', stageKey.stdout.trim()))

  const done = await waitDone((await edit.postRender(redSquareEdit())).response.id)
  const toS3 = (prefix: string) => new Shotstack.S3Destination('s3').setOptions(new Shotstack.S3DestinationOptions('us-east-1', BUCKET).setPrefix(prefix))
  const settle = async (api: any, id: string) => {
    for (const until = Date.now() + 30_000; Date.now() < until; await new Promise((r) => setTimeout(r, 200))) {
      const { data } = await api.getAsset(id)
      if (data.attributes.status !== 'importing') return data.attributes
    }
    throw new Error(`transfer ${id} never finished`)
  }
  for (const [api, url, prefix] of [
    [serveApi, done.url, 'sdk-v1'],
    [stageServe, `${host.url}/red.png`, 'sdk-stage'],
  ] as const) {
    const id = randomUUID()
    const queued = await api.postServeAsset(new Shotstack.Transfer(url, id, [toS3(prefix)]))
    assert.equal([queued.data.type, queued.data.attributes.id, queued.data.attributes.status], ['asset', id, 'queued'])
    const asset = await settle(api, id)
    assert.equal([asset.status, asset.renderId], ['ready', id], prefix)
    const object = await fetch(asset.url)
    assert.is(object.status, 200)
    const source = Buffer.from(await (await fetch(url)).arrayBuffer())
    assert.ok(source.length > 0 && Buffer.from(await object.arrayBuffer()).equals(source), `${prefix}: the object is the source's bytes`)
    assert.equal(
      (await api.getAssetByRenderId(id)).data.map((a: any) => a.attributes.id),
      [id],
    )
  }
  // A destination reelforge cannot reach is that asset's failure, read the same way.
  const id = randomUUID()
  const mux = await serveApi.postServeAsset(new Shotstack.Transfer(done.url, id, [new Shotstack.MuxDestination('mux')]))
  assert.is(mux.data.attributes.status, 'failed')
  assert.is((await serveApi.getAsset(id)).data.attributes.status, 'failed')
})

test("errors reach the SDK in Shotstack's shapes: a bad edit, a bad key, the wrong environment", async () => {
  const bad = redSquareEdit()
  bad.getOutput().format = 'avi'
  const refused = await edit.postRender(bad).catch((e: any) => e)
  assert.is(refused.status, 400)
  assert.is(refused.response.body.success, false)
  assert.is(refused.response.body.message, 'Bad Request')
  assert.match(refused.response.body.response, /output\.format/)
  // Where Shotstack's spec is stricter than /v1: `output` is required, and an id off its pattern is a 400.
  const noOutput = await edit.postRender(new Shotstack.Edit(redSquareEdit().getTimeline())).catch((e: any) => e)
  assert.equal([noOutput.status, noOutput.response.body.success], [400, false])
  assert.match(noOutput.response.body.response, /^output: is required/)
  const badId = await edit.getRender('not-a-uuid').catch((e: any) => e)
  assert.equal([badId.status, badId.response.body.message], [400, 'Bad Request'])
  assert.match(badId.response.body.response, /^id: must be a UUID/)
  assert.is((await edit.getRender('0190a6f2-1c2d-7e3f-8a4b-5c6d7e8f9a0b').catch((e: any) => e)).status, 404)

  const wrong = await new Shotstack.EditApi(clientFor('/edit/v1', 'rf_live_wrong')).getTemplates().catch((e: any) => e)
  assert.is(wrong.status, 403)
  const stageKeyOnV1 = await new Shotstack.EditApi(clientFor('/edit/v1', sandbox)).getTemplates().catch((e: any) => e)
  assert.is(stageKeyOnV1.status, 403)
  assert.is((await new Shotstack.EditApi(clientFor('/edit/stage', sandbox)).getTemplates()).success, true)
})

test('/v1 keeps Bearer only: x-api-key is never accepted there, even with --shotstack', async () => {
  const res = await fetch(`${base}/v1/render`, { headers: { 'x-api-key': live } })
  assert.is(res.status, 401)
  const bearer = await fetch(`${base}/v1/render`, { headers: { authorization: `Bearer ${live}` } })
  assert.is(bearer.status, 200)
  // Shotstack's surface takes x-api-key only.
  assert.is((await fetch(`${base}/edit/v1/templates`, { headers: { authorization: `Bearer ${live}` } })).status, 401)
})

test.after(async () => {
  await stop(child)
  await host.close()
  await s3.close()
})

test.run()
