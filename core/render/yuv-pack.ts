import { rendererName } from './gl-context.js'
import type { Gpu, Texture } from './gpu.js'

const VERTEX = 'attribute vec2 aUnit; void main() { gl_Position = vec4(aUnit * 2.0 - 1.0, 0.0, 1.0); }'

/**
 * One texel of the target holds 4 consecutive bytes of the I420 frame (Y plane, then U, then V, rows top
 * first), so `readPixels` of the target returns the planes exactly as ffmpeg's `-pix_fmt yuv420p` reads them.
 * BT.709 in TV range, as the CPU path's `scale=out_color_matrix=bt709:out_range=tv`; chroma is the mean of
 * each 2×2 block (centre-sited between its four pixels, as swscale's yuv420p). Index maths in floats is exact:
 * a 4K frame has 12.4 M bytes, under float's 16.7 M whole numbers.
 */
const FRAGMENT = `
precision highp float;
uniform sampler2D uFrame;
uniform vec2 uSize;      // frame width, height
uniform float uTexels;   // target width in texels
vec3 rgb(vec2 p) { return texture2D(uFrame, (p + 0.5) / uSize).rgb; }
float luma(vec3 c) { return (16.0 + 219.0 * dot(c, vec3(0.2126, 0.7152, 0.0722))) / 255.0; }
vec2 chroma(vec3 c) {
  float y = dot(c, vec3(0.2126, 0.7152, 0.0722));
  return (128.0 + 224.0 * vec2((c.b - y) / 1.8556, (c.r - y) / 1.5748)) / 255.0;
}
float byteAt(float i) {
  float w = uSize.x, h = uSize.y, ySize = w * h, cw = w * 0.5, cSize = cw * h * 0.5;
  if (i < ySize) { float row = floor(i / w); return luma(rgb(vec2(i - row * w, row))); }
  float j = i - ySize;
  bool v = j >= cSize;
  if (v) j -= cSize;
  float row = floor(j / cw), col = j - row * cw;
  vec2 p = vec2(col, row) * 2.0;
  vec3 c = 0.25 * (rgb(p) + rgb(p + vec2(1.0, 0.0)) + rgb(p + vec2(0.0, 1.0)) + rgb(p + vec2(1.0, 1.0)));
  vec2 uv = chroma(c);
  return v ? uv.y : uv.x;
}
void main() {
  vec2 t = floor(gl_FragCoord.xy);
  float i = (t.y * uTexels + t.x) * 4.0;
  gl_FragColor = vec4(byteAt(i), byteAt(i + 1.0), byteAt(i + 2.0), byteAt(i + 3.0));
}`

/** Reads composited frames as I420 (1.5 bytes a pixel) instead of RGBA (4). */
export interface YuvPacker {
  /** Bytes of one packed frame: width · height · 3/2. */
  readonly bytes: number
  /** HOT: packs the frame drawn in the default framebuffer and reads it into `into`; leaves GL state to the painter's next `begin()`. */
  read(into: Uint8Array): void
  dispose(): void
}

/** A packer for `gpu`'s frame size, or undefined where the planes do not fill whole texel rows (width not a multiple of 4, odd height). */
export function createYuvPacker(gpu: Gpu): YuvPacker | undefined {
  const { gl, frame } = gpu
  const { width, height } = frame
  if (width % 4 !== 0 || height % 2 !== 0) return undefined
  const texels = width / 4
  const rows = (height * 3) / 2
  const program = gpu.program(VERTEX, FRAGMENT)
  const copy: Texture = gpu.texture(null, width, height)
  const target: Texture = gpu.texture(null, texels, rows)
  for (const t of [copy, target]) {
    gl.bindTexture(gl.TEXTURE_2D, t.handle)
    gl.texParameteri(gl.TEXTURE_2D, gl.TEXTURE_MIN_FILTER, gl.NEAREST)
    gl.texParameteri(gl.TEXTURE_2D, gl.TEXTURE_MAG_FILTER, gl.NEAREST)
  }
  const fbo = gl.createFramebuffer()!
  gl.bindFramebuffer(gl.FRAMEBUFFER, fbo)
  gl.framebufferTexture2D(gl.FRAMEBUFFER, gl.COLOR_ATTACHMENT0, gl.TEXTURE_2D, target.handle, 0)
  gl.bindFramebuffer(gl.FRAMEBUFFER, null)
  const quad = gl.createBuffer()
  gl.bindBuffer(gl.ARRAY_BUFFER, quad)
  gl.bufferData(gl.ARRAY_BUFFER, new Float32Array([0, 0, 1, 0, 0, 1, 1, 1]), gl.STATIC_DRAW)
  const aUnit = gl.getAttribLocation(program, 'aUnit')
  gl.useProgram(program)
  gl.uniform1i(gl.getUniformLocation(program, 'uFrame'), 0)
  gl.uniform2f(gl.getUniformLocation(program, 'uSize'), width, height)
  gl.uniform1f(gl.getUniformLocation(program, 'uTexels'), texels)

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
      gl.useProgram(program)
      gl.bindBuffer(gl.ARRAY_BUFFER, quad)
      gl.enableVertexAttribArray(aUnit)
      gl.vertexAttribPointer(aUnit, 2, gl.FLOAT, false, 0, 0)
      gl.drawArrays(gl.TRIANGLE_STRIP, 0, 4)
      gl.readPixels(0, 0, texels, rows, gl.RGBA, gl.UNSIGNED_BYTE, into)
      gl.bindFramebuffer(gl.FRAMEBUFFER, null)
    },
    dispose() {
      gl.deleteProgram(program)
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
