import { spawnSync } from 'node:child_process'
import { existsSync, readdirSync, readFileSync, writeFileSync } from 'node:fs'
import { join } from 'node:path'
import { suite } from 'uvu'
import * as assert from 'uvu/assert'
import { probe } from '../../kit.js'
import { decodeFrames, mean, near } from '../helpers/frames.js'
import { tempDir } from '../helpers/media.js'
import { cliArgs } from '../helpers/serve-child.js'

// The CLI run as a user runs it, in subprocesses: --version, validate, still (png and jpg), output overrides
// (--quality included), merge fields and bulk renders from CSV and JSON, mistakes caught before any work, and the
// printed progress following the frames.

const root = new URL('../..', import.meta.url).pathname
const dir = tempDir()
const cli = (...args: string[]) => spawnSync(process.execPath, cliArgs(...args), { cwd: root, encoding: 'utf8' })
const write = (name: string, data: object | string) => {
  const path = join(dir, name)
  writeFileSync(path, typeof data === 'string' ? data : JSON.stringify(data))
  return path
}
// Blue for the first second, then a red image clip: a frame says which second it is.
const edit = {
  merge: [{ find: 'BG', replace: '#0000ff' }],
  timeline: {
    background: '{{ BG }}',
    tracks: [
      { clips: [{ asset: { type: 'shape', shape: 'rectangle', rectangle: { width: 320, height: 180 }, fill: { color: '#ff0000' } }, start: 1, length: 1 }] },
    ],
  },
  output: { format: 'mp4', size: { width: 320, height: 180 }, fps: 25 },
}
const colourOf = async (path: string, i = 0) => mean(await decodeFrames(path, 320, 180), i, 100, 60, 220, 120)

const test = suite('reelforge CLI: options')
test('--version prints the package version', () => {
  const res = cli('--version')
  assert.is(res.status, 0)
  assert.is(res.stdout.trim(), JSON.parse(readFileSync(join(root, 'package.json'), 'utf8')).version)
})
test('validate: 0 for a good edit; 2 with every issue and its path', () => {
  assert.is(cli('validate', write('good.json', edit)).status, 0)
  const bad = structuredClone(edit) as any
  bad.timeline.tracks[0].clips.push({ asset: { type: 'image', src: 5 }, start: 0, length: 1, transition: { in: 'fadee' } })
  const res = cli('validate', write('bad.json', bad))
  assert.is(res.status, 2, res.stderr)
  assert.match(res.stderr, /timeline\.tracks\[0\]\.clips\[1\]\.transition\.in: unknown transition "fadee"; closest known: fade,/)
  assert.match(res.stderr, /timeline\.tracks\[0\]\.clips\[1\]\.asset\.src: /)
  assert.match(res.stderr, /the edit is invalid \(2 issues\)/)
})
test('still: the frame at -t of an mp4 edit, as the png asked for', async () => {
  const file = write('edit.json', edit)
  for (const [t, colour] of [
    ['0.5', [0, 0, 255]],
    ['1.5', [255, 0, 0]],
  ] as const) {
    const out = join(dir, `still-${t}.png`)
    const res = cli('still', file, '-t', t, '-o', out)
    assert.is(res.status, 0, res.stderr)
    const info = await probe(out)
    assert.equal([info.streams[0]!.codec, info.streams[0]!.width], ['png', 320])
    assert.ok(near(await colourOf(out), colour), `t ${t}: ${await colourOf(out)}`)
  }
})
test('--resolution, --fps, --format override the output; --merge fills a field', async () => {
  const out = join(dir, 'over.webm')
  const res = cli('render', write('edit.json', edit), '-o', out, '--resolution', 'preview', '--fps', '12', '--format', 'webm', '--merge', 'BG=#00ff00', '-q')
  assert.is(res.status, 0, res.stderr)
  const v = (await probe(out)).streams.find((s) => s.type === 'video')!
  assert.equal([v.codec, v.width, v.height, v.fps], ['vp9', 512, 288, 12])
  const frames = await decodeFrames(out, 512, 288)
  assert.ok(near(mean(frames, 0, 200, 100, 300, 180), [0, 255, 0], 30), 'the merged background')
})
test('--merge-file CSV: one render per row, named from the row', async () => {
  const csv = write('rows.csv', 'NAME,BG\r\n"Ada, L.",#00ff00\r\nGrace,#ffffff\r\n')
  const res = cli('render', write('edit.json', edit), '-o', join(dir, 'card-{{ NAME }}.mp4'), '--merge-file', csv, '-q')
  assert.is(res.status, 0, res.stderr)
  assert.ok(near(await colourOf(join(dir, 'card-Ada-L.mp4')), [0, 255, 0], 30))
  assert.ok(near(await colourOf(join(dir, 'card-Grace.mp4')), [255, 255, 255], 30))
})
test('mistakes are caught before any work: the extension, --y-axis, --segments (exit 64, said plainly)', () => {
  const file = write('edit.json', edit)
  const png = cli('render', file, '-o', join(dir, 'x.png'))
  assert.is(png.status, 64)
  assert.match(png.stderr, /-o \S*x\.png: the edit renders mp4, not png \(name the file \.mp4, or choose the format with --format png\)/)
  const axis = cli('render', file, '-o', join(dir, 'x.mp4'), '--y-axis', 'sideways')
  assert.is(axis.status, 64)
  assert.match(axis.stderr, /--y-axis must be down or up, not sideways/)
  const segments = cli('render', file, '-o', join(dir, 'x.mp4'), '--segments', '0')
  assert.is(segments.status, 64)
  assert.match(segments.stderr, /--segments must be auto or a whole number 1–64, not 0/)
  assert.not.ok(existsSync(join(dir, 'x.mp4')) || existsSync(join(dir, 'x.png')), 'nothing written')
})
test('--quality reaches the encoder: mov is H.264 by default, ProRes at --quality high', async () => {
  const file = write('edit.json', edit)
  const codec = async (quality: string[]) => {
    const out = join(dir, `q-${quality.join('') || 'default'}.mov`)
    const res = cli('render', file, '-o', out, '--format', 'mov', '--fps', '12', ...quality, '-q')
    assert.is(res.status, 0, res.stderr)
    return (await probe(out)).streams.find((s) => s.type === 'video')!.codec
  }
  assert.is(await codec([]), 'h264')
  assert.is(await codec(['--quality', 'high']), 'prores')
})
test('--merge repeated fills each of its fields', async () => {
  // Two fields: the background (the first second) and the rectangle's fill (the second).
  const two = structuredClone(edit) as any
  two.merge.push({ find: 'FG', replace: '#ff0000' })
  two.timeline.tracks[0].clips[0].asset.fill.color = '{{ FG }}'
  const out = join(dir, 'merged-twice.mp4')
  const res = cli('render', write('two.json', two), '-o', out, '--fps', '12', '--merge', 'BG=#00ff00', '--merge', 'FG=#ffffff', '-q')
  assert.is(res.status, 0, res.stderr)
  assert.ok(near(await colourOf(out, 6), [0, 255, 0], 30), `BG at 0.5 s: ${await colourOf(out, 6)}`)
  assert.ok(near(await colourOf(out, 18), [255, 255, 255], 30), `FG at 1.5 s: ${await colourOf(out, 18)}`)
})
test('--merge-file JSON: an array renders once per item, an object once', async () => {
  const out = tempDir()
  const array = write('rows.json', [
    { NAME: 'one', BG: '#00ff00' },
    { NAME: 'two', BG: '#ffffff' },
  ])
  const many = cli('render', write('edit.json', edit), '-o', join(out, 'a-{{ NAME }}.mp4'), '--fps', '12', '--merge-file', array, '-q')
  assert.is(many.status, 0, many.stderr)
  const object = write('row.json', { NAME: 'solo', BG: '#00ff00' })
  const one = cli('render', write('edit.json', edit), '-o', join(out, 'o-{{ NAME }}.mp4'), '--fps', '12', '--merge-file', object, '-q')
  assert.is(one.status, 0, one.stderr)
  assert.equal(readdirSync(out).sort(), ['a-one.mp4', 'a-two.mp4', 'o-solo.mp4'], 'one file per item, none more')
  assert.ok(near(await colourOf(join(out, 'a-one.mp4')), [0, 255, 0], 30))
  assert.ok(near(await colourOf(join(out, 'a-two.mp4')), [255, 255, 255], 30))
  assert.ok(near(await colourOf(join(out, 'o-solo.mp4')), [0, 255, 0], 30))
})
test('still -o frame.jpg: a JPEG of the frame at -t', async () => {
  const out = join(dir, 'still.jpg')
  const res = cli('still', write('edit.json', edit), '-t', '1.5', '-o', out)
  assert.is(res.status, 0, res.stderr)
  assert.equal([...readFileSync(out).subarray(0, 3)], [0xff, 0xd8, 0xff], 'JPEG bytes, not a PNG named .jpg')
  const info = await probe(out)
  assert.equal([info.streams[0]!.codec, info.streams[0]!.width, info.streams[0]!.height], ['mjpeg', 320, 180])
  assert.ok(near(await colourOf(out), [255, 0, 0], 30), `the red second: ${await colourOf(out)}`)
})
test('progress follows the frames: each printed `N% rendering f/F` has N ≈ 100·f/F, rising', () => {
  // A moving clip, so every frame is drawn and the render lasts long enough for several printed lines. Not a
  // TTY, so the printer writes one line per 10 %; one segment, so the frames counted are this process's.
  const clip = { ...edit.timeline.tracks[0]!.clips[0]!, start: 0, length: 30, effect: 'zoomIn' }
  const long = { ...edit, timeline: { ...edit.timeline, tracks: [{ clips: [clip] }] }, output: { ...edit.output, size: { width: 640, height: 360 } } }
  const res = cli('render', write('long.json', long), '-o', join(dir, 'progress.mp4'), '--segments', '1')
  assert.is(res.status, 0, res.stderr)
  const lines = [...res.stderr.matchAll(/^(\d+)% rendering (\d+)\/(\d+) frames/gm)].map((m) => ({
    pct: Number(m[1]),
    share: (100 * Number(m[2])) / Number(m[3]),
  }))
  assert.ok(lines.length >= 3, `${lines.length} rendering lines:\n${res.stderr}`)
  for (const l of lines) assert.ok(Math.abs(l.pct - l.share) <= 2, `${l.pct}% printed at ${l.share.toFixed(1)} % of the frames`)
  assert.ok(
    lines.some((l) => l.share > 25 && l.share < 75),
    'a line mid-render (where the old scale was furthest off)',
  )
  for (let i = 1; i < lines.length; i++) assert.ok(lines[i]!.pct > lines[i - 1]!.pct, 'rising')
})
test.run()
