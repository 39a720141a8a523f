import { readFile } from 'node:fs/promises'
import { createCanvas, type Image, loadImage } from '@napi-rs/canvas'
import { imageSizeFromFile } from 'image-size/fromFile'
import {
  defineAssetPlugin,
  ImageAssetSchema,
  RenderError,
  type PrepareContext,
  type PreparedAsset,
  type Size,
  type WasmPixels,
  wasmPixels,
} from '../../core/index.js'
import { stillSource } from '../lib/raster/still-source.js'
import { promptSize, promptModel } from './prompt-size.js'

/** Pixel count above which a still is refused before decoding (a 20,000² PNG would need 1.6 GB). */
const MAX_PIXELS = 100_000_000

/**
 * `image`: PNG, JPEG, WebP or the first frame of a GIF. `prepare` reads only the header (size); the
 * pixels are decoded, scaled to the size the plan draws them at, and uploaded once when the clip shows.
 */
export const image = defineAssetPlugin({
  kind: 'asset',
  name: 'image',
  schema: ImageAssetSchema,
  async prepare(params, ctx) {
    if (!params.src && params.prompt) {
      // Shotstack's AI form: the image comes from the image providers, sized by resolution × aspect ratio.
      const size = promptSize(params.resolution, params.aspectRatio, ctx.frame)
      return prepareStill(await ctx.generateImage({ prompt: params.prompt, model: promptModel(params.model, ctx), ...size }), ctx)
    }
    // The schema holds a src where there is no prompt (sourceOrPrompt, assets-media.ts).
    return prepareStill(await ctx.load(params.src!), ctx)
  },
})

/** A still from a local file: the header gives the size now, pixels are decoded when the clip shows. */
export async function prepareStill(path: string, ctx: PrepareContext): Promise<PreparedAsset> {
  const size = await readSize(path, ctx.path)
  return {
    size,
    static: true,
    // Its decode holds the full photo and the scaled one at once (80 MB for 12 MP): never beside the clip before it.
    openWhenShown: true,
    async open(gpu, need) {
      // A photo whose every frame is made on the CPU (a Ken Burns still) never needs a texture. Its memory goes
      // to the next photo when it closes (wasm-pixels.ts).
      const pixels = await decode(path, need, ctx.path)
      return stillSource(gpu, pixels, need, () => pixels.release())
    },
  }
}

async function readSize(path: string, clip: string): Promise<Size> {
  let info: { width?: number; height?: number; orientation?: number }
  try {
    info = await imageSizeFromFile(path)
  } catch (e) {
    // image-size words a format it cannot recognise as "unsupported file type: undefined".
    const why = /^unsupported file type/.test((e as Error).message) ? 'not a format of image this service reads' : (e as Error).message
    throw new RenderError('E_ASSET_UNREADABLE', `${clip}.asset.src: not a readable image (${why})`, { path: `${clip}.asset.src` })
  }
  if (!info.width || !info.height) throw new RenderError('E_ASSET_UNREADABLE', `${clip}.asset.src: image has no size`, { path: `${clip}.asset.src` })
  if (info.width * info.height > MAX_PIXELS) {
    throw new RenderError('E_ASSET_TOO_LARGE', `${clip}.asset.src: ${info.width}x${info.height} image exceeds ${MAX_PIXELS / 1e6} megapixels`, {
      path: `${clip}.asset.src`,
    })
  }
  return { width: info.width, height: info.height }
}

/**
 * Decodes and resamples to exactly `need` pixels, premultiplied (canvas's native layout), into a memory of their
 * own: the CPU warp scales them there, so a Ken Burns photo is held once.
 */
async function decode(path: string, need: Size, clip: string): Promise<WasmPixels> {
  let img: Image
  try {
    img = await loadImage(await readFile(path))
  } catch (e) {
    throw new RenderError('E_ASSET_UNREADABLE', `${clip}.asset.src: cannot decode image (${(e as Error).message})`, { path: `${clip}.asset.src` })
  }
  const canvas = createCanvas(need.width, need.height)
  const g = canvas.getContext('2d')
  g.imageSmoothingQuality = 'high'
  g.drawImage(img, 0, 0, need.width, need.height)
  // V8 does not see the native memory behind an Image or a canvas (48 MB for a 12 MP photo, 32 MB for the 8 MP a
  // Ken Burns zoom draws it at), so nothing hurries their collection: a render of four photos kept them until some
  // later GC (measured: the render process ~100 MB larger). Both are dropped as soon as they are done with: the
  // photo before the canvas is drawn out, the canvas before the photo's own memory is made — `data()` copies, so
  // the canvas, its copy and that memory would otherwise be held at once (the decode's peak 98 MB → 80).
  await release(img)
  const drawn = canvas.data()
  canvas.width = canvas.height = 1
  const pixels = wasmPixels(need)
  pixels.view().set(drawn)
  return pixels
}

/** One transparent pixel, as a PNG. */
const PIXEL = Buffer.from('iVBORw0KGgoAAAANSUhEUgAAAAEAAAABCAYAAAAfFcSJAAAADUlEQVR42mNk+M9QDwADhgGAWjR9awAAAABJRU5ErkJggg==', 'base64')

/** Frees a decoded image's bitmap now: given a one-pixel picture, it drops the big one at once. */
function release(img: Image): Promise<void> {
  return new Promise((done) => {
    img.onload = img.onerror = () => done()
    img.src = PIXEL
  })
}
