import { writeFileSync } from 'node:fs'
import { availableParallelism } from 'node:os'
import { join } from 'node:path'
import { ensureDisplay, frameProcessEnv } from '../../core/index.js'
import { measure } from './measure.js'

const here = join(import.meta.dirname, '..')
export const mb = (b: number) => `${(b / 1024 / 1024).toFixed(0)} MB`

/**
 * Renders a timeline in a child (plain node on dist/) and prints realtime factor, frames/s, peak tree RSS and PSS,
 * and CPU-seconds per output minute for each kind of process. The child runs as `serve` and `worker` run their
 * render processes (`frameProcessEnv`: glibc's mmap threshold); `env` adds variables for it (A/B switches; an
 * undefined value removes one).
 */
export async function timed(label: string, edit: object, name: string, work: string, env: NodeJS.ProcessEnv = {}) {
  const editFile = join(work, `${name}.json`)
  writeFileSync(editFile, JSON.stringify(edit))
  const out = join(work, `${name}.mp4`)
  const childEnv = { ...frameProcessEnv(), DISPLAY: await ensureDisplay(), ...env }
  const run = await measure(process.execPath, [join(here, 'render-child.mjs'), editFile, out, here], { env: childEnv })
  const r = JSON.parse(run.stdout.trim().split('\n').at(-1)!)
  console.log(`\n${label}`)
  console.log(
    `  ${(r.renderMs / 1000).toFixed(1)} s for ${r.duration} s: ${(r.duration / (r.renderMs / 1000)).toFixed(2)}x realtime, ${(r.frames / (r.renderMs / 1000)).toFixed(1)} frames/s (composited ${r.drawn} of ${r.frames}, ${r.direct ?? 0} around the GPU: unchanged or drawn on the CPU), peak tree RSS ${mb(run.peakRss)}`,
  )
  console.log(`  peak RSS per kind of process: ${[...run.peakByRole].map(([role, rss]) => `${role} ${mb(rss)}`).join(', ')}`)
  console.log(
    `  at the tree's peak: ${run.atPeak.map(({ role, rss }) => `${role} ${mb(rss)}`).join(' + ')}; peak tree PSS (shared libraries counted once) ${mb(run.peakPss)}`,
  )
  const cores = availableParallelism()
  console.log(
    `  CPU seconds per kind of process: ${[...run.cpuByRole].map(([role, s]) => `${role} ${s.toFixed(1)}`).join(', ')} (of ${((cores * run.wallMs) / 1000).toFixed(0)} on ${cores} cores)`,
  )
  // The machine-independent cost: CPU-seconds per minute of output, the same on any machine for the same work.
  const perMinute = (s: number) => (s / (r.duration / 60)).toFixed(1)
  const cpu = [...run.cpuByRole.values()].reduce((a, b) => a + b, 0)
  console.log(`  CPU-seconds per output minute: ${perMinute(cpu)} (${[...run.cpuByRole].map(([role, s]) => `${role} ${perMinute(s)}`).join(', ')})`)
  return {
    run,
    result: r as {
      renderMs: number
      duration: number
      frames: number
      drawn: number
      direct: number
      bytes: number
      width: number
      height: number
      fps: number
    },
    cpu,
    out,
  }
}
