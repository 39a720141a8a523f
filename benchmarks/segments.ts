// `npm run bench:segments`: a 2-minute 720p timeline rendered by the built CLI in 1, 2, 4 … pieces (up to the
// machine's cores) and with `--segments auto`, in the same run: wall time, × realtime, the speed-up over one piece,
// CPU-seconds per minute of output (all processes: render, decoders, encoders, audio) and peak tree PSS.
import { mkdirSync, writeFileSync } from 'node:fs'
import { availableParallelism } from 'node:os'
import { join } from 'node:path'
import { ensureDisplay } from '../core/index.js'
import { measure } from './lib/measure.js'
import { mixedEdit } from './mixed.js'

const here = import.meta.dirname
const work = join(here, '.media')
mkdirSync(work, { recursive: true })
const edit = await mixedEdit(work, 2)
edit.output = { ...edit.output, resolution: 'hd' } // 1280×720: two minutes stay a few minutes of benchmark
const seconds = 120
const file = join(work, 'segments-2min.json')
writeFileSync(file, JSON.stringify(edit))
const env = { ...process.env, DISPLAY: await ensureDisplay() }
const cli = join(here, '..', 'dist', 'adapters', 'cli', 'main.js')
const cores = availableParallelism()
const counts = [1, 2, 4, 8, 16].filter((n) => n === 1 || n <= Math.max(2, cores))

// One untimed 10 s render first: the first render of a run was ~18 % slower than the same render last (page cache,
// font and shader caches), which the one-piece row, measured first, would otherwise carry alone.
const warm = join(work, 'segments-warm-up.json')
writeFileSync(warm, JSON.stringify({ ...edit, output: { ...edit.output, range: { start: 0, length: 10 } } }))
await measure(process.execPath, [cli, 'render', warm, '-o', join(work, 'segments-warm-up.mp4'), '--segments', '1', '--quiet'], { env })

console.log(`${cores} cores; 2 min of 1280x720 @ 30 fps\n`)
console.log('pieces   wall s   x realtime   speed-up   CPU-s per output min   peak tree PSS')
let one = 0
for (const segments of [...counts, 'auto'] as const) {
  const out = join(work, `segments-${segments}.mp4`)
  const run = await measure(process.execPath, [cli, 'render', file, '-o', out, '--segments', String(segments), '--quiet'], { env })
  const cpu = [...run.cpuByRole.values()].reduce((s, c) => s + c, 0)
  if (segments === 1) one = run.wallMs
  const cells = [
    String(segments).padEnd(6),
    (run.wallMs / 1000).toFixed(1).padStart(7),
    (seconds / (run.wallMs / 1000)).toFixed(2).padStart(12),
    `${(one / run.wallMs).toFixed(2)}x`.padStart(10),
    (cpu / (seconds / 60)).toFixed(1).padStart(22),
    `${Math.round(run.peakPss / 1e6)} MB`.padStart(15),
  ]
  console.log(cells.join('  '))
}
