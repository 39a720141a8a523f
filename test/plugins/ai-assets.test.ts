import { join } from 'node:path'
import { suite } from 'uvu'
import * as assert from 'uvu/assert'
import { defineAiProvider, type SpeechRequest, type VideoRequest } from '../../core/index.js'
import { frameDiff, isRed, locate, mean, near } from '../helpers/frames.js'
import { lavfi, solidPng, tempDir } from '../helpers/media.js'
import { edit, renderAndDecode } from '../helpers/render.js'

// Timeline AI assets run on the renderer's `ai` engines: a registered vendor when there is one, the free local
// engines otherwise. The engines here are test plugins that make real media with ffmpeg and record their asks.
const dir = tempDir()
const white = ([r, g, b]: [number, number, number]) => r > 170 && g > 170 && b > 170

const videoAsks: VideoRequest[] = []
const redVideo = defineAiProvider({
  kind: 'ai',
  name: 'test-video-vendor',
  task: 'video',
  models: ['test-gen'],
  async run(req) {
    videoAsks.push(req)
    const out = join(dir, `gen-${videoAsks.length}.mp4`)
    await lavfi(`color=c=red:s=${req.width}x${req.height}:r=25:d=${req.duration}`, out, ['-pix_fmt', 'yuv420p'])
    return { path: out, duration: req.duration }
  },
})

const videos = suite('video with a prompt, image-to-video')
videos('without a video vendor the sandbox stand-in moves for exactly the clip, and a warning says so', async () => {
  const clip = { asset: { type: 'video', prompt: 'a lighthouse at dusk' }, start: 0, length: 2 }
  const { frames, result } = await renderAndDecode(edit([clip], { fps: 12 }))
  assert.is(result.duration, 2)
  assert.ok(
    result.warnings.some((w) => /needs an AI video provider/.test(w.message) && w.path === 'timeline.tracks[0].clips[0].asset'),
    JSON.stringify(result.warnings),
  )
  assert.ok(frameDiff(frames, 1, 22) > 2, `the picture moves (${frameDiff(frames, 1, 22).toFixed(2)})`)
  assert.not.ok(near(mean(frames, 22, 0, 0, 320, 180), [0, 0, 255], 30), 'the clip covers the blue background to the end')
})
videos('a registered vendor makes it: asked the prompt, the start image, the clip length and the aspect', async () => {
  videoAsks.length = 0
  const start = await solidPng(join(dir, 'start.png'), 64, 64, '#00ff00')
  const clips = [
    { asset: { type: 'video', prompt: 'waves', aspectRatio: '9:16', inputSrc: start }, start: 0, length: 1.5 },
    { asset: { type: 'image-to-video', src: start, prompt: 'zoom in' }, start: 1.5, length: 1.5 },
  ]
  const { frames, result } = await renderAndDecode(edit(clips, { fps: 12 }), { plugins: [redVideo] })
  assert.is(videoAsks.length, 2)
  // Clips are prepared at once, so the vendor hears them in either order.
  assert.equal(
    videoAsks.map((a) => [a.prompt, a.duration, a.width, a.height, a.model]).sort((x, y) => String(x[0]).localeCompare(String(y[0]))),
    [
      ['waves', 1.5, 180, 320, 'test-gen'],
      ['zoom in', 1.5, 320, 180, 'test-gen'],
    ],
  )
  assert.ok(
    videoAsks.every((a) => a.image?.endsWith('.png')),
    'the start image is handed over as a local file',
  )
  assert.not.ok(
    result.warnings.some((w) => /stands in/.test(w.message)),
    JSON.stringify(result.warnings),
  )
  assert.ok(locate(frames, 6, isRed).count > 320 * 180 * 0.9, "the vendor's clip fills the frame")
  assert.ok(locate(frames, 30, isRed).count > 320 * 180 * 0.9, 'the image-to-video clip too')
})
videos.run()

const speechAsks: SpeechRequest[] = []
// A 3 s tone "speaking" two words at fixed times, so captions can be checked against them exactly.
const toneVoice = defineAiProvider({
  kind: 'ai',
  name: 'test-voice-vendor',
  task: 'speech',
  models: ['test-tts'],
  async run(req) {
    speechAsks.push(req)
    const out = join(dir, `voice-${speechAsks.length}.wav`)
    await lavfi('sine=f=440:d=3', out)
    const words = [
      { text: 'Hello', start: 1, end: 1.4 },
      { text: 'there.', start: 1.4, end: 1.8 },
    ]
    return { path: out, mime: 'audio/wav', duration: 3, words }
  },
})

const voices = suite('text-to-speech on the speech engines')
voices("a vendor voice: spoken once for the clip and its caption, which follows the vendor's word times", async () => {
  const clips = [{ asset: { type: 'text-to-speech', text: 'Hello there.', voice: 'Joanna' }, start: 0, length: 'auto', alias: 'VO' }]
  const captions = { clips: [{ asset: { type: 'caption', src: 'alias://VO', font: { size: 18 } }, start: 0, length: 'end' }] }
  const { frames, result } = await renderAndDecode(edit([], { fps: 12 }, { tracks: [captions, { clips }] }), { plugins: [toneVoice] })
  assert.is(speechAsks.length, 1, 'the caption reused the voice-over instead of asking again')
  assert.equal([speechAsks[0]!.text, speechAsks[0]!.voice, speechAsks[0]!.model], ['Hello there.', 'Joanna', 'test-tts'])
  assert.is(result.duration, 3, "length auto is the vendor audio's")
  assert.ok(result.hasAudio)
  const shown = (i: number) => locate(frames, i, white).count > 20
  assert.not.ok(shown(8), 'no caption before the first word (0.67 s)')
  assert.ok(shown(15), 'the caption is up while the words are said (1.25 s)')
  assert.not.ok(shown(30), 'and gone after the last word (2.5 s)')
})
voices.run()
