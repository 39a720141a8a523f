#!/usr/bin/env node
// Runs the uvu suite (TypeScript through tsx) and ends with one line `N passed, N failed`.
// uvu prints Total/Passed/Skipped but no failed count, and exits 0 when nothing ran; both are fixed here.
// Two passes: the whole suite on the embedded SQLite store, then the /v1 service suite (test/adapters/http)
// again on PostgreSQL (REELFORGE_TEST_STORE=postgres) — the same tests against both stores. Arguments
// (`node scripts/run-tests.mjs render` — uvu's dir and pattern) run just that, on SQLite.
import { spawn } from 'node:child_process'

const passes =
  process.argv.length > 2
    ? [{ name: 'selected', args: process.argv.slice(2), env: {} }]
    : [
        { name: 'SQLite store: everything', args: [], env: {} },
        { name: 'PostgreSQL store: the /v1 service suite', args: ['test/adapters/http'], env: { REELFORGE_TEST_STORE: 'postgres' } },
      ]

let current
// The suite runs in its own process group (so a leak can be stopped as a whole): pass Ctrl-C on to it.
process.once('SIGINT', () => {
  try {
    if (current) process.kill(-current.pid, 'SIGINT')
  } catch {}
  process.exitCode = 130
})

function runPass({ args, env }) {
  const dirArgs = args.length ? args : ['test']
  const argv = ['node_modules/uvu/bin.js', ...dirArgs, '-i', 'helpers', '-i', 'fixtures']
  const child = spawn('node_modules/.bin/tsx', argv, { stdio: ['ignore', 'pipe', 'inherit'], detached: true, env: { ...process.env, ...env } })
  current = child
  let out = ''
  let lingering
  let leaked = false
  let pending = ''
  child.stdout.on('data', (d) => {
    process.stdout.write(d)
    out = (out + d.toString()).slice(-20000)
    // Every FAIL with the first lines of its message, to repeat at the end: CI logs are often read from the tail.
    const lines = (pending + d.toString()).split('\n')
    pending = lines.pop()
    for (const line of lines) {
      const plain = line.replace(/\x1b\[[0-9;]*m/g, '').trimEnd()
      if (/\bFAIL\b/.test(plain)) failures.push([plain.trim()])
      else if (failures.length && failures.at(-1).length < 3 && plain.trim()) failures.at(-1).push(plain.trim())
    }
    // uvu prints "Duration:" last. A test that leaks a handle (a server it never closed) would keep the run
    // alive forever: count what was printed, say so, and stop the process group.
    if (!lingering && /Duration:/.test(out)) {
      lingering = setTimeout(() => {
        console.log('(the test process did not exit 30 s after its summary: a test left a handle open; stopped)')
        leaked = true
        try {
          process.kill(-child.pid, 'SIGKILL')
        } catch {}
      }, 30_000)
      lingering.unref()
    }
  })
  return new Promise((resolve) => {
    child.on('close', (code) => {
      clearTimeout(lingering)
      // Strip colour codes before reading the totals.
      const plain = out.replace(/\x1b\[[0-9;]*m/g, '')
      const total = Number(/Total:\s+(\d+)/.exec(plain)?.[1] ?? 0)
      const passed = Number(/Passed:\s+(\d+)/.exec(plain)?.[1] ?? 0)
      const skipped = Number(/Skipped:\s+(\d+)/.exec(plain)?.[1] ?? 0)
      let failed = total - passed - skipped
      if (code !== 0 && failed === 0 && !leaked) failed = 1 // a crash before uvu could count
      if (leaked && failed === 0) failed = 1 // a leaked handle is a bug in a test: fail the run
      resolve({ total, passed, skipped, failed })
    })
  })
}

const sum = { total: 0, passed: 0, skipped: 0, failed: 0 }
/** FAIL lines seen in every pass, each with two lines of its message. */
const failures = []
for (const pass of passes) {
  if (passes.length > 1) console.log(`\n── ${pass.name} ──`)
  const r = await runPass(pass)
  if (passes.length > 1) console.log(`(${pass.name}: ${r.passed} passed, ${r.failed} failed)`)
  if (r.total === 0) r.failed = Math.max(r.failed, 1) // a pass that ran nothing is a broken pass
  for (const k of Object.keys(sum)) sum[k] += r[k]
  if (process.exitCode === 130) break
}
if (failures.length) console.log(`\nfailed:\n${failures.map((f) => `  ${f.join('\n    ')}`).join('\n')}`)
if (sum.skipped) console.log(`(${sum.skipped} skipped)`)
console.log(`${sum.passed} passed, ${sum.failed} failed`)
if (process.exitCode !== 130) process.exitCode = sum.failed > 0 || sum.total === 0 ? 1 : 0
