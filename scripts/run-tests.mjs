#!/usr/bin/env node
// Runs the uvu suite (TypeScript through tsx), one process per test file, and ends with one line
// `N passed, N failed` (uvu prints no failed count and exits 0 when nothing ran; both are fixed here).
//
// Two passes: every file on the embedded SQLite store, then the /v1 service suite (test/adapters/http) again on
// PostgreSQL (REELFORGE_TEST_STORE=postgres) — the same tests against both stores. Files run in `--jobs` lanes
// (default 2, env REELFORGE_TEST_JOBS), longest first by the last run's times; each lane has its own Redis
// database, so files that flush theirs never meet. A file's output is printed whole when it ends (lanes never
// interleave lines), and the 20 slowest files are listed at the end.
//
//   node scripts/run-tests.mjs                  the whole suite (npm test)
//   node scripts/run-tests.mjs render painter   files whose path contains any of the words, SQLite only
//   node scripts/run-tests.mjs --fast           the fast lane (npm run test:fast): no services, no browser
//   node scripts/run-tests.mjs --skip fuzz,compat   everything but files whose path contains those words
import { spawn } from 'node:child_process'
import { mkdirSync, readdirSync, readFileSync, writeFileSync } from 'node:fs'
import { join } from 'node:path'
import { FAST, LONG, SERIAL } from './test-lanes.mjs'

const args = process.argv.slice(2)
const option = (name) => {
  const i = args.indexOf(name)
  return i < 0 ? undefined : args.splice(i, 2)[1]
}
const fast = args.includes('--fast') && args.splice(args.indexOf('--fast'), 1)
/** `--skip fuzz,compat`: leave out files whose path contains any of these words. */
const skip = (option('--skip') ?? '').split(',').filter(Boolean)
const jobs = Math.max(1, Number(option('--jobs') ?? process.env.REELFORGE_TEST_JOBS ?? 2))
/** A file that runs longer than this is stopped and counted as failed (a hung test must not hang CI). */
const FILE_LIMIT_MS = Number(process.env.REELFORGE_TEST_FILE_LIMIT_MS ?? 25 * 60_000)
const TIMES = 'node_modules/.cache/reelforge-test-times.json'

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
const runs = [
  ...picked.map((file) => ({ file, pass: 'sqlite', env: {} })),
  ...(args.length || fast
    ? []
    : picked.filter((f) => f.startsWith('test/adapters/http/')).map((file) => ({ file, pass: 'postgres', env: { REELFORGE_TEST_STORE: 'postgres' } }))),
]
let times = {}
try {
  times = JSON.parse(readFileSync(TIMES, 'utf8'))
} catch {}
const key = (r) => `${r.pass} ${r.file}`
// Longest first, so the last file to end is a short one; unknown files count as long (they may be).
const expected = (r) => times[key(r)] ?? (LONG.includes(r.file) ? 600_000 : 60_000)
// SERIAL files first: at the start nothing runs yet, so one takes the machine at once. Anywhere else it would wait
// for the other lane's current file to end (the compat file: 9 minutes) with its own lane idle.
const serialFirst = (r) => (SERIAL.includes(r.file) ? 0 : 1)
runs.sort((a, b) => serialFirst(a) - serialFirst(b) || expected(b) - expected(a))

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

/** One file in its own process group, in lane `lane`; resolves with its counts, its output and its time. */
function runFile(run, lane) {
  const started = Date.now()
  const redis = `redis://127.0.0.1:${process.env.REELFORGE_TEST_REDIS_PORT ?? 6399}/${lane + 1}`
  // Through a shell whose `times` reports the CPU the file's whole process tree used (every process it waited
  // for: renders, ffmpeg, the browser), so the suite's cost is known per file, not only its wall time.
  const script = `node_modules/.bin/tsx scripts/uvu-file.mjs "$0"; s=$?; echo; echo "${CPU_MARK}"; times; exit $s`
  const child = spawn('/bin/sh', ['-c', script, run.file], {
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

const results = []
const queue = [...runs]
const wall = Date.now()
/**
 * A lock the lanes share: an ordinary file holds it shared, a SERIAL file alone (it waits for the files running in
 * the other lanes to end, and they wait for it): such files rebuild what others read (dist/) or measure the machine.
 */
const lock = { shared: 0, exclusive: false, waiting: [] }
const wake = () => lock.waiting.splice(0).forEach((w) => w())
async function withLock(alone, fn) {
  while (lock.exclusive || (alone && lock.shared)) await new Promise((r) => lock.waiting.push(r))
  if (alone) lock.exclusive = true
  else lock.shared++
  try {
    return await fn()
  } finally {
    if (alone) lock.exclusive = false
    else lock.shared--
    wake()
  }
}
async function lane(n) {
  for (let run = queue.shift(); run && process.exitCode !== 130; run = queue.shift()) {
    const r = await withLock(SERIAL.includes(run.file), () => runFile(run, n))
    results.push(r)
    const tag = r.failed ? 'FAIL' : 'ok'
    const head = `── ${tag} ${r.file}${r.pass === 'postgres' ? ' [PostgreSQL]' : ''}: ${r.passed} passed, ${r.failed} failed, ${(r.ms / 1000).toFixed(1)} s${r.cpu === undefined ? '' : `, ${r.cpu.toFixed(1)} CPU-s`}`
    // Passing files print one line; a failing one prints its whole output (CI logs are read for these).
    console.log(r.failed ? `${r.text.trimEnd()}\n${head}` : head)
  }
}
console.log(`${runs.length} test files in ${jobs} lane${jobs === 1 ? '' : 's'}`)
await Promise.all(Array.from({ length: Math.min(jobs, runs.length) }, (_, i) => lane(i)))

const sum = results.reduce((s, r) => ({ passed: s.passed + r.passed, failed: s.failed + r.failed, skipped: s.skipped + r.skipped }), {
  passed: 0,
  failed: 0,
  skipped: 0,
})
if (runs.length === 0) sum.failed = 1 // nothing ran: a broken selection, never a green run
try {
  mkdirSync('node_modules/.cache', { recursive: true })
  writeFileSync(TIMES, JSON.stringify({ ...times, ...Object.fromEntries(results.map((r) => [key(r), r.ms])) }))
} catch {}
const slowest = [...results].sort((a, b) => b.ms - a.ms).slice(0, 20)
const cpuTotal = results.reduce((s, r) => s + (r.cpu ?? 0), 0)
console.log(
  `\nslowest files (wall ${((Date.now() - wall) / 60_000).toFixed(1)} min in ${jobs} lane${jobs === 1 ? '' : 's'}; CPU ${(cpuTotal / 60).toFixed(1)} min):`,
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
