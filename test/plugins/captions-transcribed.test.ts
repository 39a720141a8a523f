import { readdir, writeFile } from 'node:fs/promises'
import { join } from 'node:path'
import { test } from 'uvu'
import * as assert from 'uvu/assert'
import { locate } from '../helpers/frames.js'
import { tempDir } from '../helpers/media.js'
import { edit, renderAndDecode } from '../helpers/render.js'
import { espeakSpeech, videoWithSound } from '../helpers/transcription.js'

// A caption pointing at a video clip's sound (`alias://`) shows what is said there, when it is said: the
// renderer transcribes the clip with the local engine (PocketSphinx) and keeps the clip's own timing.

const dir = tempDir('reelforge-captions-stt-')
const white = ([r, g, b]: [number, number, number]) => r > 170 && g > 170 && b > 170

test('alias:// to a talking video: captions appear while it speaks, offset by where the clip starts', async () => {
  const talk = await espeakSpeech(dir, 'talk', 'Seven boats sailed out of the harbour this morning.', 'en-us+klatt', 175)
  const video = await videoWithSound(talk.path, join(dir, 'talk.mp4'))
  const start = 1
  const clipEnd = start + talk.words.at(-1)!.end
  const tracks = [
    { clips: [{ asset: { type: 'caption', src: 'alias://TALK', font: { size: 18 } }, start: 0, length: 'end' }] },
    { clips: [{ asset: { type: 'video', src: video }, start, length: 'auto', alias: 'TALK' }] },
    // A black panel under everything keeps the timeline going 1.5 s after the clip, where no caption belongs.
    {
      clips: [
        { asset: { type: 'shape', shape: 'rectangle', rectangle: { width: 8, height: 8 }, fill: { color: '#000000' } }, start: 0, length: clipEnd + 1.5 },
      ],
    },
  ]
  const cacheDir = join(dir, 'cache')
  const e = edit([], { fps: 12 }, { background: '#000000', tracks })
  const { frames, result } = await renderAndDecode(e, { cacheDir })
  assert.not.ok(
    result.warnings.some((w) => /shows nothing/.test(w.message)),
    JSON.stringify(result.warnings),
  )
  const frameOf = (t: number) => Math.round((start + t) * 12)
  // The first, middle and last words: a caption is on screen while each is said.
  for (const word of [talk.words[0]!, talk.words.at(Math.floor(talk.words.length / 2))!, talk.words.at(-1)!]) {
    const at = frameOf((word.start + word.end) / 2)
    assert.ok(locate(frames, at, white).count > 30, `a caption while "${word.text}" is said (frame ${at})`)
  }
  assert.is(locate(frames, 5, white).count, 0, 'nothing before the clip starts')
  const after = Math.round((clipEnd + 1) * 12)
  assert.is(locate(frames, after, white).count, 0, `nothing once the clip has ended (frame ${after})`)

  // The transcript is cached by the file's content: emptied on disk, the next render of the same clip reads the
  // cache (no engine run) and shows nothing — proof that the cache, not a fresh transcription, was used.
  const cached = (await readdir(join(cacheDir, 'transcripts'))).filter((f) => f.endsWith('.json'))
  assert.is(cached.length, 1, 'one transcript cached')
  await writeFile(join(cacheDir, 'transcripts', cached[0]!), '[]')
  const again = await renderAndDecode(e, { cacheDir })
  const mid = frameOf((talk.words[0]!.start + talk.words[0]!.end) / 2)
  assert.is(locate(again.frames, mid, white).count, 0, 'the cached (emptied) transcript was used')
})

test('rich-caption with alias:// to a talking video shows the words while they are said', async () => {
  const talk = await espeakSpeech(dir, 'rich', 'Seven boats sailed out of the harbour this morning.', 'en-us+klatt', 175)
  const video = await videoWithSound(talk.path, join(dir, 'rich.mp4'))
  const tracks = [
    { clips: [{ asset: { type: 'rich-caption', src: 'alias://TALK', font: { size: 18, color: '#ffffff' } }, start: 0, length: 'end' }] },
    { clips: [{ asset: { type: 'video', src: video }, start: 0.5, length: 'auto', alias: 'TALK' }] },
  ]
  const { frames } = await renderAndDecode(edit([], { fps: 12 }, { background: '#000000', tracks }), { cacheDir: join(dir, 'rich-cache') })
  const word = talk.words.at(Math.floor(talk.words.length / 2))!
  const at = Math.round((0.5 + (word.start + word.end) / 2) * 12)
  assert.ok(locate(frames, at, white).count > 30, `rich caption while "${word.text}" is said (frame ${at})`)
})

test.run()
