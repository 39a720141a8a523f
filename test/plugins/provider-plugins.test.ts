import { join } from 'node:path'
import { suite } from 'uvu'
import * as assert from 'uvu/assert'
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

test('without it the sandbox answers the same edit (its picture is not flat green)', async () => {
  greenCardCalls.length = 0
  const { frames } = await renderAndDecode(prompted, { cacheDir: join(dir, 'cache-sandbox') })
  assert.equal(greenCardCalls, [])
  assert.not.ok(near(pixel(frames, 3, 160, 90), [0, 255, 0], 12))
})

test.run()
