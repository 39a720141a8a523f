#!/usr/bin/env node
// Runs the uvu suite (TypeScript through tsx) and ends with one line `N passed, N failed`.
// uvu prints Total/Passed/Skipped but no failed count, and exits 0 when nothing ran; both are fixed here.
import { spawn } from 'node:child_process'

const args = ['node_modules/uvu/bin.js', 'test', ...process.argv.slice(2), '-i', 'helpers', '-i', 'fixtures']
const child = spawn('node_modules/.bin/tsx', args, { stdio: ['ignore', 'pipe', 'inherit'] })
let out = ''
child.stdout.on('data', (d) => {
  process.stdout.write(d)
  out = (out + d.toString()).slice(-20000)
})
child.on('close', (code) => {
  // Strip colour codes before reading the totals.
  const plain = out.replace(/\x1b\[[0-9;]*m/g, '')
  const total = Number(/Total:\s+(\d+)/.exec(plain)?.[1] ?? 0)
  const passed = Number(/Passed:\s+(\d+)/.exec(plain)?.[1] ?? 0)
  const skipped = Number(/Skipped:\s+(\d+)/.exec(plain)?.[1] ?? 0)
  let failed = total - passed - skipped
  if (code !== 0 && failed === 0) failed = 1 // a crash before uvu could count
  if (skipped) console.log(`(${skipped} skipped)`)
  console.log(`${passed} passed, ${failed} failed`)
  process.exitCode = failed > 0 || total === 0 || code !== 0 ? 1 : 0
})
