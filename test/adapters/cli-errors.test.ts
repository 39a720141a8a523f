import { spawnSync } from 'node:child_process'
import { writeFileSync } from 'node:fs'
import { join } from 'node:path'
import { suite } from 'uvu'
import * as assert from 'uvu/assert'
import { garbledVideo, tempDir } from '../helpers/media.js'
import { cliArgs } from '../helpers/serve-child.js'
import { reportError } from '../../adapters/cli/report.js'

// `reelforge render` fails the way the service does: one line that names the stage, the clip and the cause,
// a non-zero exit, and a stack only when asked for with --debug.

const root = new URL('../..', import.meta.url).pathname
const dir = tempDir()
const cli = (...args: string[]) => spawnSync(process.execPath, cliArgs(...args), { cwd: root, encoding: 'utf8' })
const STACK = /^\s+at /m
const edit = (asset: object) => ({
  timeline: { tracks: [{ clips: [{ asset, start: 0, length: 3 }] }] },
  output: { format: 'mp4', size: { width: 64, height: 36 }, fps: 12 },
})

const errors = suite('reelforge render: clear errors, stacks only with --debug')

errors("a decoder dying on a corrupt mp4: the clip, the file and ffmpeg's line; exit 1; no stack", async () => {
  await garbledVideo(join(dir, 'garbled.mp4'))
  const file = join(dir, 'garbled.json')
  writeFileSync(file, JSON.stringify(edit({ type: 'video', src: 'garbled.mp4' })))
  const res = cli('render', file, '-o', join(dir, 'garbled-out.mp4'), '--quiet')
  assert.is(res.status, 1, res.stderr)
  assert.match(
    res.stderr,
    /^error E_ASSET_UNREADABLE: timeline\.tracks\[0\]\.clips\[0\]\.asset\.src: cannot decode \S*garbled\.mp4: the video decoder \(ffmpeg\) exited with status \d+: Error while decoding stream #0:0: Invalid data found when processing input$/m,
  )
  assert.not.match(res.stderr, STACK, 'no stack without --debug')
  const debug = cli('render', file, '-o', join(dir, 'garbled-out.mp4'), '--quiet', '--debug')
  assert.is(debug.status, 1)
  assert.match(debug.stderr, /^error E_ASSET_UNREADABLE: timeline\.tracks\[0\]\.clips\[0\]\.asset\.src: cannot decode/m)
  assert.match(debug.stderr, STACK, '--debug prints the stack')
})

errors('a folder -o cannot be made (a file is in the way): E_OUTPUT_FAILED naming it, exit 1, the stack only with --debug', () => {
  const file = join(dir, 'title.json')
  writeFileSync(file, JSON.stringify(edit({ type: 'title', text: 'x' })))
  const blocker = join(dir, 'not-a-dir')
  writeFileSync(blocker, '')
  const res = cli('render', file, '-o', join(blocker, 'out.mp4'), '--quiet') // its folder is a file
  assert.is(res.status, 1, res.stderr)
  assert.match(res.stderr, /^error E_OUTPUT_FAILED: cannot make the folder .*not-a-dir for the output: a file of that name is in the way$/m)
  assert.not.match(res.stderr, STACK)
  const debug = cli('render', file, '-o', join(blocker, 'out.mp4'), '--quiet', '--debug')
  assert.is(debug.status, 1)
  assert.match(debug.stderr, STACK)
})

errors('an unexpected error (not a RenderError): its message, exit 1, the stack only when debugging', () => {
  const said: string[] = []
  const log = console.error
  console.error = (line: string) => void said.push(String(line))
  try {
    assert.is(reportError(new TypeError('x is not a function')), 1)
    assert.equal(said, ['error: x is not a function'])
    assert.is(reportError(new TypeError('x is not a function'), true), 1)
    assert.match(said.at(-1)!, /^TypeError: x is not a function\n\s+at /)
  } finally {
    console.error = log
  }
})

errors.run()
