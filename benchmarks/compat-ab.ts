// `npm run bench:compat-ab [-- a.json,b.json]`: every real edit of ../shared/compat rendered twice with the built
// CLI's compat runner (preview scale, draft encoding, the same stand-ins) — as a render makes its frames, and with
// `REELFORGE_DIRECT_FRAMES=off`, every frame drawn with GL — then each pair of files compared frame by frame (PSNR).
// Issue 35's frames made around the GPU must stay the GL frames' within a level or two: this checks it on real
// edits, not only on the tests' own. All 116 take ~25 minutes on 2 cores.
import { execFile } from 'node:child_process'
import { existsSync, mkdirSync, readdirSync, readFileSync, rmSync } from 'node:fs'
import { join } from 'node:path'
import { promisify } from 'node:util'
import { ffmpegArgs, runFfmpeg } from '../core/index.js'

const run = promisify(execFile)
const here = import.meta.dirname
const shared = join(here, '..', '..', 'shared', 'compat')
const work = join(here, '.media', 'compat-ab')
const cli = join(here, '..', 'dist', 'adapters', 'cli', 'main.js')
/** Below this, a pair is a difference to look at: two lossy encodes of frames a level or two apart stay above 40 dB. */
const LOOK_BELOW = 40

if (!existsSync(shared)) throw new Error(`${shared} is not present: nothing to compare`)
const only = process.argv[2] ? ['--only', process.argv[2]] : []
rmSync(work, { recursive: true, force: true })
for (const [way, env] of [
  ['cpu', {}],
  ['gl', { REELFORGE_DIRECT_FRAMES: 'off' }],
] as const) {
  const out = join(work, way)
  mkdirSync(out, { recursive: true })
  const started = Date.now()
  const { stdout } = await run(process.execPath, [cli, 'compat', shared, '--out', out, '--skip-layout', ...only], {
    env: { ...process.env, ...env },
    maxBuffer: 64 << 20,
  })
  console.log(`${way}: ${stdout.trim().split('\n').at(-2)} (${((Date.now() - started) / 1000).toFixed(0)} s)`)
}

/** The lowest per-frame PSNR of `a` against `b` and its frame: luma for video, RGB for a GIF's palette. */
async function lowest(a: string, b: string): Promise<{ db: number; frame: number }> {
  const stats = join(work, 'psnr.txt')
  const gif = a.endsWith('.gif')
  const graph = gif ? `[0:v]format=rgb24[a];[1:v]format=rgb24[b];[a][b]psnr=stats_file=${stats}` : `[0:v][1:v]psnr=stats_file=${stats}`
  await runFfmpeg(ffmpegArgs`-v error -i ${a} -i ${b} -lavfi ${graph} -f null -`)
  let low = { db: Number.POSITIVE_INFINITY, frame: 0 }
  for (const line of readFileSync(stats, 'utf8').trim().split('\n')) {
    const n = Number(/n:(\d+)/.exec(line)?.[1])
    const db = (gif ? /psnr_avg:(\S+)/ : /psnr_y:(\S+)/).exec(line)?.[1]
    const value = db === 'inf' ? Number.POSITIVE_INFINITY : Number(db)
    if (value < low.db) low = { db: value, frame: n }
  }
  return low
}

const rows: { file: string; db: number; frame: number }[] = []
for (const file of readdirSync(join(work, 'cpu')).filter((f) => /\.(mp4|mov|webm|gif)$/.test(f))) {
  const twin = join(work, 'gl', file)
  if (!existsSync(twin)) throw new Error(`${file}: rendered one way only`)
  rows.push({ file, ...(await lowest(join(work, 'cpu', file), twin)) })
}
rows.sort((a, b) => a.db - b.db)
console.log('\nlowest frame PSNR, frames made around the GPU against every frame drawn with GL (dB):')
for (const r of rows.slice(0, 10))
  console.log(r.db === Number.POSITIVE_INFINITY ? `  identical       ${r.file}` : `  ${r.db.toFixed(2).padStart(6)}  frame ${r.frame}  ${r.file}`)
const below = rows.filter((r) => r.db < LOOK_BELOW && !r.file.endsWith('.gif'))
console.log(`${rows.length} files compared; ${below.length} video files below ${LOOK_BELOW} dB (GIFs' palettes dither apart: look at them)`)
process.exitCode = below.length ? 1 : 0
