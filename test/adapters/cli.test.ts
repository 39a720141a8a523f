import { spawnSync } from 'node:child_process'
import { writeFileSync } from 'node:fs'
import { join } from 'node:path'
import { test } from 'uvu'
import * as assert from 'uvu/assert'
import { tempDir } from '../helpers/media.js'
import { cliArgs } from '../helpers/serve-child.js'

const root = new URL('../..', import.meta.url).pathname
const dir = tempDir()
const cli = (...args: string[]) => spawnSync(process.execPath, cliArgs(...args), { cwd: root, encoding: 'utf8' })

test('render: a bad edit exits 2 and prints every issue with its path', () => {
  const file = join(dir, 'bad.json')
  writeFileSync(file, JSON.stringify({ timeline: { tracks: [{ clips: [{ asset: { type: 'title', text: 'x' }, start: 'soon', length: 1, opacity: 3 }] }] } }))
  const res = cli('render', file, '-o', join(dir, 'bad.mp4'))
  assert.is(res.status, 2)
  assert.match(res.stderr, /timeline\.tracks\[0\]\.clips\[0\]\.start: must be seconds/)
  assert.match(res.stderr, /timeline\.tracks\[0\]\.clips\[0\]\.opacity: must be between 0 and 1, got 3/)
})

test('render: a good edit writes the file, resolves relative sources against the edit, reports speed', () => {
  const res = cli('render', 'examples/hello.json', '-o', join(dir, 'hello.mp4'))
  assert.is(res.status, 0, res.stderr)
  assert.match(res.stdout, /hello\.mp4/)
  assert.match(res.stdout, /1280x720 @ 25 fps, 5\.00 s, 125 frames/)
  assert.match(res.stdout, /x realtime/)
  // Not a TTY here: plain progress lines.
  assert.match(res.stderr, /\d+% rendering \d+\/125 frames/)
})

test('usage errors exit 64', () => {
  assert.is(cli('render').status, 64)
  assert.is(cli('frobnicate').status, 64)
})

test.run()
