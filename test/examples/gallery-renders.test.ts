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
 * Frames as 64×36 grey levels, all from one ffmpeg (each start costs more than reading a small frame): `inputs` are
 * the arguments of each input, `picks` the filter that takes each frame (of a seeked input: its first), after
 * `split` where several come from one input.
 * Stacked one above the other and cut apart here. Through RGB, so a video's limited-range luma and a PNG's
 * full-range grey read alike.
 */
function greys(inputs: string[][], picks: string[], split = ''): Promise<Uint8Array[]> {
  const size = 64 * 36
  const chains = picks.map((pick, i) => `${pick},setpts=0,scale=64:36:flags=area,format=rgb24,format=gray[g${i}]`)
  const graph = `${split}${chains.join(';')};${picks.map((_, i) => `[g${i}]`).join('')}vstack=inputs=${picks.length}`
  return new Promise((resolve, reject) => {
    const args = ['-v', 'error', ...inputs.flat(), '-filter_complex', graph, '-frames:v', '1', '-f', 'rawvideo', '-']
    const child = spawn('ffmpeg', args, { stdio: ['ignore', 'pipe', 'inherit'] })
    const chunks: Buffer[] = []
    child.stdout.on('data', (c: Buffer) => chunks.push(c))
    child.on('close', (code) => {
      const all = new Uint8Array(Buffer.concat(chunks))
      if (code !== 0 || all.length !== size * picks.length) return reject(new Error(`ffmpeg exited ${code} with ${all.length} bytes: ${args.join(' ')}`))
      resolve(picks.map((_, i) => all.subarray(i * size, (i + 1) * size)))
    })
  })
}
/** The frames at `times` (seconds) of a rendered file: the first frame of the file seeked to each. */
const framesAt = (path: string, times: number[]) =>
  greys(
    times.map((t) => ['-ss', t.toFixed(3), '-i', path]),
    times.map((_, i) => `[${i}:v]trim=end_frame=1`),
  )
/** The three frames side by side in the example's gallery thumbnail. */
const thumbnails = (name: string) =>
  greys(
    [['-i', join(root, 'docs', 'gallery', `${name}.png`)]],
    [0, 1, 2].map((i) => `[t${i}]crop=iw/3:ih:iw*${i}/3:0`),
    '[0:v]split=3[t0][t1][t2];',
  )

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
  const frames = await framesAt(out, thumbnailTimes(reported))
  for (const [i, f] of frames.entries()) assert.ok(spread(f) > 6, `${name}: the frame at ${AT[i]! * 100} % is blank (spread ${spread(f).toFixed(1)})`)
  assert.ok(changes(frames) > 1, `${name}: the picture hardly changes (${changes(frames).toFixed(1)})`)
  const thumbs = await thumbnails(name)
  for (const [i, f] of frames.entries()) {
    const off = difference(f, thumbs[i]!)
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
    const frames = await framesAt(out, thumbnailTimes(endOf(edit)!))
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
