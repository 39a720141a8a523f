import { spawn } from 'node:child_process'
import { writeFileSync } from 'node:fs'
import { join } from 'node:path'
import { test } from 'uvu'
import * as assert from 'uvu/assert'
import { probe } from '../../kit.js'
import { decodeFrames, mean, near } from '../helpers/frames.js'
import { tempDir } from '../helpers/media.js'
import { cliArgs } from '../helpers/serve-child.js'

// `reelforge preview` as a user runs it: a page, the edit rendered, any frame at once, and a new render on save.

const root = new URL('../..', import.meta.url).pathname
const dir = tempDir('reelforge-preview-test-')
const editFile = join(dir, 'edit.json')
const edit = (background: string) => ({
  timeline: {
    background,
    tracks: [
      { clips: [{ asset: { type: 'shape', shape: 'rectangle', rectangle: { width: 320, height: 180 }, fill: { color: '#ff0000' } }, start: 1, length: 1 }] },
    ],
  },
  output: { format: 'mp4', size: { width: 320, height: 180 }, fps: 25 },
})

/** Reads the event stream until an event of `name` comes, and returns its data. */
async function next(reader: ReadableStreamDefaultReader<Uint8Array>, name: string, buffered: { text: string }) {
  for (;;) {
    const at = buffered.text.indexOf('\n\n')
    if (at >= 0) {
      const block = buffered.text.slice(0, at)
      buffered.text = buffered.text.slice(at + 2)
      if (block.startsWith(`event: ${name}\n`)) return JSON.parse(block.split('\ndata: ')[1]!)
      if (block.startsWith('event: failed')) throw new Error(block)
      continue
    }
    const { value, done } = await reader.read()
    if (done) throw new Error('the event stream ended')
    buffered.text += new TextDecoder().decode(value)
  }
}

/** `reelforge preview <args> --port 0` in a child, and the address it prints once it listens. */
function startPreview(args: string[]) {
  const child = spawn(process.execPath, cliArgs('preview', ...args, '--port', '0'), { cwd: root })
  const url = new Promise<string>((resolve, reject) => {
    let out = ''
    child.stdout.on('data', (d) => {
      out += d
      const m = /preview: (http:\/\/\S+)/.exec(out)
      if (m) resolve(m[1]!)
    })
    child.on('exit', (code) => reject(new Error(`preview exited ${code}`)))
  })
  return { child, url }
}

test('the page, the render, a frame from the scrubber, and a new render when the file is saved', async () => {
  writeFileSync(editFile, JSON.stringify(edit('#0000ff')))
  const { child, url: started } = startPreview([editFile, '--resolution', 'preview'])
  try {
    const url = await started
    assert.match(await (await fetch(url)).text(), /<video id="video"/)
    const reader = (await fetch(`${url}events`)).body!.getReader()
    const buffered = { text: '' }
    const first = await next(reader, 'rendered', buffered)
    assert.equal([first.version, first.duration], [1, 2])
    const frame = await fetch(`${url}frame?t=1.5`)
    assert.is(frame.headers.get('content-type'), 'image/png')
    const png = join(dir, 'frame.png')
    writeFileSync(png, Buffer.from(await frame.arrayBuffer()))
    assert.ok(near(mean(await decodeFrames(png, 512, 288), 0, 160, 96, 352, 192), [255, 0, 0]), 'the frame at 1.5 s: the red shape')
    // Saved as an editor does: a new file in its place.
    writeFileSync(`${editFile}.tmp`, JSON.stringify(edit('#00ff00')))
    const { renameSync } = await import('node:fs')
    renameSync(`${editFile}.tmp`, editFile)
    const second = await next(reader, 'rendered', buffered)
    assert.is(second.version, 2)
    const video = join(dir, 'video.mp4')
    writeFileSync(video, Buffer.from(await (await fetch(`${url}video`)).arrayBuffer()))
    assert.equal([(await probe(video)).streams[0]!.width], [512], 'at preview size')
    assert.ok(near(mean(await decodeFrames(video, 512, 288), 5, 160, 96, 352, 192), [0, 255, 0], 30), 'the new background')
    await reader.cancel()
  } finally {
    child.kill('SIGTERM')
  }
})
test('a frame answers while the first render is still running: it is its own still, not the video', async () => {
  // A minute that moves (every frame drawn): its render outlasts the frame's by far.
  const long = edit('#0000ff')
  long.timeline.tracks[0]!.clips[0]!.length = 60
  Object.assign(long.timeline.tracks[0]!.clips[0]!, { effect: 'zoomIn' })
  const file = join(dir, 'long.json')
  writeFileSync(file, JSON.stringify(long))
  const { child, url: started } = startPreview([file])
  try {
    const url = await started
    const reader = (await fetch(`${url}events`)).body!.getReader()
    await next(reader, 'rendering', { text: '' }) // the edit is loaded and its video under way
    const frame = await fetch(`${url}frame?t=1.5`)
    assert.equal([frame.status, frame.headers.get('content-type')], [200, 'image/png'], await frame.clone().text())
    const png = join(dir, 'early.png')
    writeFileSync(png, Buffer.from(await frame.arrayBuffer()))
    assert.ok(near(mean(await decodeFrames(png, 512, 288), 0, 160, 96, 352, 192), [255, 0, 0]), 'the frame at 1.5 s: the red shape')
    const video = await fetch(`${url}video`)
    assert.is(video.status, 503, 'the video was not rendered yet when the frame came')
    await reader.cancel()
  } finally {
    child.kill('SIGTERM')
  }
})
test.run()
