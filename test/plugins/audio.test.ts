import { join } from 'node:path'
import { suite } from 'uvu'
import * as assert from 'uvu/assert'
import { createRenderer } from '../../index.js'
import { probe } from '../../kit.js'
import { decodeFrames } from '../helpers/frames.js'
import { decodeAudio, lavfi, rmsDb, tempDir } from '../helpers/media.js'
import type { Edit } from '../../index.js'

const dir = tempDir()
const renderer = createRenderer({ cacheDir: join(dir, 'cache') })
let n = 0
let tone = '',
  flashBeep = '',
  short = ''
const render = async (tracks: object[], output: object = {}, soundtrack?: unknown) => {
  const out = join(dir, `a${n++}.mp4`)
  const result = await renderer.render({ timeline: { soundtrack, tracks }, output: { size: { width: 160, height: 90 }, fps: 25, ...output } } as Edit, { out })
  return { out, result }
}
const silentTrack = (length: number) => ({ clips: [{ asset: { type: 'title', text: ' ' }, start: 0, length }] })
const audioClip = (extra: object, start = 0, length = 2) => ({ asset: { type: 'audio', src: tone, ...extra }, start, length })

const mix = suite('audio mix')
mix.before(async () => {
  tone = await lavfi('sine=frequency=1000:sample_rate=48000:duration=4', join(dir, 'tone.wav'))
  short = await lavfi('sine=frequency=1000:sample_rate=48000:duration=1', join(dir, 'short.wav'))
  // A white frame at exactly 1.0 s and a beep starting at exactly 1.0 s.
  await lavfi("color=black:s=64x36:r=25:d=3,format=yuv420p,geq=lum='if(eq(N,25),235,16)':cb=128:cr=128", join(dir, 'flash.mp4'), [
    '-c:v',
    'libx264',
    '-qp',
    '0',
  ])
  await lavfi("aevalsrc='if(between(t,1,1.1),0.5*sin(2*PI*1000*t),0)':s=48000:d=3", join(dir, 'beep.wav'))
  flashBeep = join(dir, 'flashbeep.mp4')
  await lavfi('anullsrc', flashBeep, [
    '-i',
    join(dir, 'flash.mp4'),
    '-i',
    join(dir, 'beep.wav'),
    '-map',
    '1:v',
    '-map',
    '2:a',
    '-c:v',
    'copy',
    '-c:a',
    'aac',
    '-t',
    '3',
  ])
})

mix('A/V sync: a flash and a beep at the same source time stay within one frame', async () => {
  const { out, result } = await render([{ clips: [{ asset: { type: 'video', src: flashBeep, trim: 0.2 }, start: 0.5, length: 2.5, fit: 'cover' }] }])
  const frames = await decodeFrames(out, result.width, result.height)
  let flash = -1
  for (let i = 0; i < frames.count && flash < 0; i++) if (frames.frame(i)[(45 * 160 + 80) * 4]! > 128) flash = i
  const samples = await decodeAudio(out)
  const beep = samples.findIndex((s) => Math.abs(s) > 0.05) / 48000
  assert.ok(flash > 0 && beep > 0, `flash ${flash}, beep ${beep}`)
  // The clip starts at 0.5 s, half way through frame 12: the flash may show half a frame early.
  assert.ok(Math.abs(flash / 25 - 1.3) <= 0.5 / 25 + 1e-9, `flash at ${flash / 25} s, expected 1.3 s ± half a frame`)
  assert.ok(Math.abs(beep - flash / 25) < 1 / 25, `beep at ${beep.toFixed(3)} s vs flash at ${(flash / 25).toFixed(3)} s`)
})
mix('volume 0.5 is −6 dB against volume 1', async () => {
  const full = await decodeAudio((await render([{ clips: [audioClip({ volume: 1 })] }])).out)
  const half = await decodeAudio((await render([{ clips: [audioClip({ volume: 0.5 })] }])).out)
  const diff = rmsDb(half, 0.5, 1.5) - rmsDb(full, 0.5, 1.5)
  assert.ok(Math.abs(diff + 6.02) < 0.5, `difference ${diff.toFixed(2)} dB`)
})
mix('two sources at volume 1 add up (no silent halving)', async () => {
  const one = await decodeAudio((await render([{ clips: [audioClip({})] }])).out)
  const two = await decodeAudio((await render([{ clips: [audioClip({})] }, { clips: [audioClip({})] }])).out)
  const gain = rmsDb(two, 0.5, 1.5) - rmsDb(one, 0.5, 1.5)
  assert.ok(Math.abs(gain - 6.02) < 0.6, `two in-phase sources: +${gain.toFixed(2)} dB (expected +6)`)
})
mix('fadeIn and fadeOut ramp the level', async () => {
  const s = await decodeAudio((await render([{ clips: [audioClip({ effect: 'fadeInFadeOut' }, 0, 3)] }])).out)
  const start = rmsDb(s, 0.02, 0.2),
    middle = rmsDb(s, 1.3, 1.7),
    end = rmsDb(s, 2.8, 2.98)
  assert.ok(middle - start > 10, `fade in: ${start.toFixed(1)} → ${middle.toFixed(1)} dB`)
  assert.ok(middle - end > 10, `fade out: ${middle.toFixed(1)} → ${end.toFixed(1)} dB`)
  assert.ok(rmsDb(s, 0.7, 0.9) > start + 6, 'rising through the fade')
})
mix('a volume tween changes the level over clip time', async () => {
  const s = await decodeAudio(
    (await render([{ clips: [audioClip({ volume: [{ from: 0.1, to: 1, start: 0, length: 2, interpolation: 'linear' }] }, 0, 2)] }])).out,
  )
  assert.ok(rmsDb(s, 1.7, 1.95) - rmsDb(s, 0.05, 0.3) > 10)
})
mix('speed 2 plays a 2 s sound in 1 s; trim skips into it', async () => {
  const s = await decodeAudio((await render([{ clips: [audioClip({ speed: 2, trim: 2 }, 0, 3)] }])).out)
  assert.ok(rmsDb(s, 0.2, 0.8) > -30, 'sound during the first second')
  assert.ok(rmsDb(s, 1.2, 2.8) < -60, 'silence after the trimmed 2 s played at 2×')
})
mix.run()

const soundtrack = suite('soundtrack and mute')
soundtrack("the seed's plain URL soundtrack plays for the video's length when the file is longer", async () => {
  const { out } = await render([silentTrack(2)], {}, tone)
  const p = await probe(out)
  const a = p.streams.find((s) => s.type === 'audio')!
  assert.ok(a, 'audio stream present')
  assert.ok(Math.abs((a.duration ?? 0) - 2) < 0.1, `audio lasts ${a.duration}`)
  assert.ok(rmsDb(await decodeAudio(out), 1.5, 1.9) > -30)
})
soundtrack('a soundtrack shorter than the video stops at its own end; {src, volume} form', async () => {
  const { out } = await render([silentTrack(3)], {}, { src: short, volume: 0.5 })
  const s = await decodeAudio(out)
  assert.ok(rmsDb(s, 0.2, 0.8) > -30, 'playing')
  assert.ok(rmsDb(s, 1.5, 2.8) < -60, 'silent after the 1 s file')
  assert.ok(Math.abs(s.length / 48000 - 3) < 0.1, 'padded to the video length')
})
soundtrack('output.mute drops every sound', async () => {
  const { out, result } = await render([{ clips: [audioClip({})] }], { mute: true }, tone)
  assert.is(result.hasAudio, false)
  assert.is((await probe(out)).streams.filter((s) => s.type === 'audio').length, 0)
})
soundtrack.run()
