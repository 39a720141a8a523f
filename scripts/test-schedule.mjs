// When each test file starts (scripts/run-tests.mjs): longest first, and by the CPU each one used last time.
//
// The suite is CPU-bound on two cores, but a third of its files mostly wait — on a browser, a restarted Redis, a
// retry's back-off — and a fixed two lanes leave a core idle while one of them runs (541 core-seconds of a 24-minute
// run). So the number of files running follows their load: up to `jobs` files always, and one or two more while the
// files running leave room for theirs (or leave half a core idle); those run niced, so they take idle cores only. A file's load is its last run's CPU-seconds over its
// seconds (`cores`); a file never measured counts as one core, so the unknown never crowds the machine.
import { mkdirSync, readFileSync, writeFileSync } from 'node:fs'
import { dirname } from 'node:path'

/** This checkout's measurements of every file it ran (written after each run). */
const LOCAL = 'node_modules/.cache/reelforge-test-costs.json'
/** A full run's measurements, committed, for a checkout that has run nothing yet (CI). Refresh: CONTRIBUTING.md. */
const BASELINE = 'scripts/test-costs.json'
/** Extra files allowed beside `jobs` when the running ones leave cores idle, and the load they may add up to. */
const EXTRA = 2
const SLACK = 0.25

const read = (path) => {
  try {
    return JSON.parse(readFileSync(path, 'utf8'))
  } catch {
    return {}
  }
}

/** `{ "<pass> <file>": { ms, cpu } }`: this checkout's own figures over the committed baseline. */
export const loadCosts = () => ({ ...read(BASELINE), ...read(LOCAL) })

/**
 * Keeps this run's figures over the file's earlier ones (`to`: the local file unless given; the local file holds only
 * what this checkout measured, so a refreshed baseline shows through). A niced extra's figures are kept only for a
 * file never measured: waiting for idle cores stretched its time, and its load would read lighter than it is.
 */
export function saveCosts(costs, results, to = LOCAL) {
  const measured = results.filter((r) => r.cpu !== undefined && (!r.extra || !costs[r.key]))
  const fresh = Object.fromEntries(measured.map((r) => [r.key, { ms: r.ms, cpu: Math.round(r.cpu * 10) / 10 }]))
  const earlier = to === LOCAL ? read(LOCAL) : costs
  mkdirSync(dirname(to), { recursive: true })
  const lines = Object.entries({ ...earlier, ...fresh })
    .sort(([a], [b]) => (a < b ? -1 : 1))
    .map(([k, v]) => `  ${JSON.stringify(k)}: ${JSON.stringify(v)}`)
  writeFileSync(to, `{\n${lines.join(',\n')}\n}\n`)
}

/**
 * A scheduler over `runs` (each `{ key, serial }`): `next(running)` says which queued run may start now, given the
 * runs in progress, or undefined. A serial run starts alone and nothing starts beside it.
 */
export function schedule(runs, costs, { jobs, long }) {
  const ms = (r) => costs[r.key]?.ms ?? (long(r) ? 600_000 : 60_000)
  const cores = (r) => (costs[r.key] ? Math.min(2, Math.max(0.05, costs[r.key].cpu / (costs[r.key].ms / 1000))) : 1)
  // Serial runs first: at the start nothing runs yet, so one takes the machine at once; anywhere else it would wait
  // for the other files to end (the compat file: minutes) with cores idle. Then longest first, so the last file to
  // end is a short one.
  const queue = [...runs].sort((a, b) => Number(b.serial) - Number(a.serial) || ms(b) - ms(a))
  return {
    queue,
    cores,
    next(running) {
      if (!queue.length || running.some((r) => r.serial)) return undefined
      if (queue[0].serial) return running.length ? undefined : queue.shift()
      if (running.length < jobs) return queue.shift()
      if (running.length >= jobs + EXTRA) return undefined
      const load = running.reduce((s, r) => s + cores(r), 0)
      const i = queue.findIndex((r) => !r.serial && load + cores(r) <= jobs + SLACK)
      if (i >= 0) return queue.splice(i, 1)[0]
      // Half a core idle and nothing small enough for it: the next file takes it, a little crowded.
      return load <= jobs - 0.5 ? queue.shift() : undefined
    },
  }
}
