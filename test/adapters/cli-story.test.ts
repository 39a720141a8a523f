import { spawnSync } from 'node:child_process'
import { readFileSync, writeFileSync } from 'node:fs'
import { join } from 'node:path'
import { suite } from 'uvu'
import * as assert from 'uvu/assert'
import { probe } from '../../kit.js'
import { tempDir } from '../helpers/media.js'
import { cliArgs } from '../helpers/serve-child.js'

// The CLI as a user runs it: `reelforge story` offline with no key, and `--segments` checked before any work.

const root = new URL('../..', import.meta.url).pathname
const dir = tempDir()
// No key in the environment: the story must be made offline.
const env = { ...process.env, OPENAI_API_KEY: '', OPENAI_TEXT_BASE_URL: '', OPENAI_BASE_URL: '' }
const cli = (...args: string[]) => spawnSync(process.execPath, cliArgs(...args), { cwd: root, encoding: 'utf8', env })

const test = suite('reelforge story and --segments')
test('story: a narrated, captioned video from a prompt, offline, in the format -o names; the edit saved; its scenes printed', () => {
  const out = join(dir, 'story.webm')
  const res = cli(
    'story',
    'a paper boat on a rainy street',
    '-o',
    out,
    '--duration',
    '8',
    '--resolution',
    'preview',
    '--aspect',
    '9:16',
    '--edit',
    join(dir, 'saved', 'story.json'),
    '-q',
  )
  assert.is(res.status, 0, res.stderr)
  const edit = JSON.parse(readFileSync(join(dir, 'saved', 'story.json'), 'utf8')) // its folder made, as -o's is
  const scenes = edit.timeline.tracks[3].clips.map((c: { asset: { text: string } }) => c.asset.text)
  for (const [i, scene] of scenes.entries()) assert.ok(res.stderr.includes(`${i + 1}. ${scene}`), res.stderr)
  return probe(out).then((info) => {
    assert.equal(
      info.streams.map((s) => s.type),
      ['video', 'audio'],
    )
    assert.match(info.format, /webm/, 'a WebM, as -o names it')
    const video = info.streams[0]!
    assert.equal([video.width, video.height], [288, 512], 'portrait at preview size')
    assert.ok(info.duration! > 2, `${info.duration} s`)
  })
})
test('story and render refuse bad options before doing any work (exit 64, the option named)', () => {
  const story = cli('story', 'x', '-o', join(dir, 'x.mp4'), '--aspect', '2:1')
  assert.is(story.status, 64)
  assert.match(story.stderr, /--aspect must be one of 16:9, 9:16, 1:1, 4:5/)
  const empty = cli('story', '  ', '-o', join(dir, 'x.mp4'))
  assert.equal([empty.status, empty.stderr.trim()], [64, 'error: the prompt must not be empty'])
  const still = cli('story', 'x', '-o', join(dir, 'x.png'))
  assert.equal([still.status, still.stderr.trim()], [64, `error: -o ${join(dir, 'x.png')}: a story is a video: name the file .mp4, .webm, .mov or .gif`])
  const file = join(dir, 'e.json')
  writeFileSync(
    file,
    JSON.stringify({
      timeline: { tracks: [{ clips: [{ asset: { type: 'title', text: 'x' }, start: 0, length: 1 }] }] },
      output: { format: 'mp4', resolution: 'preview' },
    }),
  )
  const render = cli('render', file, '-o', join(dir, 'e.mp4'), '--segments', 'many')
  assert.is(render.status, 64)
  assert.match(render.stderr, /--segments must be auto or a whole number 1–64, not many/)
})
test.run()
