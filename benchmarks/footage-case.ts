// The footage case of `npm run bench` (issue 35): the footage minute at 1080p30, defaults, with the encoder floor
// measured in the same run on the same frames; `npm run bench -- footage` runs it alone, `footage-10min` adds the
// ten-minute render for the memory's flatness, `footage-ab` the minute with each of issue 35's changes switched off.
import { existsSync } from 'node:fs'
import { join } from 'node:path'
import { encoderFloor } from './lib/encoder-floor.js'
import { mb, timed } from './lib/timed.js'
import { footageEdit } from './footage.js'

const FRAME = { width: 1920, height: 1080 }
const mean = (xs: number[]) => xs.reduce((a, b) => a + b, 0) / xs.length
/** A last run's file that cannot be re-encoded (an interrupted run left it short): no floor before, said so. */
const unreadable = (e: Error) => void console.log(`  (no floor before the render: the last run's file: ${e.message.split('\n')[0]})`)

export async function footageCase(work: string, only?: string) {
  if (only === 'footage-ab') return footageSteps(work)
  const label = 'footage 60 s 1080p30 (2 camera-like 12 Mbit/s clips with sound, 4 12 MP photos with Ken Burns, 3 text titles, soundtrack, fades; defaults)'
  // The floor on both sides of the render: this machine's speed drifts (1.2–1.6× within a morning), and a ratio of
  // a render to a floor measured at another speed says little. Before it, the frames of the last run's file
  // (the same frames unless the code changed them; the floor's cost hardly depends on which frames they are).
  const previous = join(work, 'footage-60s.mp4')
  const before = existsSync(previous) ? await encoderFloor(previous, FRAME, 30).catch(unreadable) : undefined
  const { run, result, cpu, out } = await timed(label, await footageEdit(work, 1), 'footage-60s', work)
  const after = await encoderFloor(out, result, result.fps)
  const floors = before ? [before, after] : [after]
  const floor = { wallMs: mean(floors.map((f) => f.wallMs)), cpu: mean(floors.map((f) => f.cpu)), peakPss: Math.max(...floors.map((f) => f.peakPss)) }
  const each = floors.map((f) => `${(f.wallMs / 1000).toFixed(1)} s, ${f.cpu.toFixed(1)} CPU-s`).join(' before, ')
  const on = before ? "the last run's frames before, this run's after" : "this run's frames"
  console.log(`  encoder floor (x264 veryfast CRF 23 alone on ${on}, from raw I420): ${each}${before ? ' after' : ''}; peak PSS ${mb(floor.peakPss)}`)
  if (before)
    console.log(`  the machine's speed moved ${(100 * Math.abs(after.cpu / before.cpu - 1)).toFixed(0)} % between the two floors: ratios below use their mean`)
  console.log(
    `  render wall / floor wall ${(result.renderMs / floor.wallMs).toFixed(2)} (goal ≤ 1.3); tree CPU / floor CPU ${(cpu / floor.cpu).toFixed(2)} (goal ≤ 1.35); ${(result.duration / (result.renderMs / 1000)).toFixed(2)}x realtime (goal ≥ 1.0); peak tree PSS ${mb(run.peakPss)} (goal ≤ 600 MB)`,
  )
  if (only !== 'footage-10min' && only !== undefined) return
  const ten = await timed('the footage minute stretched to 10 minutes', await footageEdit(work, 10), 'footage-10min', work)
  console.log(`  peak PSS 10 min / 60 s: ${(ten.run.peakPss / run.peakPss).toFixed(2)} (flat means ≤ 1.10)`)
}

/** Issue 35's changes, switched off in the order they landed (their environment switches), then all on; one run. */
const STEPS: [string, NodeJS.ProcessEnv][] = [
  ['before: RGBA to swscale, every frame drawn with GL', { REELFORGE_CPU_YUV: 'off', REELFORGE_DIRECT_FRAMES: 'off' }],
  ['+ I420 packed in WebAssembly', { REELFORGE_DIRECT_FRAMES: 'off' }],
  ['+ frames a layer covers made around the GPU', { REELFORGE_DECODED_I420: 'off' }],
  ['+ BT.709 clips decoded to I420, converted in the cache', { REELFORGE_FADED_I420: 'off' }],
  ['+ fading clips faded on their way to I420', {}],
  // Every row above runs as `serve` and `worker` run renders; the CLI and the library render in the user's own
  // process, where glibc's mmap threshold is whatever the user's environment says (its ffmpegs still get it).
  ['the same in a process without the malloc setting (the CLI, the library)', { MALLOC_MMAP_THRESHOLD_: undefined }],
]

/** The footage minute once per step, then the encoder floor on the frames of the last step with every change. */
async function footageSteps(work: string) {
  const edit = await footageEdit(work, 1)
  const runs = []
  for (const [label, env] of STEPS) runs.push({ label, ...(await timed(label, edit, 'footage-ab', work, env)) })
  const last = runs.at(-2)!
  const floor = await encoderFloor(last.out, last.result, last.result.fps)
  console.log(`\nencoder floor: ${(floor.wallMs / 1000).toFixed(1)} s, ${floor.cpu.toFixed(1)} CPU-s`)
  console.log('| step | wall | realtime | CPU-s per output minute (render process + decoders + encoder) | tree CPU / floor | peak tree PSS | file |')
  console.log('|---|---|---|---|---|---|---|')
  for (const { label, run, result, cpu } of runs) {
    const role = (name: string) => (run.cpuByRole.get(name) ?? 0).toFixed(1)
    const parts = `${role('node')} + ${role('ffmpeg decoder')} + ${role('ffmpeg encoder')}`
    console.log(
      `| ${label} | ${(result.renderMs / 1000).toFixed(1)} s | ${(result.duration / (result.renderMs / 1000)).toFixed(2)}× | ${cpu.toFixed(1)} (${parts}) | ${(cpu / floor.cpu).toFixed(2)} | ${mb(run.peakPss)} | ${(result.bytes / 1e6).toFixed(2)} MB |`,
    )
  }
}
