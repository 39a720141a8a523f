import { spawnSync } from 'node:child_process'
import { existsSync } from 'node:fs'
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

test.run()
