import { spawnSync } from 'node:child_process'
import { writeFileSync } from 'node:fs'
import { join } from 'node:path'
import { suite } from 'uvu'
import * as assert from 'uvu/assert'
import { garbledVideo, lavfi, solidPng, tempDir } from '../helpers/media.js'
import { cliArgs } from '../helpers/serve-child.js'

// `validate` checks the edit's form and names without fetching anything; `validate --probe` also fetches every
// source, reads and decodes it, and looks up every font, so a missing image or a misspelt font fails before a
// render instead of during it (or, for fonts, instead of quietly rendering in another face).

const root = new URL('../..', import.meta.url).pathname
const dir = tempDir()
const cli = (...args: string[]) => spawnSync(process.execPath, cliArgs(...args), { cwd: root, encoding: 'utf8' })
const write = (name: string, clips: object[], more: object = {}) => {
  const path = join(dir, name)
  writeFileSync(path, JSON.stringify({ timeline: { tracks: [{ clips }], ...more }, output: { format: 'mp4', size: { width: 160, height: 90 }, fps: 12 } }))
  return path
}
const image = (src: string, start = 0) => ({ asset: { type: 'image', src }, start, length: 1 })
const text = (family: string, start = 0) => ({ asset: { type: 'text', text: 'hi', font: { family } }, start, length: 1 })

const test = suite('reelforge validate --probe')
test.before(async () => {
  await solidPng(join(dir, 'red.png'), 32, 32, '#ff0000')
  await lavfi('testsrc2=size=160x90:rate=12:duration=1', join(dir, 'ok.mp4'), ['-c:v', 'libx264', '-pix_fmt', 'yuv420p'])
  await lavfi('sine=frequency=440:duration=1', join(dir, 'tone.mp3'))
  // Its header (moov) intact, so it probes; its pictures garbled from the first, so no frame decodes.
  await garbledVideo(join(dir, 'garbled.mp4'), 4, 0.02)
  writeFileSync(join(dir, 'not-an-image.png'), 'plain text, not a picture')
})

test('a good edit probes clean: every source read and decoded, every font found; exit 0', () => {
  const file = write('good.json', [
    image('red.png'),
    { asset: { type: 'video', src: 'ok.mp4' }, start: 1, length: 1 },
    { asset: { type: 'audio', src: 'tone.mp3' }, start: 0, length: 1 },
    text('Montserrat ExtraBold', 1),
  ])
  const res = cli('validate', file, '--probe')
  assert.is(res.status, 0, res.stderr)
  assert.match(res.stdout, /^valid: 1 track, 4 clips, mp4; probed: 3 sources read and decoded, 1 font found$/m)
})

test('a missing image: plain validate passes it, --probe fails naming the clip and the file; exit 2', () => {
  const file = write('missing.json', [image('nowhere.png')])
  assert.is(cli('validate', file).status, 0, 'the form is right')
  const res = cli('validate', file, '--probe')
  assert.is(res.status, 2, res.stderr)
  assert.match(res.stderr, /^ {2}timeline\.tracks\[0\]\.clips\[0\]\.asset\.src: cannot load "nowhere\.png": no such file: \S*nowhere\.png$/m)
})

test('an unreachable URL fails the probe', () => {
  // Port 9 (discard) on loopback: nothing listens, the connection is refused at once.
  const res = cli('validate', write('unreachable.json', [image('http://127.0.0.1:9/a.png')]), '--probe')
  assert.is(res.status, 2, res.stderr)
  assert.match(res.stderr, /timeline\.tracks\[0\]\.clips\[0\]\.asset\.src: cannot load "http:\/\/127\.0\.0\.1:9\/a\.png"/)
})

test('an unknown font family fails the probe (a render would substitute it); a known one with a weight passes', () => {
  const file = write('font.json', [text('Montserat'), text('Open Sans Bold', 1)])
  assert.is(cli('validate', file).status, 0)
  const res = cli('validate', file, '--probe')
  assert.is(res.status, 2, res.stderr)
  assert.match(res.stderr, /the edit does not probe clean \(1 issue\)/)
  assert.match(
    res.stderr,
    /^ {2}timeline\.tracks\[0\]\.clips\[0\]\.asset\.font\.family: font "Montserat" is not available \(a render would use "Open Sans"\)$/m,
  )
})

test('files that do not decode fail the probe: a garbled video, a text file named .png', () => {
  const video = cli('validate', write('garbled.json', [{ asset: { type: 'video', src: 'garbled.mp4' }, start: 0, length: 1 }]), '--probe')
  assert.is(video.status, 2, video.stderr)
  assert.match(video.stderr, /timeline\.tracks\[0\]\.clips\[0\]\.asset\.src: cannot decode \S*garbled\.mp4/)
  const png = cli('validate', write('text-png.json', [image('not-an-image.png')]), '--probe')
  assert.is(png.status, 2, png.stderr)
  assert.match(png.stderr, /timeline\.tracks\[0\]\.clips\[0\]\.asset\.src: not a readable image/)
})

test('a font file the edit brings must exist too', () => {
  const res = cli('validate', write('fonts.json', [text('Open Sans')], { fonts: [{ src: 'missing.ttf' }] }), '--probe')
  assert.is(res.status, 2, res.stderr)
  assert.match(res.stderr, /timeline\.fonts\[0\]\.src: cannot load "missing\.ttf"/)
})

test.run()
