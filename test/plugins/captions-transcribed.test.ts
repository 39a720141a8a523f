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
  const tracks = [
    { clips: [{ asset: { type: 'caption', src: 'alias://TALK', font: { size: 18 } }, start: 0, length: 'end' }] },
    { clips: [{ asset: { type: 'video', src: video }, start, length: 'auto', alias: 'TALK' }] },
  ]
  const { frames, result } = await renderAndDecode(edit([], { fps: 12 }, { background: '#000000', tracks }), { cacheDir: join(dir, 'cache') })
  assert.not.ok(
    result.warnings.some((w) => /shows nothing/.test(w.message)),
    JSON.stringify(result.warnings),
  )
  const spoken = talk.words.at(Math.floor(talk.words.length / 2))!
  const during = Math.round((start + (spoken.start + spoken.end) / 2) * 12)
  assert.ok(locate(frames, during, white).count > 30, `a caption while the clip speaks (frame ${during})`)
  assert.is(locate(frames, 5, white).count, 0, 'nothing before the clip starts')
})

test.run()
