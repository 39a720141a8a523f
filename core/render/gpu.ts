import { RenderError } from '../errors.js'
import type { Size } from '../plugin.js'

/** A GPU texture holding premultiplied RGBA, top row first. */
export interface Texture {
  readonly handle: WebGLTexture
  readonly width: number
  readonly height: number
}

/** The GL context of one render plus the few helpers plugins need. */
export interface Gpu {
  readonly gl: WebGLRenderingContext
  /** Output frame size. */
  readonly frame: Size
  readonly maxTextureSize: number
  /** Uploads premultiplied RGBA (top row first) into a new texture. Cold: once per clip, never per frame. */
  texture(rgba: Uint8Array | null, width: number, height: number): Texture
  /** Replaces a texture's pixels (same size): the one upload a video frame costs. */
  update(texture: Texture, rgba: Uint8Array): void
  release(texture: Texture): void
  /** Compiles and links a program; throws with the GL info log. */
  program(vertex: string, fragment: string): WebGLProgram
}

/** Wraps a context made by `createGLContext`. */
export function createGpu(gl: WebGLRenderingContext, frame: Size): Gpu {
  const maxTextureSize = gl.getParameter(gl.MAX_TEXTURE_SIZE) as number
  return {
    gl,
    frame,
    maxTextureSize,
    texture(rgba, width, height) {
      if (width > maxTextureSize || height > maxTextureSize) {
        throw new RenderError('E_ASSET_TOO_LARGE', `a ${width}x${height} texture exceeds the GPU limit ${maxTextureSize}`)
      }
      const handle = gl.createTexture()!
      gl.bindTexture(gl.TEXTURE_2D, handle)
      gl.texParameteri(gl.TEXTURE_2D, gl.TEXTURE_MIN_FILTER, gl.LINEAR)
      gl.texParameteri(gl.TEXTURE_2D, gl.TEXTURE_MAG_FILTER, gl.LINEAR)
      gl.texParameteri(gl.TEXTURE_2D, gl.TEXTURE_WRAP_S, gl.CLAMP_TO_EDGE)
      gl.texParameteri(gl.TEXTURE_2D, gl.TEXTURE_WRAP_T, gl.CLAMP_TO_EDGE)
      gl.texImage2D(gl.TEXTURE_2D, 0, gl.RGBA, width, height, 0, gl.RGBA, gl.UNSIGNED_BYTE, rgba)
      return { handle, width, height }
    },
    update(texture, rgba) {
      gl.bindTexture(gl.TEXTURE_2D, texture.handle)
      gl.texSubImage2D(gl.TEXTURE_2D, 0, 0, 0, texture.width, texture.height, gl.RGBA, gl.UNSIGNED_BYTE, rgba)
    },
    release(texture) {
      gl.deleteTexture(texture.handle)
    },
    program(vertex, fragment) {
      const compile = (type: number, source: string) => {
        const shader = gl.createShader(type)!
        gl.shaderSource(shader, source)
        gl.compileShader(shader)
        if (!gl.getShaderParameter(shader, gl.COMPILE_STATUS)) {
          const log = gl.getShaderInfoLog(shader)
          gl.deleteShader(shader)
          throw new RenderError('E_GL_UNAVAILABLE', `shader compile failed: ${log}`)
        }
        return shader
      }
      const program = gl.createProgram()!
      const vs = compile(gl.VERTEX_SHADER, vertex)
      const fs = compile(gl.FRAGMENT_SHADER, fragment)
      gl.attachShader(program, vs)
      gl.attachShader(program, fs)
      gl.linkProgram(program)
      gl.deleteShader(vs)
      gl.deleteShader(fs)
      if (!gl.getProgramParameter(program, gl.LINK_STATUS)) {
        throw new RenderError('E_GL_UNAVAILABLE', `program link failed: ${gl.getProgramInfoLog(program)}`)
      }
      return program
    },
  }
}
