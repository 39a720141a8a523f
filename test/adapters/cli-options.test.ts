import { spawnSync } from 'node:child_process'
import { readFileSync, writeFileSync } from 'node:fs'
import { join } from 'node:path'
import { suite } from 'uvu'
import * as assert from 'uvu/assert'
import { createRenderer, type Edit } from '../../index.js'
import { probe } from '../../kit.js'
import { decodeFrames, mean, near } from '../helpers/frames.js'
import { tempDir } from '../helpers/media.js'

// The CLI run as a user runs it, in subprocesses: --version, validate, still, output overrides, merge fields and
// bulk renders from CSV, mistakes caught before any work, and a progress scale that follows the frames.

const root = new URL('../..', import.meta.url).pathname
const dir = tempDir()
const cli = (...args: string[]) => spawnSync('node_modules/.bin/tsx', ['adapters/cli/main.ts', ...args], { cwd: root, encoding: 'utf8' })
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
test('validate: 0 for a good edit; 2 with every issue and its path; nothing rendered', () => {
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
})
test('progress follows the frames: the share reported is the share of frames drawn', async () => {
  const seen: { progress: number; frame: number; frames: number }[] = []
  // A moving clip, so every frame is drawn and the render lasts long enough for several reports.
  const clip = { ...edit.timeline.tracks[0]!.clips[0]!, start: 0, length: 12, effect: 'zoomIn' }
  const long = { ...edit, timeline: { ...edit.timeline, tracks: [{ clips: [clip] }] }, output: { ...edit.output, size: { width: 640, height: 360 } } } as Edit
  await createRenderer().render(long, { out: join(dir, 'progress.mp4'), onProgress: (p) => p.stage === 'rendering' && seen.push(p) })
  assert.ok(seen.length >= 5, `${seen.length} reports`)
  for (const p of seen) assert.ok(Math.abs(100 * p.progress - (100 * p.frame) / p.frames) <= 2, JSON.stringify(p))
})
test.run()
