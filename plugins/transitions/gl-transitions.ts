import { createRequire } from 'node:module'
import type { TransitionPlugin } from '../../core/index.js'
import { defineGlslTransition } from './glsl.js'

interface GlTransition {
  name: string
  glsl: string
  defaultParams: Record<string, number | boolean | number[]>
  paramsTypes: Record<string, string>
}

/**
 * The gl-transitions collection (MIT, npm `gl-transitions`) as transitions named `gl:<name>` — e.g.
 * `"transition": { "in": "gl:cube" }`. Shaders that need an extra texture (`sampler2D` parameters) are left out.
 */
export function glTransitions(): TransitionPlugin[] {
  const all = createRequire(import.meta.url)('gl-transitions') as GlTransition[]
  return all
    .filter((t) => !Object.values(t.paramsTypes).includes('sampler2D'))
    .map((t) => defineGlslTransition({ name: `gl:${t.name}`, glsl: t.glsl, params: t.defaultParams }))
}
