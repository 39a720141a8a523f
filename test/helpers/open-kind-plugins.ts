import { writeFileSync } from 'node:fs'
import { createCanvas, ImageData } from '@napi-rs/canvas'
import { defineFitPlugin, defineOutputPlugin, defineProviderPlugin, type ImageRequest } from '../../core/index.js'

/**
 * Plugins of the kinds that were once closed, loaded as a plugin module (`pluginModules`, `REELFORGE_PLUGINS`):
 * `avif`, an output format Shotstack does not have (a still, encoded by @napi-rs/canvas), and `half`, a fit
 * that draws an asset at half its box whatever its aspect.
 */
export const avif = defineOutputPlugin({
  kind: 'output',
  name: 'avif',
  mime: 'image/avif',
  extension: 'avif',
  takes: 'still',
  sound: false,
  async open(spec) {
    let frame: Uint8Array | undefined
    return {
      write: (rgba) => void (frame = Uint8Array.from(rgba)),
      async close() {
        const canvas = createCanvas(spec.width, spec.height)
        canvas.getContext('2d').putImageData(new ImageData(new Uint8ClampedArray(frame!.buffer), spec.width, spec.height), 0, 0)
        const data = await canvas.encode('avif', { quality: 90 })
        writeFileSync(spec.path, data)
        return { path: spec.path, bytes: data.length }
      },
      abort() {},
    }
  },
})

export const half = defineFitPlugin({ kind: 'fit', name: 'half', fit: (_src, box) => ({ width: box.width / 2, height: box.height / 2 }) })

/**
 * An image provider of the operator's own for `flux`: a flat `colour` picture of the asked size, each request
 * handed to `asked` first.
 */
export function flatImageProvider(name: string, colour: string, asked: (request: ImageRequest) => void, models = ['flux']) {
  return defineProviderPlugin({
    kind: 'provider',
    name,
    models,
    async generate(request) {
      asked(request)
      const canvas = createCanvas(request.width, request.height)
      const g = canvas.getContext('2d')
      g.fillStyle = colour
      g.fillRect(0, 0, request.width, request.height)
      return { data: await canvas.encode('png'), mime: 'image/png', provider: name, upstreamModel: name }
    },
  })
}

/** Prompts `greenCard` was asked for, in this process. */
export const greenCardCalls: string[] = []
export const greenCard = flatImageProvider('greencard', '#00ff00', (request) => greenCardCalls.push(request.prompt))

export default [avif, half, greenCard]
