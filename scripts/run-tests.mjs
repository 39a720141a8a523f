#!/usr/bin/env node
// Runs the uvu suite, one process per test file, and ends with one line `N passed, N failed` (uvu prints no failed
// count and exits 0 when nothing ran; both are fixed here). The files run from the compiled tree of
// scripts/compile-tests.mjs (plain node, no loader); `--source` runs them through tsx from the sources instead.
//
// Two passes: every file on the embedded SQLite store, then the /v1 service suite (test/adapters/http) again on
// PostgreSQL (REELFORGE_TEST_STORE=postgres) — the same tests against both stores, but for the media-heavy files
// whose statements the rest already issue (`SQLITE_ONLY` in scripts/test-lanes.mjs). Files run side by side on
// `--jobs` cores (default 2, env REELFORGE_TEST_JOBS), longest first, more of them while the running ones wait
// (scripts/test-schedule.mjs); each has its own Redis database, so files that flush theirs never meet. A file's
// output is printed whole when it ends (never interleaved), and the 20 slowest and 10 costliest files at the end.
//
//   node scripts/run-tests.mjs                  the whole suite (npm test)
//   node scripts/run-tests.mjs render painter   files whose path contains any of the words, SQLite only
//   node scripts/run-tests.mjs --fast           the fast lane (npm run test:fast): no services, no browser
//   node scripts/run-tests.mjs --skip fuzz,compat   everything but files whose path contains those words
//   node scripts/run-tests.mjs --save-costs scripts/test-costs.json   also refresh the committed per-file costs
import { spawn } from 'node:child_process'
import { readdirSync } from 'node:fs'
import { join } from 'node:path'
import { compileTests } from './compile-tests.mjs'
import { FAST, LONG, passes, SERIAL } from './test-lanes.mjs'
import { loadCosts, saveCosts, schedule } from './test-schedule.mjs'

const args = process.argv.slice(2)
const option = (name) => {
  const i = args.indexOf(name)
  return i < 0 ? undefined : args.splice(i, 2)[1]
}
const flag = (name) => args.includes(name) && args.splice(args.indexOf(name), 1).length > 0
const fast = flag('--fast')
/** `--save-costs scripts/test-costs.json`: also write this run's per-file figures there (the committed baseline). */
const saveTo = option('--save-costs')
const fromSource = flag('--source') || process.env.REELFORGE_TEST_FROM_SOURCE === '1'
/** `--skip fuzz,compat`: leave out files whose path contains any of these words. */
const skip = (option('--skip') ?? '').split(',').filter(Boolean)
const jobs = Math.max(1, Number(option('--jobs') ?? process.env.REELFORGE_TEST_JOBS ?? 2))
/** A file that runs longer than this is stopped and counted as failed (a hung test must not hang CI). */
const FILE_LIMIT_MS = Number(process.env.REELFORGE_TEST_FILE_LIMIT_MS ?? 25 * 60_000)

const allFiles = (dir) =>
  readdirSync(dir, { withFileTypes: true }).flatMap((e) =>
    e.isDirectory()
      ? e.name === 'helpers' || e.name === 'fixtures'
        ? []
        : allFiles(join(dir, e.name))
      : e.name.endsWith('.test.ts')
        ? [join(dir, e.name)]
        : [],
  )
const every = allFiles('test').sort()
const picked = (
  fast ? every.filter((f) => FAST.some((p) => f.startsWith(p))) : args.length ? every.filter((f) => args.some((a) => f.includes(a))) : every
).filter((f) => !skip.some((w) => f.includes(w)))
const runs = passes(picked, !(args.length || fast))
const costs = loadCosts()
for (const r of runs) Object.assign(r, { key: `${r.pass} ${r.file}`, serial: SERIAL.includes(r.file) })
const plan = schedule(runs, costs, { jobs, long: (r) => LONG.includes(r.file) })

const children = new Set()
process.once('SIGINT', () => {
  for (const c of children) {
    try {
      process.kill(-c.pid, 'SIGINT')
    } catch {}
  }
  process.exitCode = 130
})

const plain = (s) => s.replace(/\x1b\[[0-9;]*m/g, '')

/** One file in its own process group, in slot `lane`; resolves with its counts, its output and its time. */
function runFile(run, lane, extra = false) {
  const started = Date.now()
  const redis = `redis://127.0.0.1:${process.env.REELFORGE_TEST_REDIS_PORT ?? 6399}/${lane + 1}`
  // Through a shell whose `times` reports the CPU the file's whole process tree used (every process it waited
  // for: renders, ffmpeg, the browser), so the suite's cost is known per file, not only its wall time.
  const node = fromSource ? 'node_modules/.bin/tsx' : JSON.stringify(process.execPath)
  // A file started beyond `jobs` (while the others wait) runs niced: it takes idle cores, not the busy files' share.
  const script = `${extra ? 'nice -n 10 ' : ''}${node} scripts/uvu-file.mjs "$0"; s=$?; echo; echo "${CPU_MARK}"; times; exit $s`
  const child = spawn('/bin/sh', ['-c', script, fromSource ? run.file : run.file.replace(/\.ts$/, '.js')], {
    cwd: tree,
    stdio: ['ignore', 'pipe', 'pipe'],
    detached: true,
    env: { REELFORGE_TEST_REDIS_URL: redis, ...process.env, ...run.env, FORCE_COLOR: '0' },
  })
  children.add(child)
  let out = ''
  let note = ''
  const kill = (why) => {
    note ||= why
    try {
      process.kill(-child.pid, 'SIGKILL')
    } catch {}
  }
  let lingering
  const onData = (d) => {
    out += d.toString()
    // uvu prints "Duration:" last. A test that leaks a handle (a server it never closed) would keep the file
    // alive forever: count what was printed, say so, and stop the process group.
    if (!lingering && /Duration:/.test(out))
      lingering = setTimeout(() => kill('the file did not exit 30 s after its summary: a test left a handle open'), 30_000)
  }
  child.stdout.on('data', onData)
  child.stderr.on('data', onData)
  const limit = setTimeout(() => kill(`the file ran past ${FILE_LIMIT_MS / 60_000} minutes: stopped`), FILE_LIMIT_MS)
  return new Promise((resolve) => {
    child.on('close', (code) => {
      clearTimeout(lingering)
      clearTimeout(limit)
      children.delete(child)
      const [text, cpu] = splitCpu(plain(out))
      const total = Number(/Total:\s+(\d+)/.exec(text)?.[1] ?? 0)
      const passed = Number(/Passed:\s+(\d+)/.exec(text)?.[1] ?? 0)
      const skipped = Number(/Skipped:\s+(\d+)/.exec(text)?.[1] ?? 0)
      let failed = total - passed - skipped
      // A crash before uvu could count, a file that ran nothing, a leak or a time-out: the file failed.
      if (failed === 0 && (code !== 0 || total === 0 || note)) failed = 1
      resolve({ ...run, total, passed, skipped, failed, ms: Date.now() - started, cpu, text: note ? `${text}\n(${note})` : text })
    })
  })
}

const CPU_MARK = '── cpu (user, system) of the file and of what it waited for:'
/** The file's output without the shell's `times` lines, and the CPU-seconds its children used (user + system). */
function splitCpu(text) {
  const at = text.lastIndexOf(CPU_MARK)
  if (at < 0) return [text, undefined]
  const seconds = (t) => {
    const m = /(\d+)m([\d.]+)s/.exec(t)
    return m ? Number(m[1]) * 60 + Number(m[2]) : 0
  }
  const children =
    text
      .slice(at + CPU_MARK.length)
      .trim()
      .split('\n')[1] ?? ''
  const [user, system] = children.trim().split(/\s+/)
  return [text.slice(0, at).trimEnd(), seconds(user ?? '') + seconds(system ?? '')]
}

const tree = fromSource ? process.cwd() : await compileTests()
console.log(`${runs.length} test files on ${jobs} core${jobs === 1 ? '' : 's'}`)
const results = []
const wall = Date.now()
/** Runs in progress, each in a slot of its own (the slot picks its Redis database: files that flush theirs never meet). */
const running = []
await new Promise((allDone) => {
  const dispatch = () => {
    for (let run = plan.next(running); run && process.exitCode !== 130; run = plan.next(running)) {
      const slot = [...Array(running.length + 1).keys()].find((i) => !running.some((r) => r.slot === i))
      const entry = { ...run, slot }
      running.push(entry)
      const extra = running.length > jobs
      runFile(run, slot, extra).then((r) => {
        r.extra = extra
        running.splice(running.indexOf(entry), 1)
        results.push(r)
        report(r)
        dispatch()
      })
    }
    if (!running.length && (!plan.queue.length || process.exitCode === 130)) allDone()
  }
  dispatch()
})
function report(r) {
  const tag = r.failed ? 'FAIL' : 'ok'
  const head = `── ${tag} ${r.file}${r.pass === 'postgres' ? ' [PostgreSQL]' : ''}: ${r.passed} passed, ${r.failed} failed, ${(r.ms / 1000).toFixed(1)} s${r.cpu === undefined ? '' : `, ${r.cpu.toFixed(1)} CPU-s`}`
  // Passing files print one line; a failing one prints its whole output (CI logs are read for these).
  console.log(r.failed ? `${r.text.trimEnd()}\n${head}` : head)
}

const sum = results.reduce((s, r) => ({ passed: s.passed + r.passed, failed: s.failed + r.failed, skipped: s.skipped + r.skipped }), {
  passed: 0,
  failed: 0,
  skipped: 0,
})
if (runs.length === 0) sum.failed = 1 // nothing ran: a broken selection, never a green run
try {
  saveCosts(costs, results)
  if (saveTo) saveCosts(costs, results, saveTo)
} catch {}
const slowest = [...results].sort((a, b) => b.ms - a.ms).slice(0, 20)
const cpuTotal = results.reduce((s, r) => s + (r.cpu ?? 0), 0)
console.log(
  `\nslowest files (wall ${((Date.now() - wall) / 60_000).toFixed(1)} min on ${jobs} core${jobs === 1 ? '' : 's'}; CPU ${(cpuTotal / 60).toFixed(1)} min):`,
)
const cpu = (r) => (r.cpu === undefined ? '' : `${r.cpu.toFixed(1).padStart(7)} CPU-s`)
for (const r of slowest) console.log(`  ${(r.ms / 1000).toFixed(1).padStart(7)} s ${cpu(r)}  ${r.file}${r.pass === 'postgres' ? ' [PostgreSQL]' : ''}`)
const costliest = [...results].sort((a, b) => (b.cpu ?? 0) - (a.cpu ?? 0)).slice(0, 10)
console.log('\ncostliest files (CPU-seconds of the file and everything it started):')
for (const r of costliest) console.log(`  ${cpu(r)}  ${r.file}${r.pass === 'postgres' ? ' [PostgreSQL]' : ''}`)
const failedFiles = results.filter((r) => r.failed)
if (failedFiles.length) console.log(`\nfailed files:\n${failedFiles.map((r) => `  ${r.file}${r.pass === 'postgres' ? ' [PostgreSQL]' : ''}`).join('\n')}`)
if (sum.skipped) console.log(`(${sum.skipped} skipped)`)
console.log(`${sum.passed} passed, ${sum.failed} failed`)
if (process.exitCode !== 130) process.exitCode = sum.failed > 0 ? 1 : 0
