import { contain } from './contain.js'
import { cover } from './cover.js'
import { crop } from './crop.js'
import { none } from './none.js'

/** Shotstack's four fit modes. */
export const builtinFits = [crop, cover, contain, none]
