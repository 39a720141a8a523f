// A preview session (renderer.preview): any frame of an edit, in any order, exactly as a still render of it draws
// that frame; a changed edit keeps every clip that did not change, its decoder included. In process: real GL,
// real ffmpeg, the decoders seen as this process's children.
import { readFileSync } from 'node:fs'
import { join } from 'node:path'
import { suite } from 'uvu'
import * as assert from 'uvu/assert'
import { createRenderer, type Edit } from '../../index.js'
import { frameEdit } from '../../core/index.js'
import { childCommands } from '../helpers/children.js'
import { tempDir } from '../helpers/media.js'
import { pgrep } from '../helpers/processes.js'
import { pixelDiff, pngPixels, previewFixture } from '../helpers/preview.js'

const dir = tempDir('reelforge-preview-')
const renderer = createRenderer({ cacheDir: join(dir, 'cache') })
let fixture: Awaited<ReturnType<typeof previewFixture>>
const test = suite('preview session')
test.before(async () => {
  fixture = await previewFixture(dir)
})

/** The still render draws at `time`, decoded. */
async function still(edit: object, time: number): Promise<Uint8Array> {
  const out = join(dir, `still-${Math.random().toString(36).slice(2)}.png`)
  await renderer.render(frameEdit(edit as Edit, time), { out })
  return pngPixels(readFileSync(out), dir)
}

test('frames in a scrubbing order — steps, back, jumps, transitions — are the still render draws, pixel for pixel', async () => {
  const edit = fixture.edit()
  const session = await renderer.preview!(edit as Edit)
  try {
    assert.equal([session.state.duration, session.state.frames, session.state.width, session.state.height], [6, 150, 320, 180])
    for (const t of [0.04, 0.08, 0.12, 1.2, 0.6, 3.2, 3.28, 0.04, 2.96, 5.5, 2.0, 3.44]) {
      const got = await pngPixels(await session.frame(t), dir)
      const { max } = pixelDiff(got, await still(edit, t))
      assert.is(max, 0, `t ${t}: differs by up to ${max} levels`)
    }
  } finally {
    await session.close()
  }
})

test('a changed title: only the title is prepared again, only its pixels change, and the video keeps its decoder', async () => {
  const session = await renderer.preview!(fixture.edit('Hello') as Edit)
  try {
    // The stills to compare with, drawn first: their own decoders must not count as the session's.
    const [renderedNew, renderedOld] = [await still(fixture.edit('World'), 1.04), await still(fixture.edit('Hello'), 1.04)]
    await session.frame(1)
    // Its decoder runs already: only a process started after this counts.
    const running = new Set(pgrep('moving.mp4', process.pid).map((pid) => readFileSync(`/proc/${pid}/cmdline`, 'utf8').split('\0').join(' ')))
    let after: Uint8Array = new Uint8Array()
    const started = await childCommands(
      (async () => {
        const state = await session.update(fixture.edit('World') as Edit)
        assert.equal([state.reused, state.prepared], [3, 1])
        after = await pngPixels(await session.frame(1.04), dir)
      })(),
    )
    const decoders = started.filter((cmd) => cmd.some((a) => a.includes('moving.mp4')) && cmd.includes('rawvideo') && !running.has(cmd.join(' ')))
    assert.equal(decoders, [], 'no decoder started again for the unchanged video clip')
    assert.is(pixelDiff(after, renderedNew).max, 0, 'the new frame is the render of the new edit')
    // Against the old edit at the same time, only the title's box (at the top) differs.
    const { box } = pixelDiff(after, renderedOld)
    assert.ok(box && box.y1 < 60, `only the top (the title) differs: ${JSON.stringify(box)}`)
  } finally {
    await session.close()
  }
})

test('closing a session ends its decoders', async () => {
  const session = await renderer.preview!(fixture.edit() as Edit)
  await session.frame(1)
  assert.ok(pgrep('moving.mp4', process.pid).length > 0, 'a decoder runs while the session is open')
  await session.close()
  await new Promise((r) => setTimeout(r, 200))
  assert.equal(pgrep('moving.mp4', process.pid), [], 'no decoder left')
})

test.run()
