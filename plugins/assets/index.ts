import { audio } from './audio.js'
import { html } from './html.js'
import { image } from './image.js'
import { textToImage } from './text-to-image.js'
import { title } from './title.js'
import { video } from './video.js'

/** Built-in asset types. */
export const builtinAssets = [image, title, video, audio, html, textToImage]
