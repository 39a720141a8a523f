import { writeFileSync } from 'node:fs'
import { join } from 'node:path'
import { suite } from 'uvu'
import * as assert from 'uvu/assert'
import type { AiAsk, PrepareContext } from '../../core/index.js'
import { espeakSpeechProvider } from '../../plugins/providers/ai/espeak-speech.js'
import { espeakWordTimes } from '../../plugins/lib/audio/espeak-words.js'
import { speak } from '../../plugins/lib/audio/speech.js'
import { loadCues } from '../../plugins/lib/text/cues.js'
import { parseSubtitles, parseTtml } from '../../plugins/lib/text/subtitles.js'
import { frameDiff, isRed, locate, luma } from '../helpers/frames.js'
import { decodeAudio, rmsDb, solidPng, tempDir } from '../helpers/media.js'
import { edit, renderAndDecode } from '../helpers/render.js'

const dir = tempDir()
const white = ([r, g, b]: [number, number, number]) => r > 170 && g > 170 && b > 170
const SRT = `1
00:00:00,200 --> 00:00:01,000
First cue

2
00:00:01,500 --> 00:00:02,500
Second <i>cue</i>
two lines
`
const VTT = `WEBVTT

NOTE a comment

00:00.200 --> 00:01.000 align:start
First cue
`

const parse = suite('subtitle parsing')
parse('SRT and WebVTT: times, multi-line text, markup stripped, notes ignored; TTML paragraphs', () => {
  assert.equal(parseSubtitles(SRT), [
    { start: 0.2, end: 1, text: 'First cue' },
    { start: 1.5, end: 2.5, text: 'Second cue\ntwo lines' },
  ])
  assert.equal(parseSubtitles(VTT), [{ start: 0.2, end: 1, text: 'First cue' }])
  const ttml =
    '<tt xmlns="http://www.w3.org/ns/ttml"><body><div><p begin="00:00:01.000" end="00:00:02.500">Hi<br/>there &amp; you</p><p begin="3s" dur="500ms">Bye</p></div></body></tt>'
  assert.equal(parseTtml(ttml), [
    { start: 1, end: 2.5, text: 'Hi\nthere & you' },
    { start: 3, end: 3.5, text: 'Bye' },
  ])
})
parse.run()

const captions = suite('caption and rich-caption')
captions('caption: each cue shows only during its time, near the bottom, on its background', async () => {
  const srt = join(dir, 'subs.srt')
  writeFileSync(srt, SRT)
  const { frames } = await renderAndDecode(
    edit([{ asset: { type: 'caption', src: srt, font: { size: 20 }, background: { color: '#000000', padding: 6 } }, start: 0, length: 3 }], { fps: 25 }),
  )
  const text = (i: number) => locate(frames, i, white)
  assert.is(text(2).count, 0, 'nothing before the first cue (t = 0.08)')
  const first = text(15)
  assert.ok(first.count > 50, 'first cue shown at t = 0.6')
  assert.ok(first.minY > 120, `near the bottom (y ${first.minY}..${first.maxY})`)
  assert.is(text(30).count, 0, 'gap between cues (t = 1.2)')
  const second = text(50)
  assert.ok(second.maxY - second.minY > first.maxY - first.minY + 15, 'the second cue has two lines')
  const dark = locate(frames, 15, (c) => luma(c) < 20, { x0: 0, y0: 100, x1: 320, y1: 180 })
  assert.ok(dark.minX < first.minX - 4 && dark.maxX > first.maxX + 4, 'the background pads the text')
  assert.is(text(70).count, 0, 'gone after the last cue')
})
captions('rich-caption highlight: the word being spoken takes the active colour, the others keep the font colour', async () => {
  const srt = join(dir, 'words.srt')
  writeFileSync(srt, '1\n00:00:00,000 --> 00:00:02,000\nleft right\n')
  const asset = {
    type: 'rich-caption',
    src: srt,
    font: { size: 40, color: '#ffffff' },
    active: { font: { color: '#00ff00' } },
    animation: { style: 'highlight' },
  }
  const { frames } = await renderAndDecode(edit([{ asset, start: 0, length: 2 }], { fps: 25 }))
  const green = (i: number) => locate(frames, i, ([r, g, b]) => g > 150 && r < 100 && b < 100)
  const whites = (i: number) => locate(frames, i, white)
  // "left " and "right" share the 2 s by length: "left" is spoken first, "right" last.
  assert.ok(green(5).count > 50 && whites(5).count > 50, 'one word lit, one not')
  assert.ok(green(5).x < whites(5).x, 'early: the left word is lit')
  assert.ok(green(45).x > whites(45).x, 'late: the right word is lit')
})
captions('caption from alias:// to a text-to-speech clip shows its sentences in order while it speaks', async () => {
  const clips = [
    {
      asset: { type: 'text-to-speech', text: 'One sentence here. And then a second, longer sentence to finish.', voice: 'Joanna' },
      start: 0,
      length: 'auto',
      alias: 'VO',
    },
  ]
  const captionTrack = { clips: [{ asset: { type: 'caption', src: 'alias://VO', font: { size: 18 } }, start: 0, length: 'end' }] }
  const { frames, result } = await renderAndDecode(edit([], { fps: 25 }, { tracks: [captionTrack, { clips }] }))
  assert.ok(result.hasAudio, 'the speech is in the mix')
  assert.ok(result.duration > 2, `length auto follows the speech (${result.duration} s)`)
  // Captions follow the words as espeak says them: from the first word to the last, not over the silence after.
  const shown = Array.from({ length: frames.count }, (_, i) => i).filter((i) => locate(frames, i, white).count > 30)
  assert.ok(shown[0]! <= 0.6 * 25, `the first caption comes with the first word (frame ${shown[0]})`)
  assert.ok(shown.at(-1)! >= frames.count - 0.8 * 25, `the last one stays to the last word (frame ${shown.at(-1)} of ${frames.count})`)
  const early = locate(frames, shown[0]! + 3, white),
    late = locate(frames, shown.at(-1)! - 3, white)
  assert.ok(late.maxX - late.minX > early.maxX - early.minX, 'the longer second sentence comes later')
})
captions('cues of a text-to-speech clip are timed by the words espeak says, moved by the clip offset', async () => {
  const text = 'One sentence here. And then a second, longer sentence to finish.'
  const ctx = {
    path: 'timeline.tracks[0].clips[0]',
    signal: new AbortController().signal,
    warn: () => {},
    alias: () => ({ asset: { type: 'text-to-speech', text, voice: 'Joanna' }, offset: 1 }),
    runAi: async (_task: 'speech', ask: AiAsk<'speech'>) => ({
      ...(await espeakSpeechProvider.run({ ...ask, model: 'espeak-ng' }, { signal: new AbortController().signal, workDir: dir })),
      standIn: false,
    }),
  } as unknown as PrepareContext
  const cues = await loadCues('alias://VO', ctx)
  const speech = await speak(text, { voice: 'Joanna' })
  const words = await espeakWordTimes(text, speech.voice, speech.rate)
  assert.ok(cues.length >= 2, JSON.stringify(cues))
  assert.ok(Math.abs(cues[0]!.start - (1 + words[0]!.start)) < 1e-6, 'the first cue starts with the first word')
  assert.ok(Math.abs(cues.at(-1)!.end - (1 + words.at(-1)!.end)) < 1e-6, 'the last ends with the last word')
  assert.ok(cues.at(-1)!.end < 1 + speech.duration - 0.01, 'not over the silence after it')
  assert.ok(
    cues.every((c) => !c.text.includes('\n')),
    'one paragraph per cue: the caption wraps it to its own box',
  )
})
captions('a caption of an image clip (no sound to transcribe) renders nothing and says why', async () => {
  const png = await solidPng(join(dir, 'p.png'), 32, 32, '#ff0000')
  const { result } = await renderAndDecode(
    edit(
      [],
      { fps: 12 },
      {
        tracks: [
          { clips: [{ asset: { type: 'rich-caption', src: 'alias://PIC' }, start: 0, length: 'end' }] },
          { clips: [{ asset: { type: 'image', src: png }, start: 0, length: 1, alias: 'PIC' }] },
        ],
      },
    ),
  )
  assert.ok(
    result.warnings.some((w) => /no sound to transcribe/.test(w.message) && w.path === 'timeline.tracks[0].clips[0].asset'),
    JSON.stringify(result.warnings),
  )
})
captions.run()

const speech = suite('speech and the other AI forms')
speech('text-to-speech speaks with the local engine: audible, as long as its words, with volume and speed', async () => {
  const out = await renderAndDecode(
    edit([{ asset: { type: 'text-to-speech', text: 'Hello from reelforge, speaking locally.', voice: 'Brian', volume: 0.5 }, start: 0, length: 'auto' }], {
      fps: 12,
    }),
  )
  const samples = await decodeAudio(out.path)
  assert.ok(out.result.duration > 1 && out.result.duration < 6, `duration ${out.result.duration}`)
  assert.ok(rmsDb(samples, 0.2, out.result.duration - 0.2) > -40, 'audible speech')
  const fast = await renderAndDecode(
    edit([{ asset: { type: 'text-to-speech', text: 'Hello from reelforge, speaking locally.', voice: 'Brian', speed: 2 }, start: 0, length: 'auto' }], {
      fps: 12,
    }),
  )
  assert.ok(Math.abs(fast.result.duration - out.result.duration / 2) < 0.2, `speed 2 halves it: ${fast.result.duration}`)
})
speech('audio with prompt + voice is speech; a prompt without a voice (music) is silent with a warning', async () => {
  const { result } = await renderAndDecode(
    edit(
      [
        { asset: { type: 'audio', prompt: 'Spoken through the audio asset.', voice: 'Amy' }, start: 0, length: 'auto' },
        { asset: { type: 'audio', prompt: 'calm piano' }, start: 0, length: 1 },
      ],
      { fps: 12 },
      {},
    ),
  )
  assert.ok(result.hasAudio)
  assert.ok(result.warnings.some((w) => w.path === 'timeline.tracks[0].clips[1].asset' && /music/.test(w.message)))
})
speech('image-to-video: the whole image set in motion by the sandbox stand-in, said in a warning; html5 renders statically', async () => {
  const png = await solidPng(join(dir, 'marked.png'), 320, 180, '#ff0000', { color: '#00ff00', size: 60 })
  const { frames, result } = await renderAndDecode(
    edit(
      [
        { asset: { type: 'image-to-video', src: png, prompt: 'orbit' }, start: 0, length: 2 },
        {
          asset: { type: 'html5', html: '<div style="color:#ffffff;font-size:40px">Static</div>', js: 'gsap.to("div", {x: 100})', css: '@keyframes x {}' },
          start: 2,
          length: 1,
        },
      ],
      { fps: 25 },
    ),
  )
  const green = ([r, g, b]: [number, number, number]) => g > 150 && r < 100 && b < 100
  // The sandbox clip shows the image entire (fitted inside 86 % of the frame), so its corner marker is in view.
  assert.ok(locate(frames, 0, green).count > 500, `the image's marker is in view (${locate(frames, 0, green).count} px)`)
  assert.ok(locate(frames, 0, isRed).count > 10_000, 'and the image around it')
  assert.ok(frameDiff(frames, 0, 49) > 1, `it moves (${frameDiff(frames, 0, 49).toFixed(2)})`)
  assert.ok(
    result.warnings.some((w) => /video generation needs an AI video provider/.test(w.message)),
    JSON.stringify(result.warnings),
  )
  assert.ok(locate(frames, 62, white).count > 100, 'html5 text drawn')
  assert.ok(result.warnings.some((w) => /scripts are not run/.test(w.message)) && result.warnings.some((w) => /CSS animations/.test(w.message)))
})
speech('video with only a prompt: the sandbox clip stands in for exactly the clip, with a warning', async () => {
  const { result } = await renderAndDecode(edit([{ asset: { type: 'video', prompt: 'a lighthouse at dusk' }, start: 0, length: 1 }], { fps: 12 }))
  assert.is(result.frames, 12)
  assert.ok(result.warnings.some((w) => /video generation/.test(w.message)))
})
speech.run()
