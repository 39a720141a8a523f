import type { FitPlugin } from '../../core/index.js'

/** `crop` (Shotstack's default): fill the box keeping the aspect ratio; overflow is cut off. */
export const crop = {
  kind: 'fit',
  name: 'crop',
  fit(src, box) {
    const s = Math.max(box.width / src.width, box.height / src.height)
    return { width: src.width * s, height: src.height * s }
  },
} satisfies FitPlugin
