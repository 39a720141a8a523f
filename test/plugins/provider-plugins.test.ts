import { join } from 'node:path'
import { suite } from 'uvu'
import * as assert from 'uvu/assert'
import { defineProviderPlugin, RenderError } from '../../index.js'
import { near, pixel } from '../helpers/frames.js'
import { tempDir } from '../helpers/media.js'
import { flatImageProvider, greenCard, greenCardCalls } from '../helpers/open-kind-plugins.js'
import { edit, renderAndDecode } from '../helpers/render.js'

// An image provider is a plugin like any other: passed in `plugins`, it serves its models ahead of the sandbox
// generator (which answers only models nothing else serves) — the way docs/plugins.md registers every kind.

const test = suite('image provider plugins')
const dir = tempDir()

const prompted = edit([{ asset: { type: 'text-to-image', prompt: 'a green card', width: 320, height: 180 }, start: 0, length: 0.5 }], { fps: 12 })

test("a provider in `plugins` draws its model's images, not the sandbox", async () => {
  greenCardCalls.length = 0
  const { frames } = await renderAndDecode(prompted, { plugins: [greenCard], cacheDir: join(dir, 'cache') })
  assert.equal(greenCardCalls, ['a green card'])
  assert.ok(near(pixel(frames, 3, 160, 90), [0, 255, 0], 12), `green: ${pixel(frames, 3, 160, 90)}`)
})

test("the caller's plugin ahead of configured vendors; among those, the first listed", async () => {
  const asked: string[] = []
  const flat = (name: string, colour: string) => flatImageProvider(name, colour, () => asked.push(name))
  const [primary, fallback] = [flat('primary', '#ff0000'), flat('fallback', '#0000ff')]
  await renderAndDecode(prompted, { providers: [primary, fallback], cacheDir: join(dir, 'cache-order') })
  greenCardCalls.length = 0
  await renderAndDecode(prompted, { providers: [primary, fallback], plugins: [greenCard], cacheDir: join(dir, 'cache-order-2') })
  assert.equal([asked, greenCardCalls.length], [['primary'], 1])
})

test("an image with a prompt and the provider's own model name is drawn by it; a model nobody serves falls back to flux", async () => {
  const asked: string[] = []
  const own = flatImageProvider('studio', '#ff00ff', (r) => asked.push(r.model), ['studio-v2'])
  const image = (model: string) => edit([{ asset: { type: 'image', prompt: 'a card', model }, start: 0, length: 0.5 }], { fps: 12 })
  const { frames, result } = await renderAndDecode(image('studio-v2'), { plugins: [own], cacheDir: join(dir, 'cache-own') })
  assert.equal(asked, ['studio-v2'])
  assert.equal(result.warnings, [])
  assert.ok(near(pixel(frames, 3, 160, 90), [255, 0, 255], 12), `magenta: ${pixel(frames, 3, 160, 90)}`)
  const other = await renderAndDecode(image('nobody-v1'), { plugins: [own], cacheDir: join(dir, 'cache-own-2') })
  assert.equal(asked, ['studio-v2'], 'not asked for a model it does not serve')
  assert.ok(other.result.warnings.some((w) => /image model "nobody-v1" is not offered; generated with flux/.test(w.message)))
})

test('a provider answering no image is named, not the image asset: a string, empty bytes, bytes of no format', async () => {
  for (const [answer, got] of [
    ['not an image', 'string'],
    [{ data: new Uint8Array(0), mime: 'image/png' }, '0 bytes of no image format'],
    [{ data: new TextEncoder().encode('<html>rate limited</html>'), mime: 'image/png' }, '25 bytes of no image format'],
  ] as const) {
    const junk = defineProviderPlugin({ kind: 'provider', name: 'junk', models: ['flux'], generate: async () => answer as never })
    try {
      await renderAndDecode(prompted, { plugins: [junk], cacheDir: join(dir, 'cache-junk') })
      assert.unreachable()
    } catch (e) {
      assert.instance(e, RenderError)
      const said = `timeline.tracks[0].clips[0].asset: [provider:junk] generate: answered no image ({ data: the bytes of a PNG, JPEG, WebP or GIF, mime, … }; got ${got})`
      assert.is((e as Error).message, said)
    }
  }
})

test('without it the sandbox answers the same edit (its picture is not flat green)', async () => {
  greenCardCalls.length = 0
  const { frames } = await renderAndDecode(prompted, { cacheDir: join(dir, 'cache-sandbox') })
  assert.equal(greenCardCalls, [])
  assert.not.ok(near(pixel(frames, 3, 160, 90), [0, 255, 0], 12))
})

test.run()
