import { slideDown, slideLeft, slideRight, slideUp } from './slide.js'
import { zoomIn, zoomOut } from './zoom.js'

/** Shotstack's motion effects; each also answers to its `…Slow` and `…Fast` names. */
export const builtinEffects = [zoomIn, zoomOut, slideLeft, slideRight, slideUp, slideDown]
