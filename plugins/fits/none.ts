import type { FitPlugin } from '../../core/index.js'

/** `none`: the asset's own pixel size, unscaled. */
export const none = {
  kind: 'fit',
  name: 'none',
  fit: (src) => ({ width: src.width, height: src.height }),
} satisfies FitPlugin
