import { blur } from './blur.js'
import { boost, contrast, darken, greyscale, lighten, muted, negative } from './color.js'

/** Shotstack's eight filters (`none` needs no plugin). */
export const builtinFilters = [blur, boost, contrast, darken, greyscale, lighten, muted, negative]
