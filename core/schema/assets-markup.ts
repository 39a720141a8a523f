import * as v from 'valibot'
import { Color, int, num, oneOf } from './primitives.js'
import { POSITIONS } from './names.js'

/** `html` (deprecated in Shotstack, in the seed): HTML4/CSS2.1 laid out in a `width`×`height` box. */
export const HtmlAssetSchema = v.object({
  type: v.literal('html'),
  html: v.string(),
  css: v.optional(v.string()),
  width: v.optional(int(1, 7680)),
  height: v.optional(int(1, 7680)),
  background: v.optional(Color),
  position: v.optional(oneOf(POSITIONS)),
})

/** `html5`: HTML/CSS/JS; rendered statically (scripts never run). */
export const Html5AssetSchema = v.object({
  type: v.literal('html5'),
  html: v.pipe(v.string(), v.maxLength(1_000_000, 'must be at most 1,000,000 characters')),
  css: v.optional(v.pipe(v.string(), v.maxLength(500_000, 'must be at most 500,000 characters'))),
  js: v.optional(v.pipe(v.string(), v.maxLength(500_000, 'must be at most 500,000 characters'))),
})

/** `shape`: a rectangle, circle or line. */
export const ShapeAssetSchema = v.object({
  type: v.literal('shape'),
  shape: oneOf(['rectangle', 'circle', 'line'] as const),
  width: v.optional(num(1)),
  height: v.optional(num(1)),
  fill: v.optional(v.object({ color: v.optional(Color), opacity: v.optional(num(0, 1)) })),
  stroke: v.optional(v.object({ color: v.optional(Color), width: v.optional(num(0)) })),
  rectangle: v.optional(v.object({ width: num(0), height: num(0), cornerRadius: v.optional(num(0)) })),
  circle: v.optional(v.object({ radius: num(0) })),
  line: v.optional(v.object({ length: num(0), thickness: num(0) })),
})

/** `svg`: raw SVG markup, rasterised once. */
export const SvgAssetSchema = v.object({
  type: v.literal('svg'),
  src: v.pipe(v.string(), v.maxLength(500_000, 'must be at most 500,000 characters')),
  opacity: v.optional(num(0, 1)),
})
