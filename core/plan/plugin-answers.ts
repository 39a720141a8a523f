// What a plugin answers to the plan, checked where it answers (a prepared asset, a fit's size): anything unusable
// fails as that plugin's, naming it, not as a bare TypeError or a clip drawn nowhere later.
import { pluginError } from '../errors.js'
import type { PreparedAsset, Size } from '../plugin.js'

/**
 * What an asset plugin's `prepare` answered, if it is a prepared asset: an object whose `size` is null (sound) or a
 * positive width and height. Anything else fails here as the plugin's: later it would be a bare TypeError, or a
 * clip of NaN or 0 pixels that no frame shows.
 */
export function checkedPrepared(asset: unknown, plugin: string, path: string): PreparedAsset {
  const size = (asset as { size?: unknown } | undefined)?.size
  const drawable = (n: unknown) => finite(n) && n > 0
  if (asset && typeof asset === 'object' && (size === null || (size && drawable((size as Size).width) && drawable((size as Size).height))))
    return asset as PreparedAsset
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

const finite = (n: unknown): n is number => typeof n === 'number' && Number.isFinite(n)
