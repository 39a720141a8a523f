import { readFileSync, writeFileSync } from 'node:fs'
import { join } from 'node:path'
import { suite } from 'uvu'
import * as assert from 'uvu/assert'
import { probe } from '../../../core/index.js'
import { aiProvidersFromConfig } from '../../../plugins/index.js'
import { solidPng, tempDir } from '../../helpers/media.js'
import { type TestService, testService } from '../../helpers/service.js'

// The media-making AI kinds through /v1 with the local engines a sandbox key gets: files that are what they
// say (probed), hosted at the job's url, inputs read from this service's own files.

const dir = tempDir('reelforge-ai-media-')
const ctx = {} as { svc: TestService }
const test = suite('/v1/ai media kinds on local engines', ctx)
test.before(async () => {
  ctx.svc = await testService({ start: true, overrides: { aiProviders: aiProvidersFromConfig({}) } })
})
test.after(() => ctx.svc.close())

async function run(kind: string, body: object) {
  const queued = await ctx.svc.call('POST', `/v1/ai/${kind}`, { key: ctx.svc.sandbox, body })
  assert.is(queued.status, 202, JSON.stringify(queued.body))
  await ctx.svc.aiJobs.idle()
  const done = (await ctx.svc.call('GET', `/v1/ai/${kind}/${queued.body.id}`, { key: ctx.svc.sandbox })).body
  assert.is(done.status, 'complete', done.error)
  return done
}
/** The job's file, downloaded from its url. */
async function fileOf(url: string, name: string) {
  const path = join(dir, name)
  writeFileSync(path, Buffer.from(await (await ctx.svc.app.request(new URL(url).pathname)).arrayBuffer()))
  return path
}

test('speech: an mp3 as long as its duration, every word timed in order inside it', async () => {
  const done = await run('speech', { text: 'The storm rolled over the quiet harbour at dawn.', format: 'mp3' })
  assert.is(done.provider, 'espeak-speech')
  const info = await probe(await fileOf(done.url, 'speech.mp3'))
  assert.ok(Math.abs((info.duration ?? 0) - done.duration) < 0.15, `${info.duration} vs ${done.duration}`)
  assert.is(done.words.length, 9)
  for (const [i, w] of done.words.entries()) {
    assert.ok(w.start < w.end && w.end <= done.duration + 0.01, JSON.stringify(w))
    if (i) assert.ok(w.start >= done.words[i - 1].end - 0.001, 'in order, not overlapping')
  }
})

test('transcription: a voice-over made here, transcribed by PocketSphinx into timed words, SRT and WebVTT', async () => {
  const speech = await run('speech', { text: 'Seven boats sailed out of the harbour this morning.', format: 'wav' })
  const done = await run('transcription', { src: speech.url })
  assert.is(done.provider, 'pocketsphinx-transcription')
  assert.ok(done.words.length >= 4, JSON.stringify(done.words))
  for (const [i, w] of done.words.entries()) if (i) assert.ok(w.start >= done.words[i - 1].start, 'in order')
  assert.ok(done.words.at(-1).end <= speech.duration + 0.1, 'inside the audio')
  const srt = await (await ctx.svc.app.request(new URL(done.files.srt).pathname)).text()
  const vtt = await (await ctx.svc.app.request(new URL(done.files.vtt).pathname)).text()
  assert.match(srt, /^1\r?\n\d\d:\d\d:\d\d,\d{3} --> /)
  assert.match(vtt, /^WEBVTT/)
  assert.ok(done.text.length > 10, done.text)
})

test('video: the sandbox clip at the asked size and exact duration', async () => {
  const done = await run('video', { prompt: 'a red kite over the dunes', duration: 2, resolution: 'sd', aspectRatio: '9:16' })
  const info = await probe(await fileOf(done.url, 'clip.mp4'))
  const video = info.streams.find((s) => s.width)!
  assert.equal([video.width, video.height], [576, 1024])
  assert.ok(Math.abs((info.duration ?? 0) - 2) < 0.05, `${info.duration}`)
})

test("upscale: an uploaded image (this service's own file) ×2 and to 1080, exactly", async () => {
  const png = await solidPng(join(dir, 'logo.png'), 160, 90, '#3366ff')
  const upload = (await ctx.svc.call('POST', '/v1/upload', { key: ctx.svc.sandbox, body: { filename: 'logo.png' } })).body
  const url = new URL(upload.url)
  const source = await (await ctx.svc.app.request(url.pathname + url.search, { method: 'PUT', body: readFileSync(png) })).json()
  assert.is(source.status, 'ready', source.error)
  const doubled = await run('upscale', { src: source.url, scale: 2 })
  const d = (await probe(await fileOf(doubled.url, 'x2.png'))).streams[0]!
  assert.equal([d.width, d.height], [320, 180])
  const hd = await run('upscale', { src: source.url, target: '1080' })
  const h = (await probe(await fileOf(hd.url, 'hd.png'))).streams[0]!
  assert.equal([h.width, h.height], [1920, 1080])
})

test.run()
