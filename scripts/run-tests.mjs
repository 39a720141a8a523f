#!/usr/bin/env node
// Runs the uvu suite (TypeScript through tsx) and ends with one line `N passed, N failed`.
// uvu prints Total/Passed/Skipped but no failed count, and exits 0 when nothing ran; both are fixed here.
import { spawn } from 'node:child_process'

const args = ['node_modules/uvu/bin.js', 'test', ...process.argv.slice(2), '-i', 'helpers', '-i', 'fixtures']
const child = spawn('node_modules/.bin/tsx', args, { stdio: ['ignore', 'pipe', 'inherit'], detached: true })
let out = ''
let lingering
child.stdout.on('data', (d) => {
  process.stdout.write(d)
  out = (out + d.toString()).slice(-20000)
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
let leaked = false
child.on('close', (code) => {
  // Strip colour codes before reading the totals.
  const plain = out.replace(/\x1b\[[0-9;]*m/g, '')
  const total = Number(/Total:\s+(\d+)/.exec(plain)?.[1] ?? 0)
  const passed = Number(/Passed:\s+(\d+)/.exec(plain)?.[1] ?? 0)
  const skipped = Number(/Skipped:\s+(\d+)/.exec(plain)?.[1] ?? 0)
  let failed = total - passed - skipped
  if (code !== 0 && failed === 0 && !leaked) failed = 1 // a crash before uvu could count
  if (leaked && failed === 0) failed = 1 // a leaked handle is a bug in a test: fail the run
  if (skipped) console.log(`(${skipped} skipped)`)
  console.log(`${passed} passed, ${failed} failed`)
  clearTimeout(lingering)
  process.exitCode = failed > 0 || total === 0 || (code !== 0 && !leaked) ? 1 : 0
})
// The suite runs in its own process group (so a leak can be stopped as a whole): pass Ctrl-C on to it.
process.once('SIGINT', () => {
  try {
    process.kill(-child.pid, 'SIGINT')
  } catch {}
  process.exitCode = 130
})
