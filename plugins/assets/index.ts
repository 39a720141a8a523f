import { audio } from './audio.js'
import { caption } from './caption.js'
import { html } from './html.js'
import { html5 } from './html5.js'
import { image } from './image.js'
import { imageToVideo } from './image-to-video.js'
import { luma } from './luma.js'
import { richCaption } from './rich-caption.js'
import { richText } from './rich-text.js'
import { shape } from './shape.js'
import { svg } from './svg.js'
import { text } from './text.js'
import { textToImage } from './text-to-image.js'
import { textToSpeech } from './text-to-speech.js'
import { title } from './title.js'
import { video } from './video.js'

/** Built-in asset types: all sixteen of Shotstack's. */
export const builtinAssets = [
  image,
  title,
  video,
  audio,
  html,
  textToImage,
  luma,
  text,
  richText,
  svg,
  shape,
  caption,
  richCaption,
  html5,
  textToSpeech,
  imageToVideo,
]
