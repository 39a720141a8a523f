import { spawn, spawnSync } from 'node:child_process'
import { existsSync, readFileSync, rmSync, writeFileSync } from 'node:fs'
import { test } from 'uvu'
import * as assert from 'uvu/assert'

const script = `
import { createRenderer } from './index.ts'
const r = await createRenderer().render({ timeline: { tracks: [{ clips: [{ asset: { type: 'title', text: 'x' }, start: 0, length: 0.2 }] }] }, output: { size: { width: 64, height: 64 } } }, { out: process.argv[1] })
console.log(JSON.stringify({ display: process.env.DISPLAY, frames: r.frames }))
`

test('without DISPLAY the library starts its own Xvfb, renders, and stops it on exit', async () => {
  const env = { ...process.env }
  delete env.DISPLAY
  const out = `/tmp/reelforge-display-${process.pid}.mp4`
  const res = spawnSync('node_modules/.bin/tsx', ['--input-type=module', '-e', script, out], {
    cwd: new URL('../..', import.meta.url).pathname,
    env,
    encoding: 'utf8',
  })
  assert.is(res.status, 0, res.stderr)
  const { display, frames } = JSON.parse(res.stdout.trim().split('\n').at(-1)!)
  assert.match(display, /^:\d+$/)
  assert.is(frames, 5)
  const n = display.slice(1)
  // The watchdog stops Xvfb within about a second of the process ending.
  for (let i = 0; i < 40 && existsSync(`/tmp/.X11-unix/X${n}`); i++) await new Promise((r) => setTimeout(r, 100))
  assert.not.ok(existsSync(`/tmp/.X11-unix/X${n}`), `Xvfb ${display} still running after exit`)
})

test('locks a killed Xvfb left behind (dead pid) are reclaimed, not counted as taken', async () => {
  // Xvfb killed by SIGKILL (a cancelled render's process group) leaves /tmp/.X<n>-lock and its socket. Fill every
  // number this process would try with such leftovers: it must still get a display.
  const dead = spawnSync('true').pid!
  const env = { ...process.env }
  delete env.DISPLAY
  const child = spawn(
    'node_modules/.bin/tsx',
    [
      '--input-type=module',
      '-e',
      `import { ensureDisplay } from './core/render/display.ts'
process.stdin.once('data', async () => { console.log(await ensureDisplay()); process.exit(0) })`,
    ],
    { cwd: new URL('../..', import.meta.url).pathname, env, stdio: ['pipe', 'pipe', 'inherit'] },
  )
  let out = ''
  child.stdout.on('data', (d) => (out += d))
  // tsx runs the script in a grandchild: find the node process that will own the display.
  await new Promise((r) => setTimeout(r, 1500))
  const pids = spawnSync('pgrep', ['-P', String(child.pid)], { encoding: 'utf8' })
    .stdout.trim()
    .split('\n')
    .map(Number)
  const owner = pids.filter(Boolean).at(-1) ?? child.pid!
  const first = 90 + (owner % 400)
  const planted: number[] = []
  for (let n = first; n < 1000; n++) {
    if (existsSync(`/tmp/.X${n}-lock`) || existsSync(`/tmp/.X11-unix/X${n}`)) continue
    writeFileSync(`/tmp/.X${n}-lock`, `${String(dead).padStart(10)}\n`)
    writeFileSync(`/tmp/.X11-unix/X${n}`, '')
    planted.push(n)
  }
  try {
    child.stdin.write('go\n')
    const code = await new Promise((r) => child.on('exit', r))
    assert.is(code, 0)
    assert.match(out.trim(), /^:\d+$/)
  } finally {
    for (const n of planted) {
      const lock = `/tmp/.X${n}-lock`
      if (!existsSync(lock) || Number(readFileSync(lock, 'utf8')) !== dead) continue
      rmSync(lock, { force: true })
      rmSync(`/tmp/.X11-unix/X${n}`, { force: true })
    }
  }
})

test('a killed Xvfb counts as lost at once, not a second later at the next poll of its watchdog', async () => {
  // A render process asks displayLost() as each render ends, to retire before Xlib kills it in the next one.
  const env = { ...process.env }
  delete env.DISPLAY
  const child = spawn(
    process.execPath,
    [
      '--import',
      'tsx',
      '--input-type=module',
      '-e',
      `import { displayLost, ensureDisplay } from './core/render/display.ts'
console.log(await ensureDisplay())
process.stdin.on('data', () => console.log(String(displayLost())))`,
    ],
    { cwd: new URL('../..', import.meta.url).pathname, env, stdio: ['pipe', 'pipe', 'inherit'] },
  )
  let out = ''
  child.stdout.on('data', (d) => (out += d))
  try {
    for (let i = 0; i < 100 && !/^:\d+\n/.test(out); i++) await new Promise((r) => setTimeout(r, 100))
    const display = out.trim()
    assert.match(display, /^:\d+$/)
    const ask = async () => {
      const before = out.length
      child.stdin.write('?\n')
      for (let i = 0; i < 50 && out.length === before; i++) await new Promise((r) => setTimeout(r, 20))
      return out.slice(before).trim()
    }
    assert.is(await ask(), 'false')
    const server = spawnSync('pgrep', ['-f', `^Xvfb ${display} `], { encoding: 'utf8' }).stdout.trim()
    process.kill(Number(server), 'SIGKILL')
    // SIGKILL only marks the signal: on a loaded machine Xvfb may take a while to be scheduled and die. Ask as
    // soon as the kernel has it dead (zombie or gone), well inside the watchdog's one-second poll.
    const dead = () => {
      try {
        return /^\d+ \(.*\) [ZX] /.test(readFileSync(`/proc/${Number(server)}/stat`, 'utf8'))
      } catch {
        return true
      }
    }
    for (let i = 0; i < 200 && !dead(); i++) await new Promise((r) => setTimeout(r, 10))
    assert.is(await ask(), 'true')
  } finally {
    child.kill()
  }
})

test.run()
