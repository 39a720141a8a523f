// `npm run bench:segments`: issue 22's timeline — the mixed minute at 1920×1080, 30 fps — rendered by the built CLI
// in 1, 2, 4 and 8 pieces and with `--segments auto`, in the same run: wall time, × realtime, the speed-up over one
// piece, CPU-seconds per minute of output (all processes, and per kind: the render processes, decoders, encoders)
// and peak tree PSS. CPU-seconds are the machine-independent cost: on a small machine the 4- and 8-piece rows
// cannot be faster, but they measure what the pieces cost a 16-core one. Three more one-piece rows force the
// frames' RGBA→YUV conversion onto the GL side, onto the CPU's WebAssembly packer and onto ffmpeg's swscale
// (REELFORGE_GPU_YUV, REELFORGE_CPU_YUV), so one run says which wins on this machine's renderer.
import { mkdirSync, writeFileSync } from 'node:fs'
import { availableParallelism } from 'node:os'
import { join } from 'node:path'
import { ensureDisplay } from '../core/index.js'
import { measure } from './lib/measure.js'
import { mixedEdit } from './mixed.js'

const here = import.meta.dirname
const work = join(here, '.media')
mkdirSync(work, { recursive: true })
const edit = await mixedEdit(work, 1)
const seconds = 60
const file = join(work, 'segments-1080p.json')
writeFileSync(file, JSON.stringify(edit))
const env = { ...process.env, DISPLAY: await ensureDisplay() }
const cli = join(here, '..', 'dist', 'adapters', 'cli', 'main.js')
const cores = availableParallelism()
// Piece counts from the command line (`tsx benchmarks/segments.ts 1 2`); `npm run bench` imports this file with
// its own word (`segments`) there, which is not a count.
const asked = process.argv
  .slice(2)
  .filter((a) => /^\d+$/.test(a))
  .map(Number)
const counts = asked.length ? asked : [1, 2, 4, 8]

// One untimed 10 s render first: the first render of a run was ~18 % slower than the same render last (page cache,
// font and shader caches), which the one-piece row, measured first, would otherwise carry alone.
const warm = join(work, 'segments-warm-up.json')
writeFileSync(warm, JSON.stringify({ ...edit, output: { ...edit.output, range: { start: 0, length: 10 } } }))
await measure(process.execPath, [cli, 'render', warm, '-o', join(work, 'segments-warm-up.mp4'), '--segments', '1', '--quiet'], { env })

console.log(`${cores} cores; 60 s of 1920x1080 @ 30 fps (the mixed minute)\n`)
console.log('pieces      wall s   x realtime   speed-up   CPU-s per output min (render + decoders + encoders + other)   peak tree PSS')
let one = 0
const perMinute = (s: number) => s / (seconds / 60)
const cases = [
  ...[...counts, 'auto'].map((n) => ({ label: String(n), segments: String(n), yuv: {} })),
  { label: '1 gpu-yuv', segments: '1', yuv: { REELFORGE_GPU_YUV: 'on' } },
  { label: '1 cpu-yuv', segments: '1', yuv: { REELFORGE_GPU_YUV: 'off' } },
  { label: '1 swscale', segments: '1', yuv: { REELFORGE_GPU_YUV: 'off', REELFORGE_CPU_YUV: 'off' } },
]
for (const { label, segments, yuv } of cases) {
  const out = join(work, `segments-${label.replace(' ', '-')}.mp4`)
  const caseEnv = { ...env, ...yuv }
  const run = await measure(process.execPath, [cli, 'render', file, '-o', out, '--segments', segments, '--quiet'], { env: caseEnv })
  const by = (test: (role: string) => boolean) => perMinute([...run.cpuByRole].filter(([r]) => test(r)).reduce((s, [, c]) => s + c, 0))
  const render = by((r) => r === 'node'),
    decoders = by((r) => r === 'ffmpeg decoder'),
    encoders = by((r) => r === 'ffmpeg encoder'),
    all = by(() => true)
  if (label === '1') one = run.wallMs
  const cells = [
    label.padEnd(9),
    (run.wallMs / 1000).toFixed(1).padStart(7),
    (seconds / (run.wallMs / 1000)).toFixed(2).padStart(12),
    `${(one / run.wallMs).toFixed(2)}x`.padStart(10),
    `${all.toFixed(1)} (${render.toFixed(1)} + ${decoders.toFixed(1)} + ${encoders.toFixed(1)} + ${(all - render - decoders - encoders).toFixed(1)})`.padStart(
      60,
    ),
    `${Math.round(run.peakPss / 1e6)} MB`.padStart(15),
  ]
  console.log(cells.join('  '))
}
