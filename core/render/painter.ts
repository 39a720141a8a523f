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
varying vec2 vQ;
void main() {
  vec2 q = mix(uQuad.xy, uQuad.zw, aUnit);
  vec2 p = vec2(dot(uM0, vec3(q, 1.0)), dot(uM1, vec3(q, 1.0)));
  // Pixel row 0 goes to clip-space y = -1, the first row readPixels returns: frames come out top row first.
  gl_Position = vec4(p / uFrame * 2.0 - 1.0, 0.0, 1.0);
  vUV = mix(uUV.xy, uUV.zw, q);
  vQ = q;
}`

/** Which variant of the layer shader a draw needs. Each costs per pixel only what it uses. */
interface Variant {
  /** Sampled by a luma matte. */
  masked: boolean
  /** Has a soft-edged wipe (a dynamic branch still costs its full price per pixel on llvmpipe). */
  wiped: boolean
  /** Bleeds past its box: samples inside the box never reach the bleed's texels, nor those outside the box's. */
  held: boolean
  /** The first layer on the freshly cleared frame: the clear colour (premultiplied) it blends onto. */
  onClear?: readonly [number, number, number, number]
}

/**
 * The layer shader: texture → filter (`look`) → soft wipe edge → luma mask → opacity, all premultiplied.
 * `uTex`, `vUV` and `uTexel` (one texel in UV) are in scope for filters that sample neighbours (blur).
 * The `onClear` variant blends onto the known clear colour itself, as constants (a black, opaque background
 * reduces to `vec4(c.rgb, 1.0)`), and GL blending stays off: on a software rasteriser (llvmpipe) reading the
 * destination back costs as much as shading the layer.
 */
const FRAGMENT = (filter: string, v: Variant) => `
#ifdef GL_FRAGMENT_PRECISION_HIGH
precision highp float; // texel-exact (NEAREST) sampling needs UVs finer than one texel of a 4K frame
#else
precision mediump float;
#endif
uniform sampler2D uTex;
uniform vec2 uTexel;
uniform float uOpacity;
${v.wiped ? 'uniform vec4 uWipe;    // (enabled, position 0..1 along x, softness, direction: 1 from left, -1 from right)' : ''}
${v.masked ? 'uniform sampler2D uMask;\nuniform vec2 uFrame2;' : ''}
varying vec2 vUV;
varying vec2 vQ;
// A filter's glsl is numbered from 1 (\`#line\`): a compile error names the author's line, not this shader's.
vec4 look(vec4 c) {
#line 1
${filter}
}
${v.held ? HELD : ''}
void main() {
  vec4 c = look(texture2D(uTex, ${v.held ? 'held(vUV)' : 'vUV'}));
  ${
    v.wiped
      ? `float x = uWipe.w > 0.0 ? vQ.x : 1.0 - vQ.x;
  c *= 1.0 - smoothstep(uWipe.y - uWipe.z, uWipe.y, x);`
      : ''
  }
  ${v.masked ? 'vec4 m = texture2D(uMask, gl_FragCoord.xy / uFrame2); c *= dot(m.rgb, vec3(0.2126, 0.7152, 0.0722));' : ''}
  c *= uOpacity;
  gl_FragColor = ${v.onClear ? overClear(v.onClear) : 'c'};
}`

/**
 * A texture holding a box and a bleed around it (`DrawCall.hold`): each sample stays on its own side of the box's
 * edges, as if the box and the bleed were textures of their own clamped at their edges. The box then draws the
 * very pixels it drew without a bleed (a rotated box's edge does not pick up half a transparent texel) and the
 * bleed none of the box's.
 */
const HELD = `
uniform vec4 uHold;    // the box's window in the texture (u0, v0, u1, v1), u0 < u1 and v0 < v1
vec2 held(vec2 uv) {
  vec2 h = 0.5 * uTexel;
  vec2 before = 1.0 - step(uHold.xy, uv);
  vec2 after = step(uHold.zw, uv);
  vec2 inside = clamp(uv, uHold.xy + h, uHold.zw - h);
  return mix(mix(inside, min(uv, uHold.xy - h), before), max(uv, uHold.zw + h), after);
}`

/** `c` composited over a constant premultiplied colour, as GLSL with the zeros and ones folded away. */
function overClear([r, g, b, a]: readonly [number, number, number, number]): string {
  const f = (x: number) => (Number.isInteger(x) ? `${x}.0` : String(x))
  const rgb = r === 0 && g === 0 && b === 0 ? 'c.rgb' : `c.rgb + vec3(${f(r)}, ${f(g)}, ${f(b)}) * (1.0 - c.a)`
  const alpha = a === 1 ? '1.0' : a === 0 ? 'c.a' : `c.a + ${f(a)} * (1.0 - c.a)`
  return `vec4(${rgb}, ${alpha})`
}

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
  /** Soft-edged wipe: [enabled, position, softness, direction]. */
  wipe: [number, number, number, number]
  /** A frame-sized luma matte (black hides, white shows), or undefined. */
  mask?: Texture
  /** The box's window in a texture that also holds a bleed around it (u0, v0, u1, v1, ascending), or undefined. */
  hold?: readonly [number, number, number, number]
}

/** Draws textured quads with premultiplied-alpha blending and reads frames back. One per render. */
export interface Painter {
  begin(): void
  draw(call: DrawCall): void
  /** Copies the frame drawn so far into scratch texture `slot` (0 or 1), for multi-pass effects. */
  snapshot(slot: 0 | 1): Texture
  /** Renders `fn`'s draws into the luma scratch target (cleared to black) and returns it as a texture. */
  offscreen(fn: () => void): Texture
  /** Forget cached GL state after another program drew (GLSL transitions). */
  reset(): void
  /** HOT: reads the frame into `into` (width·height·4 bytes), top row first. */
  read(into: Uint8Array): void
  dispose(): void
}

/**
 * @param background premultiplied RGBA 0..1 the frame is cleared to.
 * @param filters GLSL bodies of `vec4 look(vec4 c)`; each becomes its own program, compiled once here.
 * @param filterError maps a filter's compile failure (by index) to the error thrown: the plan names its plugin.
 */
export function createPainter(
  gpu: Gpu,
  background: [number, number, number, number],
  filters: readonly string[] = [],
  filterError: (index: number, error: unknown) => unknown = (_, e) => e,
): Painter {
  const { gl, frame } = gpu
  const sources = ['return c;', ...filters]
  const programs = new Map<string, ReturnType<typeof compile>>()
  const compile = (body: string, variant: Variant) => {
    const program = gpu.program(VERTEX, FRAGMENT(body, variant))
    const u = (name: string) => gl.getUniformLocation(program, name)
    return {
      program,
      masked: variant.masked,
      aUnit: gl.getAttribLocation(program, 'aUnit'),
      m0: u('uM0'),
      m1: u('uM1'),
      frame: u('uFrame'),
      frame2: u('uFrame2'),
      quad: u('uQuad'),
      uv: u('uUV'),
      opacity: u('uOpacity'),
      tex: u('uTex'),
      texel: u('uTexel'),
      wipe: u('uWipe'),
      mask: u('uMask'),
      hold: u('uHold'),
    }
  }
  // Programs are compiled at plan time: unmasked for every filter now (a broken filter fails before any
  // frame), the other variants of the same sources on first use.
  const programFor = (filter: number, masked: boolean, wiped: boolean, onClear: boolean, held = false) => {
    const key = `${filter}:${masked}:${wiped}:${onClear}:${held}`
    let p = programs.get(key)
    if (!p) programs.set(key, (p = compile(sources[filter + 1]!, { masked, wiped, held, onClear: onClear ? background : undefined })))
    return p
  }
  sources.forEach((_, i) => {
    try {
      programFor(i - 1, false, false, false)
    } catch (e) {
      throw i === 0 ? e : filterError(i - 1, e)
    }
  })
  /** Sampling filter last set on each texture (they are created LINEAR). */
  const sampling = new WeakMap<Texture, number>()

  const buffer = gl.createBuffer()
  gl.bindBuffer(gl.ARRAY_BUFFER, buffer)
  gl.bufferData(gl.ARRAY_BUFFER, new Float32Array([0, 0, 1, 0, 0, 1, 1, 1]), gl.STATIC_DRAW)
  const scratch: (Texture | undefined)[] = [undefined, undefined, undefined]
  const scratchTexture = (i: number) => (scratch[i] ??= gpu.texture(null, frame.width, frame.height))
  let maskFbo: WebGLFramebuffer | undefined
  let current: ReturnType<typeof compile> | undefined
  /** True from `begin()` until the first draw: the frame holds nothing but the clear colour. */
  let cleared = false
  let blending = true

  const setup = () => {
    gl.viewport(0, 0, frame.width, frame.height)
    gl.disable(gl.DEPTH_TEST)
    gl.enable(gl.BLEND)
    gl.blendFunc(gl.ONE, gl.ONE_MINUS_SRC_ALPHA)
    gl.activeTexture(gl.TEXTURE0)
    current = undefined
    blending = true
  }
  const blend = (on: boolean) => {
    if (on === blending) return
    blending = on
    if (on) gl.enable(gl.BLEND)
    else gl.disable(gl.BLEND)
  }
  /**
   * NEAREST where every pixel centre lands on a texel centre (the usual case: sources are decoded and
   * rasterised at the size they are drawn, at whole-pixel positions) — the same pixels LINEAR gives, at a
   * fraction of a software rasteriser's cost. LINEAR everywhere else. Filters may sample neighbours: LINEAR.
   */
  const sample = (c: DrawCall) => {
    const filter = c.filter === -1 && texelExact(c) ? gl.NEAREST : gl.LINEAR
    if ((sampling.get(c.texture) ?? gl.LINEAR) === filter) return
    sampling.set(c.texture, filter)
    gl.texParameteri(gl.TEXTURE_2D, gl.TEXTURE_MIN_FILTER, filter)
    gl.texParameteri(gl.TEXTURE_2D, gl.TEXTURE_MAG_FILTER, filter)
  }
  setup()

  const use = (p: ReturnType<typeof compile>) => {
    if (p === current) return
    current = p
    gl.useProgram(p.program)
    gl.bindBuffer(gl.ARRAY_BUFFER, buffer)
    gl.enableVertexAttribArray(p.aUnit)
    gl.vertexAttribPointer(p.aUnit, 2, gl.FLOAT, false, 0, 0)
    gl.uniform2f(p.frame, frame.width, frame.height)
    gl.uniform1i(p.tex, 0)
    if (p.masked) {
      gl.uniform2f(p.frame2, frame.width, frame.height)
      gl.uniform1i(p.mask, 1)
    }
  }

  const painter: Painter = {
    begin() {
      gl.bindFramebuffer(gl.FRAMEBUFFER, null)
      setup()
      gl.clearColor(background[0], background[1], background[2], background[3])
      gl.clear(gl.COLOR_BUFFER_BIT)
      cleared = true
    },
    draw(c) {
      const onClear = cleared
      cleared = false
      const wiped = c.wipe[0] > 0.5
      const p = programFor(c.filter, !!c.mask, wiped, onClear, !!c.hold)
      use(p)
      blend(!onClear)
      const m = c.matrix
      gl.uniform3f(p.m0, m[0], m[2], m[4])
      gl.uniform3f(p.m1, m[1], m[3], m[5])
      gl.uniform4f(p.quad, c.quad[0], c.quad[1], c.quad[2], c.quad[3])
      gl.uniform4f(p.uv, c.uv[0], c.uv[1], c.uv[2], c.uv[3])
      gl.uniform1f(p.opacity, c.opacity)
      gl.uniform2f(p.texel, 1 / c.texture.width, 1 / c.texture.height)
      if (wiped) gl.uniform4f(p.wipe, c.wipe[0], c.wipe[1], c.wipe[2], c.wipe[3])
      if (c.hold) gl.uniform4f(p.hold, c.hold[0], c.hold[1], c.hold[2], c.hold[3])
      if (c.mask) {
        gl.activeTexture(gl.TEXTURE1)
        gl.bindTexture(gl.TEXTURE_2D, c.mask.handle)
        gl.activeTexture(gl.TEXTURE0)
      }
      gl.bindTexture(gl.TEXTURE_2D, c.texture.handle)
      sample(c)
      gl.drawArrays(gl.TRIANGLE_STRIP, 0, 4)
    },
    snapshot(slot) {
      cleared = false // a multi-pass effect draws next; keep to the general path
      const t = scratchTexture(slot)
      gl.bindTexture(gl.TEXTURE_2D, t.handle)
      gl.copyTexSubImage2D(gl.TEXTURE_2D, 0, 0, 0, 0, 0, frame.width, frame.height)
      return t
    },
    offscreen(fn) {
      const t = scratchTexture(2)
      if (!maskFbo) {
        maskFbo = gl.createFramebuffer()!
        gl.bindFramebuffer(gl.FRAMEBUFFER, maskFbo)
        gl.framebufferTexture2D(gl.FRAMEBUFFER, gl.COLOR_ATTACHMENT0, gl.TEXTURE_2D, t.handle, 0)
      }
      gl.bindFramebuffer(gl.FRAMEBUFFER, maskFbo)
      gl.clearColor(0, 0, 0, 1)
      gl.clear(gl.COLOR_BUFFER_BIT)
      const mainCleared = cleared
      cleared = false // the matte's draws blend onto its own black
      fn()
      cleared = mainCleared
      gl.bindFramebuffer(gl.FRAMEBUFFER, null)
      return t
    },
    reset() {
      cleared = false
      gl.bindFramebuffer(gl.FRAMEBUFFER, null)
      setup()
    },
    read(into) {
      gl.readPixels(0, 0, frame.width, frame.height, gl.RGBA, gl.UNSIGNED_BYTE, into)
    },
    dispose() {
      for (const p of programs.values()) gl.deleteProgram(p.program)
      for (const t of scratch) if (t) gpu.release(t)
      if (maskFbo) gl.deleteFramebuffer(maskFbo)
      gl.deleteBuffer(buffer)
    },
  }
  return painter
}

/** Whether each pixel centre the draw covers samples exactly one texel centre: axis-aligned, one texel per pixel, whole-texel offset. */
export function texelExact(c: DrawCall): boolean {
  // HOT (every draw): plain indexing, no destructuring.
  const m = c.matrix
  const a = m[0],
    d = m[3],
    e = m[4],
    f = m[5]
  if (m[1] !== 0 || m[2] !== 0 || a <= 0 || d <= 0) return false
  const du = (c.uv[2] - c.uv[0]) * c.texture.width
  const dv = (c.uv[3] - c.uv[1]) * c.texture.height
  if (Math.abs(a - du) > 1e-3 || Math.abs(d - dv) > 1e-3) return false
  // Pixel centre x + ½ samples texel u0·W + (x + ½ − e): a texel centre when u0·W − e is a whole number.
  const ox = c.uv[0] * c.texture.width - e
  const oy = c.uv[1] * c.texture.height - f
  return Math.abs(ox - Math.round(ox)) < 1e-3 && Math.abs(oy - Math.round(oy)) < 1e-3
}
