import type { FitPlugin } from '../../core/index.js'

/** `contain`: fit entirely inside the box keeping the aspect ratio (letterbox / pillarbox). */
export const contain = {
  kind: 'fit',
  name: 'contain',
  fit(src, box) {
    const s = Math.min(box.width / src.width, box.height / src.height)
    return { width: src.width * s, height: src.height * s }
  },
} satisfies FitPlugin
