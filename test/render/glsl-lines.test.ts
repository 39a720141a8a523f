import { join } from 'node:path'
import { test } from 'uvu'
import * as assert from 'uvu/assert'
import { createRenderer, defineGlslTransition, type FilterPlugin } from '../../index.js'
import { tempDir } from '../helpers/media.js'
import { edit } from '../helpers/render.js'

// A shader that does not compile is reported at the line of the plugin's own GLSL, not of the shader the renderer
// assembles around it (the author cannot see those lines).

const dir = tempDir()
const failure = async (plugin: object, clip: object) => {
  try {
    await createRenderer({ plugins: [plugin as never], cacheDir: join(dir, 'cache') }).render(edit([clip], { fps: 12 }), { out: join(dir, 'x.mp4') })
  } catch (e) {
    return (e as Error).message
  }
  assert.unreachable('rendered')
  return ''
}
const title = { asset: { type: 'title', text: 'x' }, start: 0, length: 0.5 }

test("a GLSL transition's error names the line of its own glsl", async () => {
  const glsl = 'vec4 transition(vec2 uv) {\n  vec4 a = getFromColor(uv);\n  return mix(a, getToColor(uv), progres);\n}'
  const message = await failure(defineGlslTransition({ name: 'gl:broken', glsl }), { ...title, transition: { in: 'gl:broken' } })
  assert.match(message, /\[transition:gl:broken\] compile: .*0:3: .*progres/)
})

test("a filter's error names the line of its own glsl", async () => {
  const filter: FilterPlugin = { kind: 'filter', name: 'broken', glsl: 'vec4 d = c;\nreturn d +;' }
  const message = await failure(filter, { ...title, filter: 'broken' })
  assert.match(message, /\[filter:broken\] compile: .*0:2: /)
})

test.run()
