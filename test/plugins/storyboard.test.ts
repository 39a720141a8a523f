import { suite } from 'uvu'
import * as assert from 'uvu/assert'
import { parseScript } from '../../plugins/lib/story/script.js'
import { storyboard } from '../../plugins/lib/story/storyboard.js'
import { speechAsk } from '../../plugins/lib/audio/speech-ask.js'
import { espeakSpeechProvider, sandboxTextProvider } from '../../plugins/index.js'
import { frameDiff, locate } from '../helpers/frames.js'
import { tempDir } from '../helpers/media.js'
import { renderAndDecode } from '../helpers/render.js'

const dir = tempDir('reelforge-story-')
const signal = new AbortController().signal
const sandboxWriter = async (ask: Parameters<typeof sandboxTextProvider.run>[0] | { prompt: string }) => ({
  ...(await sandboxTextProvider.run({ ...ask, model: 'sandbox' }, { signal, workDir: dir })),
  standIn: true,
})

const script = suite('storyboard script')
script('what models add against instructions is taken off: numbering, labels, markdown, quotes, blank lines', () => {
  const text = '**Title: The Lighthouse**\n\n1. Scene 1: "Waves break on the rocks."\n- Narrator: The keeper climbs the stairs.\n\n3) Light sweeps the sea.'
  assert.equal(parseScript(text), {
    title: 'The Lighthouse',
    scenes: ['Waves break on the rocks.', 'The keeper climbs the stairs.', 'Light sweeps the sea.'],
  })
  assert.equal(parseScript('Just one line.'), { title: 'Just one line.', scenes: ['Just one line.'] })
})
script('offline, the sandbox writes the length the duration asks for, in the asked number of scenes', async () => {
  for (const [duration, scenes] of [
    [10, 2],
    [20, 4],
    [60, 8],
    [300, 8],
  ] as const) {
    const board = await storyboard({ prompt: 'a lighthouse keeper in a winter storm', duration }, sandboxWriter)
    const words = board.scenes.join(' ').split(/\s+/).length
    const asked = duration * 2.6 // the narrator's pace the script is sized for (script.ts)
    assert.ok(words >= asked * 0.8 && words <= asked * 1.2, `${duration} s: ${words} words for ${asked}`)
    assert.is(board.scenes.length, scenes, `${duration} s: scenes`)
  }
})
script.run()

const story = suite('storyboard: prompt to a narrated, captioned video, offline')
story('each scene lasts its narration: the video is exactly as long as the voice, with pictures and captions', async () => {
  const board = await storyboard({ prompt: 'a lighthouse keeper in a winter storm', duration: 12, resolution: 'preview' }, sandboxWriter)
  assert.ok(board.standIn)
  assert.ok(board.scenes.length >= 2, board.script)
  const { frames, result } = await renderAndDecode(board.edit)
  // The same voice the render used, scene by scene: its lengths add up to the video's.
  const spoken = await Promise.all(
    board.scenes.map((text) => espeakSpeechProvider.run({ ...speechAsk({ text, voice: 'Matthew' }), model: 'espeak-ng' }, { signal, workDir: dir })),
  )
  const narration = spoken.reduce((s, x) => s + x.duration, 0)
  assert.ok(Math.abs(result.duration - narration) <= board.scenes.length / 25 + 1e-6, `${result.duration} s video, ${narration} s narration`)
  assert.ok(result.hasAudio)
  assert.is(result.warnings.filter((w) => !/sandbox/.test(w.message)).length, 0, JSON.stringify(result.warnings))
  // Captions: light text on a dark box in the lower part while the first scene is spoken.
  const white = ([r, g, b]: [number, number, number]) => r > 200 && g > 200 && b > 200
  const mid = Math.round(((spoken[0]!.words[0]!.end + spoken[0]!.words.at(-1)!.start) / 2) * 25)
  assert.ok(locate(frames, mid, white, { x0: 0, y0: 200, x1: 512, y1: 288 }).count > 100, 'a caption is shown near the bottom')
  // The picture changes when the second scene starts.
  const cut = Math.round(spoken[0]!.duration * 25)
  const within = frameDiff(frames, cut - 20, cut - 8)
  const across = frameDiff(frames, cut - 8, cut + 20)
  assert.ok(across > 2 * within && across > 10, `a new picture for the next scene (${across.toFixed(1)} across the cut, ${within.toFixed(1)} within)`)
})
story.run()
