import { appendFileSync, readFileSync, writeFileSync } from 'node:fs'
import { join } from 'node:path'
import { suite } from 'uvu'
import * as assert from 'uvu/assert'
import { type AudioMix, buildAudioMix, ffmpegArgs, runFfmpeg } from '../../core/index.js'
import { PREMIX_ABOVE, premixSound } from '../../core/audio/premix.js'
import { childCommands } from '../helpers/children.js'
import { decodeAudio, rmsDb, tempDir, toneClips, withFfmpeg } from '../helpers/media.js'
import { createRenderer } from '../../index.js'
import { edit, renderAndDecode } from '../helpers/render.js'

// Many sounds are mixed in a process of their own before the frames, so the encoder holds one sound input however
// many clips have sound (each input it holds costs it 1–2.5 MB for the whole render).
const premix = suite('sound mixed before the frames')
const dir = tempDir()
const clips: string[] = []

premix.before(async () => {
  clips.push(...(await toneClips(dir, PREMIX_ABOVE + 1)))
})

/** The encoder as output plugins run it (picture from input 0, the mix's graph), keeping only its sound's bytes. */
async function encodedSound(mix: AudioMix, name: string): Promise<string> {
  const out = join(dir, name)
  const picture = ffmpegArgs`-v error -y -f lavfi -i color=black:size=160x90:rate=25:duration=5`
  const encode = ffmpegArgs`-filter_complex ${mix.filter} -map 0:v -map [aout] -c:v libx264 -preset ultrafast -c:a aac -b:a 128k ${out}`
  await runFfmpeg([...picture, ...mix.inputs.flat(), ...encode])
  await runFfmpeg(ffmpegArgs`-v error -y -i ${out} -map 0:a -c copy -f md5 ${out}.md5`)
  return readFileSync(`${out}.md5`, 'utf8')
}

premix('the encoder gets the same samples from the mixed file as from its own graph: the same sound, byte for byte', async () => {
  const sounds = clips.map((path, i) => ({
    source: { path, trim: 0, speed: 1, volume: 0.5, effect: 'fadeIn' as const, duration: 1 },
    start: i * 0.8,
    length: 1,
  }))
  const mix = buildAudioMix(sounds, 0, 5)!
  const mixed = await premixSound(mix, dir, new AbortController().signal)
  assert.is(mixed.inputs.length, 1, 'one input: the mixed file')
  assert.is(await encodedSound(mixed, 'premixed.mp4'), await encodedSound(mix, 'direct.mp4'))
})

premix('an ffmpeg without its WavPack encoder mixes to WAV instead: the same sound', async () => {
  const sounds = clips.map((path, i) => ({ source: { path, trim: 0, speed: 1, volume: 0.5, duration: 1 }, start: i * 0.8, length: 1 }))
  const mix = buildAudioMix(sounds, 0, 5)!
  // An ffmpeg as a trimmed build answers: no WavPack encoder, everything else as usual.
  const trimmed = `for a in "$@"; do [ "$a" = wavpack ] && { echo "Unknown encoder 'wavpack'" >&2; exit 1; }; done`
  const mixed = await withFfmpeg(dir, 'ffmpeg-without-wavpack', trimmed, () => premixSound(mix, dir, new AbortController().signal))
  assert.match(mixed.inputs[0]![1]!, /\.wav$/)
  assert.is(await encodedSound(mixed, 'premixed-wav.mp4'), await encodedSound(mix, 'direct-wav.mp4'))
})

premix('a full disk under the mix is said in words, without the scratch folder’s path', async () => {
  const sounds = clips.map((path, i) => ({ source: { path, trim: 0, speed: 1, volume: 1, duration: 1 }, start: i, length: 1 }))
  // What ffmpeg 5.1 prints when it cannot write its output file for want of space.
  const full = `for a in "$@"; do case "$a" in *sound-*) echo "[wv @ 0x55d0c1a2b3c0] $a: No space left on device" >&2; echo "Error writing trailer of $a: No space left on device" >&2; exit 1;; esac; done`
  const err: (Error & { code?: string }) | undefined = await withFfmpeg(dir, 'ffmpeg-disk-full', full, () =>
    premixSound(buildAudioMix(sounds, 0, 5)!, dir, new AbortController().signal),
  ).then(
    () => undefined,
    (e) => e,
  )
  assert.ok(err, 'the mix failed')
  assert.is(err.code, 'E_OUTPUT_FAILED')
  assert.match(err.message, /the disk is full/)
  assert.not.match(err.message, dir)
})

premix('while the sound is mixed the render reports rendering, not fetching', async () => {
  const log = join(dir, 'order.log')
  writeFileSync(log, '')
  const timeline = clips.map((src, i) => ({ asset: { type: 'video', src }, start: i, length: 1 }))
  await withFfmpeg(dir, 'ffmpeg-logs-mix', `for a in "$@"; do [ "$a" = wavpack ] && echo mix >> ${log}; done`, () =>
    createRenderer({ cacheDir: join(dir, 'cache') }).render(edit(timeline, { size: { width: 160, height: 90 } }), {
      out: join(dir, 'progress.mp4'),
      onProgress: (p) => appendFileSync(log, `${p.stage}\n`),
    }),
  )
  const lines = readFileSync(log, 'utf8').trim().split('\n')
  const mixAt = lines.indexOf('mix')
  assert.ok(mixAt > 0, `the mixer ran (${lines.slice(0, 4).join(', ')})`)
  assert.is(lines[mixAt - 1], 'rendering')
})

premix('a render cancelled before its mix starts none', async () => {
  const sounds = clips.map((path, i) => ({ source: { path, trim: 0, speed: 1, volume: 1, duration: 1 }, start: i, length: 1 }))
  const stop = new AbortController()
  stop.abort()
  const commands = await childCommands(
    premixSound(buildAudioMix(sounds, 0, 5)!, dir, stop.signal).then(
      () => assert.unreachable('mixed'),
      (e) => assert.is(e.code, 'E_CANCELLED'),
    ),
  )
  assert.equal(commands, [])
})

premix('a few sounds stay in the encoder', async () => {
  const sounds = clips.slice(0, PREMIX_ABOVE).map((path, i) => ({ source: { path, trim: 0, speed: 1, volume: 1, duration: 1 }, start: i, length: 1 }))
  const mix = buildAudioMix(sounds, 0, 4)!
  assert.is(await premixSound(mix, dir, new AbortController().signal), mix)
})

/** Counts the `-i` of the processes a render starts: the encoder's (it writes the output file) and a mixer's. */
async function renderWith(count: number) {
  const timeline = clips.slice(0, count).map((src, i) => ({ asset: { type: 'video', src }, start: i, length: 1 }))
  let rendered: Awaited<ReturnType<typeof renderAndDecode>> | undefined
  const commands = await childCommands(renderAndDecode(edit(timeline, { size: { width: 160, height: 90 } })).then((r) => (rendered = r)))
  const inputs = (cmd: string[]) => cmd.filter((a) => a === '-i').length
  const encoder = commands.find((c) => c.some((a) => a.endsWith('.mp4') && a.includes('render-')) && c.includes('-filter_complex'))
  const mixer = commands.find((c) => c.includes('wavpack'))
  return { encoderInputs: encoder ? inputs(encoder) : 0, mixerInputs: mixer ? inputs(mixer) : 0, rendered: rendered! }
}

premix('a render with more sounds than that mixes them first; the encoder opens the mix alone, and every clip is heard', async () => {
  const many = await renderWith(PREMIX_ABOVE + 1)
  assert.is(many.mixerInputs, PREMIX_ABOVE + 2, 'the mixer: a placeholder silence and each clip')
  assert.is(many.encoderInputs, 2, 'the encoder: frames and the mixed sound')
  const samples = await decodeAudio(many.rendered.path)
  for (let i = 0; i < PREMIX_ABOVE + 1; i++)
    assert.ok(rmsDb(samples, i + 0.2, i + 0.8) > -30, `clip ${i} heard (${rmsDb(samples, i + 0.2, i + 0.8).toFixed(1)} dB)`)
  const few = await renderWith(PREMIX_ABOVE)
  assert.is(few.mixerInputs, 0, 'no mixer for a few sounds')
  assert.is(few.encoderInputs, PREMIX_ABOVE + 1)
})

premix.run()
