import { mp4 } from './mp4.js'

/** Built-in output formats. */
export const builtinOutputs = [mp4]
