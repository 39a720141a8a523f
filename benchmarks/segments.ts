// `npm run bench:segments`: a 2-minute timeline rendered in one piece and as 2 time segments in 2 processes
// (joined without re-encoding), by the built CLI, in the same run; prints both wall times and the ratio.
import { mkdirSync, writeFileSync } from 'node:fs'
import { join } from 'node:path'
import { ensureDisplay } from '../core/index.js'
import { measure } from './lib/measure.js'
import { mixedEdit } from './mixed.js'

const here = import.meta.dirname
const work = join(here, '.media')
mkdirSync(work, { recursive: true })
const edit = await mixedEdit(work, 2)
edit.output = { ...edit.output, resolution: 'hd' } // 1280×720: two minutes stay a few minutes of benchmark
const file = join(work, 'segments-2min.json')
writeFileSync(file, JSON.stringify(edit))
const env = { ...process.env, DISPLAY: await ensureDisplay() }
const cli = join(here, '..', 'dist', 'adapters', 'cli', 'main.js')
const mb = (b: number) => `${Math.round(b / 1e6)} MB`

const results: Record<number, number> = {}
for (const segments of [1, 2]) {
  const run = await measure(process.execPath, [cli, 'render', file, '-o', join(work, `segments-${segments}.mp4`), '--segments', String(segments), '--quiet'], {
    env,
  })
  results[segments] = run.wallMs
  console.log(
    `${segments} segment${segments === 1 ? '' : 's'}: ${(run.wallMs / 1000).toFixed(1)} s wall, peak tree RSS ${mb(run.peakRss)}\n${run.stdout.trim()}`,
  )
}
console.log(`\n2 segments / 1: ${(results[2]! / results[1]!).toFixed(2)}x the wall time (${(results[1]! / results[2]!).toFixed(2)}x faster)`)
