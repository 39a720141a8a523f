import { readFileSync, writeFileSync } from 'node:fs'
import { join } from 'node:path'
import { test } from 'uvu'
import * as assert from 'uvu/assert'
import { createRenderer, defineOutputPlugin, RenderError, type Edit } from '../../index.js'
import { tempDir } from '../helpers/media.js'

// An output plugin adds a format: an edit names it in `output.format` (typed, once the plugin declares it in
// `OutputFormats`) and the render writes through it — the schema's list of Shotstack's formats does not stand in
// the way. Here the plugin writes raw RGBA frames, so the file's size counts the frames it was given.

declare module '../../index.js' {
  interface OutputFormats {
    'test-rgba': true
  }
}

const rgba = defineOutputPlugin({
  kind: 'output',
  name: 'test-rgba',
  mime: 'application/octet-stream',
  extension: 'rgba',
  takes: 'video',
  sound: false,
  async open(spec) {
    const chunks: Buffer[] = []
    return {
      write: (frame) => void chunks.push(Buffer.from(frame)),
      async close() {
        const data = Buffer.concat(chunks)
        writeFileSync(spec.path, data)
        return { path: spec.path, bytes: data.length }
      },
      abort() {},
    }
  },
})

const dir = tempDir()
const edit: Edit = {
  timeline: { background: '#ff0000', tracks: [{ clips: [{ asset: { type: 'title', text: 'x' }, start: 0, length: 1 }] }] },
  output: { format: 'test-rgba', size: { width: 64, height: 36 }, fps: 12 },
}

test("a plugin's output format validates and renders through the plugin", async () => {
  const renderer = createRenderer({ plugins: [rgba] })
  assert.is(renderer.validate(edit).edit.output.format, 'test-rgba')
  const out = join(dir, 'frames.rgba')
  const result = await renderer.render(edit, { out })
  assert.is(result.frames, 12)
  const data = readFileSync(out)
  assert.is(data.length, 12 * 64 * 36 * 4, 'twelve 64x36 RGBA frames')
  assert.equal([...data.subarray(0, 4)], [255, 0, 0, 255], 'the red background')
})

test('without the plugin, the format is refused as before, naming the known ones', () => {
  try {
    createRenderer().validate(edit)
    assert.unreachable()
  } catch (e) {
    assert.instance(e, RenderError)
    assert.match((e as RenderError).message, /output\.format: must be one of mp4, gif, webm, mov, jpg, png, bmp, mp3; got "test-rgba"/)
  }
})

test.run()
