import type { FilterPlugin } from '../../core/index.js'

/**
 * Shotstack's colour filters as GLSL on premultiplied colour (`c.rgb` already × `c.a`). Colour maths that
 * is not linear (contrast, saturation) works on the un-premultiplied colour and premultiplies again.
 */
const LUMA = 'vec3(0.2126, 0.7152, 0.0722)'
const unpremultiplied = (body: string) => `vec3 u = c.a > 0.0 ? c.rgb / c.a : vec3(0.0); ${body} return vec4(clamp(u, 0.0, 1.0) * c.a, c.a);`

const filter = (name: string, glsl: string): FilterPlugin => ({ kind: 'filter', name, glsl })

/** `greyscale`: luminance (Rec. 709 weights) in all three channels. */
export const greyscale = filter('greyscale', `float y = dot(c.rgb, ${LUMA}); return vec4(y, y, y, c.a);`)
/** `negative`: inverted colours (alpha kept). */
export const negative = filter('negative', 'return vec4(c.a - c.rgb, c.a);')
/** `darken`: 40 % darker. */
export const darken = filter('darken', 'return vec4(c.rgb * 0.6, c.a);')
/** `lighten`: a third of the way to white. */
export const lighten = filter('lighten', 'return vec4(c.rgb + (c.a - c.rgb) * 0.35, c.a);')
/** `contrast`: stronger contrast about mid-grey. */
export const contrast = filter('contrast', unpremultiplied('u = (u - 0.5) * 1.5 + 0.5;'))
/** `boost`: more contrast and saturation. */
export const boost = filter('boost', unpremultiplied(`u = (u - 0.5) * 1.2 + 0.5; float y = dot(u, ${LUMA}); u = mix(vec3(y), u, 1.6);`))
/** `muted`: less saturation and contrast. */
export const muted = filter('muted', unpremultiplied(`float y = dot(u, ${LUMA}); u = mix(vec3(y), u, 0.45); u = (u - 0.5) * 0.85 + 0.5;`))
