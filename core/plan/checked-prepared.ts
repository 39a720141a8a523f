import { pluginError } from '../errors.js'
import type { PreparedAsset, Size } from '../plugin.js'

/**
 * What an asset plugin's `prepare` answered, if it is a prepared asset: an object whose `size` is null (sound) or a
 * positive width and height. Anything else fails here as the plugin's: later it would be a bare TypeError, or a
 * clip of NaN or 0 pixels that no frame shows.
 */
export function checkedPrepared(asset: unknown, plugin: string, path: string): PreparedAsset {
  const size = (asset as { size?: unknown } | undefined)?.size
  const drawable = (n: unknown) => typeof n === 'number' && Number.isFinite(n) && n > 0
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
