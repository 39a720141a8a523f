import type { FitPlugin } from '../../core/index.js'

/** `cover`: stretch to fill the box exactly, ignoring the aspect ratio (Shotstack's meaning, not CSS's). */
export const cover = {
  kind: 'fit',
  name: 'cover',
  fit: (_src, box) => ({ width: box.width, height: box.height }),
} satisfies FitPlugin
