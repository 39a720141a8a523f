import { image } from './image.js'
import { title } from './title.js'

/** Built-in asset types. */
export const builtinAssets = [image, title]
