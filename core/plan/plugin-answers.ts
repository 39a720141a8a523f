// What a plugin answers to the plan, checked where it answers (a prepared asset, a fit's size): anything unusable
// fails as that plugin's, naming it, not as a bare TypeError or a clip drawn nowhere later.
import { pluginError } from '../errors.js'
import type { GeneratedImage, PreparedAsset, Size } from '../plugin.js'

/**
 * What an asset plugin's `prepare` answered, if it is a prepared asset: an object whose `size` is null (sound) or a
 * positive width and height. Anything else fails here as the plugin's: later it would be a bare TypeError, or a
 * clip of NaN or 0 pixels that no frame shows.
 */
export function checkedPrepared(asset: unknown, plugin: string, path: string): PreparedAsset {
  const size = (asset as { size?: unknown } | undefined)?.size
  const drawable = (n: unknown) => finite(n) && n > 0
  if (asset && typeof asset === 'object' && (size === null || (size && drawable((size as Size).width) && drawable((size as Size).height)))) {
    // `open` is optional in the type because sound has none; a drawn asset without it failed at its first frame.
    if (size !== null && typeof (asset as PreparedAsset).open !== 'function')
      throw pluginError('asset', plugin, 'prepare', new Error('answered a size but no open(gpu, need) to draw it with'), path)
    return asset as PreparedAsset
  }
  throw pluginError(
    'asset',
    plugin,
    'prepare',
    new Error('answered no prepared asset (an object whose `size` is null for sound, else a positive width and height)'),
    path,
  )
}

/** A fit's answer, if it is a size: a NaN or negative one would draw the clip nowhere without a word. */
export function sized(size: Size): Size {
  if (size && finite(size.width) && size.width >= 0 && finite(size.height) && size.height >= 0) return size
  throw new Error(`answered no size (a finite width and height, 0 or more): ${JSON.stringify(size)}`)
}

/** The picture formats an image's bytes may be in, by their first bytes. */
const MAGIC: [string, (b: Uint8Array) => boolean][] = [
  ['PNG', (b) => b[0] === 0x89 && b[1] === 0x50 && b[2] === 0x4e && b[3] === 0x47],
  ['JPEG', (b) => b[0] === 0xff && b[1] === 0xd8 && b[2] === 0xff],
  ['WebP', (b) => String.fromCharCode(...b.subarray(0, 4)) === 'RIFF' && String.fromCharCode(...b.subarray(8, 12)) === 'WEBP'],
  ['GIF', (b) => String.fromCharCode(...b.subarray(0, 4)) === 'GIF8'],
]

/**
 * What an image provider's `generate` answered, if it holds a picture's bytes: a string, an empty buffer or bytes
 * of no image format failed later in the image asset's decoder, blaming the clip's `src` (which a prompt has not).
 */
export function checkedImage(image: unknown): GeneratedImage {
  const data = (image as { data?: unknown } | undefined)?.data
  if (data instanceof Uint8Array && MAGIC.some(([, is]) => is(data))) return image as GeneratedImage
  const got =
    data instanceof Uint8Array ? `${data.length} bytes of no image format` : image && typeof image === 'object' ? `data of ${typeof data}` : typeof image
  throw new Error(`answered no image ({ data: the bytes of a PNG, JPEG, WebP or GIF, mime, … }; got ${got})`)
}

const finite = (n: unknown): n is number => typeof n === 'number' && Number.isFinite(n)
