import type { Affine } from './affine.js'
import type { Gpu, Texture } from './gpu.js'

const VERTEX = `
attribute vec2 aUnit;
uniform vec3 uM0;      // affine map, rows: (a, c, e) and (b, d, f)
uniform vec3 uM1;
uniform vec2 uFrame;
uniform vec4 uQuad;    // visible part of the unit square (x0, y0, x1, y1)
uniform vec4 uUV;      // texture window (u0, v0, u1, v1) the unit square maps to
varying vec2 vUV;
void main() {
  vec2 q = mix(uQuad.xy, uQuad.zw, aUnit);
  vec2 p = vec2(dot(uM0, vec3(q, 1.0)), dot(uM1, vec3(q, 1.0)));
  // Pixel row 0 goes to clip-space y = -1, the first row readPixels returns: frames come out top row first.
  gl_Position = vec4(p / uFrame * 2.0 - 1.0, 0.0, 1.0);
  vUV = mix(uUV.xy, uUV.zw, q);
}`

const FRAGMENT = (filter: string) => `
precision mediump float;
uniform sampler2D uTex;
uniform float uOpacity;
varying vec2 vUV;
vec4 look(vec4 c) { ${filter} }
void main() { gl_FragColor = look(texture2D(uTex, vUV)) * uOpacity; }`

/** Per-draw parameters; reused between frames to avoid allocation. */
export interface DrawCall {
  texture: Texture
  matrix: Affine
  opacity: number
  /** Visible part of the layer, in its unit square. */
  quad: [number, number, number, number]
  /** Texture window (asset `crop`, flips). */
  uv: [number, number, number, number]
  /** Index of a filter program from `filters`, or -1. */
  filter: number
}

/** Draws textured quads with premultiplied-alpha blending and reads frames back. One per render. */
export interface Painter {
  begin(): void
  draw(call: DrawCall): void
  /** HOT: reads the frame into `into` (width·height·4 bytes), top row first. */
  read(into: Uint8Array): void
  dispose(): void
}

/**
 * @param background premultiplied RGBA 0..1 the frame is cleared to.
 * @param filters GLSL bodies of `vec4 look(vec4 c)`; each becomes its own program, compiled once here.
 */
export function createPainter(gpu: Gpu, background: [number, number, number, number], filters: readonly string[] = []): Painter {
  const { gl, frame } = gpu
  const sources = ['return c;', ...filters]
  const programs = sources.map((body) => {
    const program = gpu.program(VERTEX, FRAGMENT(body))
    const u = (name: string) => gl.getUniformLocation(program, name)
    return { program, aUnit: gl.getAttribLocation(program, 'aUnit'), m0: u('uM0'), m1: u('uM1'), frame: u('uFrame'), quad: u('uQuad'), uv: u('uUV'), opacity: u('uOpacity'), tex: u('uTex') }
  })
  const buffer = gl.createBuffer()
  gl.bindBuffer(gl.ARRAY_BUFFER, buffer)
  gl.bufferData(gl.ARRAY_BUFFER, new Float32Array([0, 0, 1, 0, 0, 1, 1, 1]), gl.STATIC_DRAW)
  gl.viewport(0, 0, frame.width, frame.height)
  gl.disable(gl.DEPTH_TEST)
  gl.enable(gl.BLEND)
  gl.blendFunc(gl.ONE, gl.ONE_MINUS_SRC_ALPHA)
  gl.activeTexture(gl.TEXTURE0)
  let current = -1

  const use = (index: number) => {
    if (index === current) return
    current = index
    const p = programs[index]!
    gl.useProgram(p.program)
    gl.bindBuffer(gl.ARRAY_BUFFER, buffer)
    gl.enableVertexAttribArray(p.aUnit)
    gl.vertexAttribPointer(p.aUnit, 2, gl.FLOAT, false, 0, 0)
    gl.uniform2f(p.frame, frame.width, frame.height)
    gl.uniform1i(p.tex, 0)
  }

  return {
    begin() {
      gl.bindFramebuffer(gl.FRAMEBUFFER, null)
      gl.clearColor(background[0], background[1], background[2], background[3])
      gl.clear(gl.COLOR_BUFFER_BIT)
    },
    draw(c) {
      use(c.filter + 1)
      const p = programs[c.filter + 1]!
      const m = c.matrix
      gl.uniform3f(p.m0, m[0], m[2], m[4])
      gl.uniform3f(p.m1, m[1], m[3], m[5])
      gl.uniform4f(p.quad, c.quad[0], c.quad[1], c.quad[2], c.quad[3])
      gl.uniform4f(p.uv, c.uv[0], c.uv[1], c.uv[2], c.uv[3])
      gl.uniform1f(p.opacity, c.opacity)
      gl.bindTexture(gl.TEXTURE_2D, c.texture.handle)
      gl.drawArrays(gl.TRIANGLE_STRIP, 0, 4)
    },
    read(into) {
      gl.readPixels(0, 0, frame.width, frame.height, gl.RGBA, gl.UNSIGNED_BYTE, into)
    },
    dispose() {
      for (const p of programs) gl.deleteProgram(p.program)
      gl.deleteBuffer(buffer)
    },
  }
}
