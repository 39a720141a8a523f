import { spawn } from 'node:child_process'
import { cpSync, readdirSync, readFileSync, writeFileSync } from 'node:fs'
import { basename, join } from 'node:path'
import { test } from 'uvu'
import * as assert from 'uvu/assert'
import { probe } from '../../core/index.js'
import { THUMBNAIL_AT as AT, thumbnailTimes } from '../../scripts/gallery-times.mjs'
import { runCli } from '../helpers/cli-run.js'
import { tempDir } from '../helpers/media.js'

// Every edit in examples/ renders as docs/examples.md says: `reelforge render examples/<name>.json`, with the
// free local engines for its AI assets, here written at preview size (512×288, 15 fps) to keep it short. The file
// lasts as long as the edit, has sound you can hear where the edit has some, its frames are pictures (not one
// flat colour) that change — and they are the pictures docs/gallery/<name>.png shows, so a thumbnail the renderer
// no longer draws fails here. The card template renders once per row of people.csv, as README says.

const root = new URL('../..', import.meta.url).pathname
const dir = tempDir('reelforge-examples-')
const files = readdirSync(join(root, 'examples'))
  .filter((f) => f.endsWith('.json'))
  .sort()
// A vendor key in the environment would send the AI examples to that vendor: the gallery uses the local engines.
const local = Object.fromEntries(Object.keys(process.env).flatMap((k) => (/_API_KEY$|^REELFORGE_CONFIG$/.test(k) ? [[k, '']] : [])))

// The edits as written with `output.scaleTo: "preview"` (a copy of examples/, media included): laid out at their
// own size — where the thumbnails are drawn — and written at 512×288. (`--resolution preview` would lay them out
// at 512×288, where sizes in pixels are larger.)
const copy = join(dir, 'examples')
// Copies of the files (`dereference`): in the compiled tree examples/ is a link, and a copied link would let the
// rewrites below reach the repository's own examples.
cpSync(join(root, 'examples'), copy, { recursive: true, dereference: true })
for (const f of files) {
  const edit = JSON.parse(readFileSync(join(root, 'examples', f), 'utf8'))
  // 15 fps, preview's own, where the edit has 25 (all but the GIF's 12): a frame at every thumbnail time still.
  const fps = (edit.output.fps ?? 25) === 25 ? 15 : edit.output.fps
  writeFileSync(join(copy, f), JSON.stringify({ ...edit, output: { ...edit.output, scaleTo: 'preview', fps } }))
}

type Clip = { asset: { type: string }; start: unknown; length: unknown }
type Edit = { timeline: { soundtrack?: unknown; tracks: { clips: Clip[] }[] }; output: { format: string } }
const clipsOf = (e: Edit) => e.timeline.tracks.flatMap((t) => t.clips)
/** Where the edit ends by its numbers: `undefined` when a clip's time is smart (`auto`, `end`), known only at render. */
const endOf = (e: Edit) =>
  clipsOf(e).every((c) => typeof c.start === 'number' && typeof c.length === 'number')
    ? Math.max(...clipsOf(e).map((c) => (c.start as number) + (c.length as number)))
    : undefined
const SOUNDING = new Set(['audio', 'text-to-speech'])
const hasSound = (e: Edit) => !!e.timeline.soundtrack || clipsOf(e).some((c) => SOUNDING.has(c.asset.type))
const readEdit = (name: string) => JSON.parse(readFileSync(join(root, 'examples', `${name}.json`), 'utf8')) as Edit

/**
 * One frame as 64×36 grey levels: `input` are the ffmpeg arguments that pick it, `crop` a filter before the
 * scaling. Through RGB, so a video's limited-range luma and a PNG's full-range grey read alike.
 */
function grey(input: string[], crop = ''): Promise<Uint8Array> {
  return new Promise((resolve, reject) => {
    const args = ['-v', 'error', ...input, '-frames:v', '1', '-vf', `${crop}scale=64:36:flags=area,format=rgb24,format=gray`, '-f', 'rawvideo', '-']
    const child = spawn('ffmpeg', args, { stdio: ['ignore', 'pipe', 'inherit'] })
    const chunks: Buffer[] = []
    child.stdout.on('data', (c: Buffer) => chunks.push(c))
    child.on('close', (code) => (code === 0 ? resolve(new Uint8Array(Buffer.concat(chunks))) : reject(new Error(`ffmpeg exited ${code}: ${args.join(' ')}`))))
  })
}
/** The frame at `t` seconds of a rendered file. */
const frameAt = (path: string, t: number) => grey(['-ss', t.toFixed(3), '-i', path])
/** The `i`th of the three frames side by side in the example's gallery thumbnail. */
const thumbnail = (name: string, i: number) => grey(['-i', join(root, 'docs', 'gallery', `${name}.png`)], `crop=iw/3:ih:iw*${i}/3:0,`)

const spread = (f: Uint8Array) => {
  const mean = f.reduce((a, b) => a + b, 0) / f.length
  return Math.sqrt(f.reduce((a, b) => a + (b - mean) ** 2, 0) / f.length)
}
/** Mean absolute difference of two grey frames, 0–255. */
const difference = (a: Uint8Array, b: Uint8Array) => a.reduce((s, v, i) => s + Math.abs(v - b[i]!), 0) / a.length
/** How much the picture changes over frames: the largest difference between two of them. */
const changes = (frames: Uint8Array[]) => Math.max(...frames.flatMap((a, i) => frames.slice(i + 1).map((b) => difference(a, b))))

/** The loudest sample of a file's sound, in dB below full scale (ffmpeg's volumedetect). */
function loudest(path: string): Promise<number> {
  return new Promise((resolve, reject) => {
    const child = spawn('ffmpeg', ['-v', 'info', '-nostats', '-i', path, '-vn', '-af', 'volumedetect', '-f', 'null', '-'], {
      stdio: ['ignore', 'ignore', 'pipe'],
    })
    let log = ''
    child.stderr.on('data', (c: Buffer) => (log += c))
    child.on('close', () => {
      const db = /max_volume: (-?[\d.]+|-inf) dB/.exec(log)?.[1]
      return db ? resolve(db === '-inf' ? -Infinity : Number(db)) : reject(new Error(`no volume read from ${path}: ${log.slice(-300)}`))
    })
  })
}

/** Duration and sound of a rendered file (sound you can hear); its frames are pictures, they change, and they are the gallery's. */
async function check(name: string, out: string, edit: Edit, reported: number) {
  const probed = await probe(out)
  const video = probed.streams.find((s) => s.type === 'video')
  assert.ok(video, `${name}: a picture`)
  const seconds = video!.duration ?? probed.duration!
  const frame = 1 / (video!.fps ?? 25)
  assert.ok(Math.abs(seconds - reported) <= frame + 0.01, `${name}: the file lasts ${seconds} s, the CLI said ${reported} s`)
  const end = endOf(edit)
  if (end !== undefined) assert.ok(Math.abs(seconds - end) <= frame + 0.01, `${name}: the file lasts ${seconds} s, the edit ${end} s`)
  else assert.ok(seconds > 1, `${name}: its smart clips last ${seconds} s`)
  if (hasSound(edit)) {
    assert.ok(
      probed.streams.some((s) => s.type === 'audio'),
      `${name}: the edit has sound, the file none`,
    )
    const db = await loudest(out)
    assert.ok(db > -30, `${name}: its sound is silent (loudest ${db} dB)`)
  }
  const frames = await Promise.all(thumbnailTimes(reported).map((t) => frameAt(out, t)))
  for (const [i, f] of frames.entries()) assert.ok(spread(f) > 6, `${name}: the frame at ${AT[i]! * 100} % is blank (spread ${spread(f).toFixed(1)})`)
  assert.ok(changes(frames) > 1, `${name}: the picture hardly changes (${changes(frames).toFixed(1)})`)
  for (const [i, f] of frames.entries()) {
    const off = difference(f, await thumbnail(name, i))
    assert.ok(off < 6, `${name}: the frame at ${AT[i]! * 100} % is not what docs/gallery/${name}.png shows (off by ${off.toFixed(1)}): npm run examples:thumbs`)
  }
}

for (const file of files) {
  test(`examples/${file} renders`, async () => {
    const name = basename(file, '.json')
    const edit = readEdit(name)
    const out = join(dir, `${name}.${edit.output.format}`)
    // One render at a time: reelforge processes that start together race for Xvfb's display number.
    const run = await runCli(['render', join(copy, file), '-o', out, '--quiet'], local, 240_000)
    assert.is(run.code, 0, run.output)
    const reported = /, ([\d.]+) s, \d+ frames/.exec(run.output)
    assert.ok(reported, run.output)
    await check(name, out, edit, Number(reported![1]))
  })
}

test('examples/card.json renders once per row of examples/people.csv, each card its own', async () => {
  const edit = readEdit('card')
  const args = ['render', 'examples/card.json', '--merge-file', 'examples/people.csv', '--resolution', 'preview', '--quiet']
  const run = await runCli([...args, '-o', join(dir, 'card-{{ NAME }}.mp4')], local, 240_000)
  assert.is(run.code, 0, run.output)
  const names = ['Grace Hopper', 'Katherine Johnson', 'Alan Turing']
  const middles: Uint8Array[] = []
  for (const who of names) {
    const out = join(dir, `card-${who.replace(' ', '-')}.mp4`)
    const frames = await Promise.all(thumbnailTimes(endOf(edit)!).map((t) => frameAt(out, t)))
    assert.ok(
      frames.every((f) => spread(f) > 6),
      `${who}: a blank frame`,
    )
    assert.ok(changes(frames) > 1, `${who}: the picture hardly changes`)
    assert.ok(Math.abs((await probe(out)).duration! - endOf(edit)!) < 0.1, `${who}: the card's length`)
    middles.push(frames[1]!)
  }
  // Each row's colour and words: no two cards alike.
  for (const [i, j] of [
    [0, 1],
    [1, 2],
    [0, 2],
  ])
    assert.ok(difference(middles[i!]!, middles[j!]!) > 2, `${names[i!]} and ${names[j!]} look the same`)
})

test.run()
