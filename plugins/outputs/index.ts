import { gif } from './gif.js'
import { mov } from './mov.js'
import { mp3 } from './mp3.js'
import { mp4 } from './mp4.js'
import { bmp, jpg, png } from './stills.js'
import { webm } from './webm.js'

/** Built-in output formats: the seed's four video formats and Shotstack's stills and mp3. */
export const builtinOutputs = [mp4, webm, mov, gif, jpg, png, bmp, mp3]
