import { rendererName } from './gl-context.js'
import type { Gpu, Texture } from './gpu.js'

/** A quad over the target's rows `uSpan` (clip-space y from, to): the Y rows, or the chroma rows. */
const VERTEX = `
attribute vec2 aUnit;
uniform vec2 uSpan;
void main() { gl_Position = vec4(aUnit.x * 2.0 - 1.0, mix(uSpan.x, uSpan.y, aUnit.y), 0.0, 1.0); }`

/**
 * One texel of the target holds 4 consecutive bytes of the I420 frame (Y plane, then U, then V, rows top
 * first), so `readPixels` of the target returns the planes exactly as ffmpeg's `-pix_fmt yuv420p` reads them.
 * BT.709 in TV range, as the CPU path's `scale=out_color_matrix=bt709:out_range=tv`. Two programs, so neither
 * pays for the other's branch (a software rasteriser runs both sides): the Y rows read 4 pixels of one row;
 * the chroma rows read each 2×2 block's mean in one bilinear fetch at its centre. Index maths in floats is
 * exact: a 4K frame has 12.4 M bytes, under float's 16.7 M whole numbers.
 */
const HEADER = `
precision highp float;
uniform sampler2D uFrame;
uniform vec2 uSize;      // frame width, height
uniform float uTexels;   // target width in texels
const vec3 BT709 = vec3(0.2126, 0.7152, 0.0722);`

const LUMA = `${HEADER}
float luma(float x, float y) { return (16.0 + 219.0 * dot(texture2D(uFrame, vec2(x + 0.5, y + 0.5) / uSize).rgb, BT709)) / 255.0; }
void main() {
  vec2 t = floor(gl_FragCoord.xy);
  float x = t.x * 4.0;
  gl_FragColor = vec4(luma(x, t.y), luma(x + 1.0, t.y), luma(x + 2.0, t.y), luma(x + 3.0, t.y));
}`

const CHROMA = `${HEADER}
uniform float uFirstRow; // the first chroma row of the target
float chroma(float j) {
  float cw = uSize.x * 0.5, cSize = cw * uSize.y * 0.5;
  bool v = j >= cSize;
  float k = v ? j - cSize : j;
  float row = floor((k + 0.5) / cw); // + 0.5: a GPU divides by a reciprocal, and an exact multiple may land just below
  vec3 c = texture2D(uFrame, vec2(k - row * cw, row) * 2.0 / uSize + 1.0 / uSize).rgb; // the block's centre: its mean
  float y = dot(c, BT709);
  return (128.0 + 224.0 * (v ? (c.r - y) / 1.5748 : (c.b - y) / 1.8556)) / 255.0;
}
void main() {
  vec2 t = floor(gl_FragCoord.xy);
  float j = ((t.y - uFirstRow) * uTexels + t.x) * 4.0;
  gl_FragColor = vec4(chroma(j), chroma(j + 1.0), chroma(j + 2.0), chroma(j + 3.0));
}`

/** Reads composited frames as I420 (1.5 bytes a pixel) instead of RGBA (4). */
export interface YuvPacker {
  /** Bytes of one packed frame: width · height · 3/2. */
  readonly bytes: number
  /** HOT: packs the frame drawn in the default framebuffer and reads it into `into`; leaves GL state to the painter's next `begin()`. */
  read(into: Uint8Array): void
  /**
   * Packs an RGBA frame from memory (a frame no one drew: cover.ts) into `into`; only a packer on the CPU can, and
   * it packs as rgba-to-i420.wat does (frames made around the GPU use that kernel directly: cpu-warp.ts, cpu-rgba.ts).
   */
  pack?(rgba: Uint8Array, into: Uint8Array): void
  dispose(): void
}

/** A packer for `gpu`'s frame size, or undefined where the planes do not fill whole texel rows (width not a multiple of 4, odd height). */
export function createYuvPacker(gpu: Gpu): YuvPacker | undefined {
  const { gl, frame } = gpu
  const { width, height } = frame
  if (width % 4 !== 0 || height % 2 !== 0) return undefined
  const texels = width / 4
  const rows = (height * 3) / 2
  const luma = gpu.program(VERTEX, LUMA)
  const chroma = gpu.program(VERTEX, CHROMA)
  const copy: Texture = gpu.texture(null, width, height)
  const target: Texture = gpu.texture(null, texels, rows)
  gl.bindTexture(gl.TEXTURE_2D, target.handle)
  gl.texParameteri(gl.TEXTURE_2D, gl.TEXTURE_MIN_FILTER, gl.NEAREST)
  gl.texParameteri(gl.TEXTURE_2D, gl.TEXTURE_MAG_FILTER, gl.NEAREST)
  const fbo = gl.createFramebuffer()!
  gl.bindFramebuffer(gl.FRAMEBUFFER, fbo)
  gl.framebufferTexture2D(gl.FRAMEBUFFER, gl.COLOR_ATTACHMENT0, gl.TEXTURE_2D, target.handle, 0)
  gl.bindFramebuffer(gl.FRAMEBUFFER, null)
  const quad = gl.createBuffer()
  gl.bindBuffer(gl.ARRAY_BUFFER, quad)
  gl.bufferData(gl.ARRAY_BUFFER, new Float32Array([0, 0, 1, 0, 0, 1, 1, 1]), gl.STATIC_DRAW)
  // Clip-space y where the Y rows end and the chroma rows begin (row H of 3H/2).
  const split = -1 + (2 * height) / rows
  for (const [program, span] of [
    [luma, [-1, split]],
    [chroma, [split, 1]],
  ] as const) {
    gl.useProgram(program)
    gl.uniform1i(gl.getUniformLocation(program, 'uFrame'), 0)
    gl.uniform2f(gl.getUniformLocation(program, 'uSize'), width, height)
    gl.uniform1f(gl.getUniformLocation(program, 'uTexels'), texels)
    gl.uniform2f(gl.getUniformLocation(program, 'uSpan'), span[0], span[1])
  }
  gl.useProgram(chroma)
  gl.uniform1f(gl.getUniformLocation(chroma, 'uFirstRow'), height)
  const units = new Map([luma, chroma].map((p) => [p, gl.getAttribLocation(p, 'aUnit')]))
  const draw = (program: WebGLProgram, filter: number) => {
    gl.useProgram(program)
    gl.texParameteri(gl.TEXTURE_2D, gl.TEXTURE_MIN_FILTER, filter)
    gl.texParameteri(gl.TEXTURE_2D, gl.TEXTURE_MAG_FILTER, filter)
    const aUnit = units.get(program)!
    gl.enableVertexAttribArray(aUnit)
    gl.vertexAttribPointer(aUnit, 2, gl.FLOAT, false, 0, 0)
    gl.drawArrays(gl.TRIANGLE_STRIP, 0, 4)
  }

  return {
    bytes: (width * height * 3) / 2,
    read(into) {
      // The frame as a texture (a copy on the GPU), then one pass over the small target.
      gl.activeTexture(gl.TEXTURE0)
      gl.bindTexture(gl.TEXTURE_2D, copy.handle)
      gl.copyTexSubImage2D(gl.TEXTURE_2D, 0, 0, 0, 0, 0, width, height)
      gl.bindFramebuffer(gl.FRAMEBUFFER, fbo)
      gl.viewport(0, 0, texels, rows)
      gl.disable(gl.BLEND)
      gl.bindBuffer(gl.ARRAY_BUFFER, quad)
      // Y reads pixel centres (NEAREST: exact, and cheapest on a software rasteriser); chroma reads block centres (LINEAR: the mean).
      draw(luma, gl.NEAREST)
      draw(chroma, gl.LINEAR)
      gl.readPixels(0, 0, texels, rows, gl.RGBA, gl.UNSIGNED_BYTE, into)
      gl.bindFramebuffer(gl.FRAMEBUFFER, null)
    },
    dispose() {
      gl.deleteProgram(luma)
      gl.deleteProgram(chroma)
      gl.deleteFramebuffer(fbo)
      gl.deleteBuffer(quad)
      gpu.release(copy)
      gpu.release(target)
    },
  }
}

/** Renderers that are the CPU under another name: there the pack pass costs more than ffmpeg's SIMD conversion. */
const SOFTWARE = /llvmpipe|softpipe|swiftshader|software/i

/**
 * Whether frames are converted to I420 on the GPU: `REELFORGE_GPU_YUV=on|off` decides; by default only on a
 * hardware renderer. On Mesa llvmpipe the pass measured 1.16–1.22× slower than swscale (benchmarks/README.md).
 */
export function useGpuYuv(gl: WebGLRenderingContext): boolean {
  const asked = process.env.REELFORGE_GPU_YUV
  if (asked === 'on' || asked === 'off') return asked === 'on'
  return !SOFTWARE.test(rendererName(gl))
}
