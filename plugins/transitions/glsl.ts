import { defineTransitionPlugin, type Gpu, type TransitionPlugin } from '../../core/index.js'
import { ONE_SECOND } from './layer-transition.js'

export interface GlslTransitionOptions {
  /** Registry name, e.g. `gl:cube`. `…Slow`/`…Fast` variants come for free. */
  name: string
  /**
   * A gl-transitions.com shader: defines `vec4 transition(vec2 uv)` using `getFromColor(uv)`,
   * `getToColor(uv)`, `progress` and `ratio`; extra `uniform float|vec2|…` parameters take `params`.
   */
  glsl: string
  params?: Record<string, number | boolean | number[]>
  durations?: TransitionPlugin['durations']
}

const VERTEX = `
attribute vec2 aUnit;
varying vec2 vUv;
void main() { vUv = aUnit; gl_Position = vec4(aUnit * 2.0 - 1.0, 0.0, 1.0); }`

/**
 * A whole-frame transition from a GLSL shader in the gl-transitions format. As a clip's `in` it goes from
 * the frame without the clip to the frame with it; as `out`, the other way. Compiled once per clip side.
 * Frames here are stored top row first; uv is flipped so shaders see their usual bottom-left origin.
 * @example
 * createRenderer({ plugins: [defineGlslTransition({ name: 'gl:fadeGrey', glsl: `vec4 transition(vec2 uv) {
 *   return mix(getFromColor(uv), getToColor(uv), progress); }` })] })
 */
export function defineGlslTransition(opts: GlslTransitionOptions): TransitionPlugin {
  return defineTransitionPlugin({
    kind: 'transition',
    name: opts.name,
    durations: opts.durations ?? ONE_SECOND,
    compile: ({ gpu }) => compileGlsl(gpu, opts),
  })
}

function compileGlsl(gpu: Gpu, opts: GlslTransitionOptions) {
  const { gl, frame } = gpu
  const fragment = `precision mediump float;
uniform sampler2D from, to;
uniform float progress, ratio;
varying vec2 vUv;
vec4 getFromColor(vec2 uv) { return texture2D(from, vec2(uv.x, 1.0 - uv.y)); }
vec4 getToColor(vec2 uv) { return texture2D(to, vec2(uv.x, 1.0 - uv.y)); }
#line 1
${opts.glsl}
void main() { gl_FragColor = transition(vec2(vUv.x, 1.0 - vUv.y)); }`
  // `#line 1` numbers the author's glsl from 1: a compile error names their line, not the assembled shader's.
  let program: WebGLProgram
  try {
    program = gpu.program(VERTEX, fragment)
  } catch (e) {
    // The core names this plugin, hook and clip; the GPU is fine, so the compiler's E_GL_UNAVAILABLE must not pass through.
    throw new Error((e as Error).message, { cause: e })
  }
  const buffer = gl.createBuffer()
  gl.bindBuffer(gl.ARRAY_BUFFER, buffer)
  gl.bufferData(gl.ARRAY_BUFFER, new Float32Array([0, 0, 1, 0, 0, 1, 1, 1]), gl.STATIC_DRAW)
  const aUnit = gl.getAttribLocation(program, 'aUnit')
  const uProgress = gl.getUniformLocation(program, 'progress')
  gl.useProgram(program)
  gl.uniform1i(gl.getUniformLocation(program, 'from'), 0)
  gl.uniform1i(gl.getUniformLocation(program, 'to'), 1)
  gl.uniform1f(gl.getUniformLocation(program, 'ratio'), frame.width / frame.height)
  for (const [name, value] of Object.entries(opts.params ?? {})) {
    const loc = gl.getUniformLocation(program, name)
    if (!loc) continue
    const v = Array.isArray(value) ? value : [Number(value)]
    if (typeof value === 'boolean') gl.uniform1i(loc, value ? 1 : 0)
    else if (v.length === 1) gl.uniform1f(loc, v[0]!)
    else if (v.length === 2) gl.uniform2f(loc, v[0]!, v[1]!)
    else if (v.length === 3) gl.uniform3f(loc, v[0]!, v[1]!, v[2]!)
    else if (v.length === 4) gl.uniform4f(loc, v[0]!, v[1]!, v[2]!, v[3]!)
  }
  return {
    apply() {},
    blend(from: { handle: WebGLTexture }, to: { handle: WebGLTexture }, progress: number) {
      gl.useProgram(program)
      gl.bindBuffer(gl.ARRAY_BUFFER, buffer)
      gl.enableVertexAttribArray(aUnit)
      gl.vertexAttribPointer(aUnit, 2, gl.FLOAT, false, 0, 0)
      gl.uniform1f(uProgress, progress)
      gl.activeTexture(gl.TEXTURE1)
      gl.bindTexture(gl.TEXTURE_2D, to.handle)
      gl.activeTexture(gl.TEXTURE0)
      gl.bindTexture(gl.TEXTURE_2D, from.handle)
      gl.disable(gl.BLEND) // the shader's output replaces the frame
      gl.drawArrays(gl.TRIANGLE_STRIP, 0, 4)
      gl.enable(gl.BLEND)
    },
    dispose() {
      gl.deleteProgram(program)
      gl.deleteBuffer(buffer)
    },
  }
}
