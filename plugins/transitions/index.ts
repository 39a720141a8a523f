import { carouselDown, carouselLeft, carouselRight, carouselUp } from './carousel.js'
import { fade } from './fade.js'
import { glTransitions } from './gl-transitions.js'
import { reveal } from './reveal.js'
import {
  shuffleBottomLeft,
  shuffleBottomRight,
  shuffleLeftBottom,
  shuffleLeftTop,
  shuffleRightBottom,
  shuffleRightTop,
  shuffleTopLeft,
  shuffleTopRight,
} from './shuffle.js'
import { slideDown, slideLeft, slideRight, slideUp } from './slide.js'
import { wipeLeft, wipeRight } from './wipe.js'
import { zoom } from './zoom.js'

/** Shotstack's 20 transition families (each with `…Slow`/`…Fast`; `zoom` alone), and `gl:<name>` from gl-transitions. */
export const builtinTransitions = [
  fade,
  reveal,
  wipeLeft,
  wipeRight,
  slideLeft,
  slideRight,
  slideUp,
  slideDown,
  carouselLeft,
  carouselRight,
  carouselUp,
  carouselDown,
  shuffleTopRight,
  shuffleRightTop,
  shuffleRightBottom,
  shuffleBottomRight,
  shuffleBottomLeft,
  shuffleLeftBottom,
  shuffleLeftTop,
  shuffleTopLeft,
  zoom,
  ...glTransitions(),
]
export { defineGlslTransition } from './glsl.js'
export type { GlslTransitionOptions } from './glsl.js'
