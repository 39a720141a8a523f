import { fade } from './fade.js'
import { slideDown, slideLeft, slideRight, slideUp } from './slide.js'

/** Built-in transitions; each also answers to its `…Slow` and `…Fast` names. */
export const builtinTransitions = [fade, slideLeft, slideRight, slideUp, slideDown]
