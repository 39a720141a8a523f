import createGL from 'gl'
import { RenderError } from '../errors.js'
import { ensureDisplay } from './display.js'

/**
 * Creates a headless WebGL 1 context of the given size. Without an X server headless-gl returns null;
 * then a private Xvfb is started (see display.ts) and the context is created again.
 */
export async function createGLContext(width: number, height: number): Promise<WebGLRenderingContext> {
  const gl = createGL(width, height, OPTIONS)
  if (gl) return checked(gl, width, height)
  await ensureDisplay()
  return glContextNow(width, height)
}

/** A context on the display there is now (lazy-gpu.ts opens one when a frame first needs GL): no Xvfb started here. */
export function glContextNow(width: number, height: number): WebGLRenderingContext {
  const gl = createGL(width, height, OPTIONS)
  if (!gl) {
    throw new RenderError(
      'E_GL_UNAVAILABLE',
      `headless-gl could not create a ${width}x${height} context (DISPLAY=${process.env.DISPLAY ?? 'unset'}); is Mesa (libgl1-mesa-dri) installed?`,
    )
  }
  return checked(gl, width, height)
}

const OPTIONS = { alpha: true, depth: false, stencil: false, antialias: false, premultipliedAlpha: true, preserveDrawingBuffer: true }

function checked(gl: WebGLRenderingContext, width: number, height: number): WebGLRenderingContext {
  const max = gl.getParameter(gl.MAX_TEXTURE_SIZE) as number
  if (width > max || height > max) {
    destroyGLContext(gl)
    throw new RenderError('E_GL_UNAVAILABLE', `output ${width}x${height} exceeds this GPU's maximum texture size ${max}`)
  }
  return gl
}

/** Frees the context's native resources now instead of at garbage collection. */
export function destroyGLContext(gl: WebGLRenderingContext): void {
  const ext = gl.getExtension('STACKGL_destroy_context') as { destroy(): void } | null
  ext?.destroy()
}

/**
 * The driver's renderer string, e.g. `ANGLE (Mesa/X.org llvmpipe (LLVM 15.0.6, 256 bits) OpenGL 4.5 core)` or
 * `ANGLE (NVIDIA Corporation NVIDIA H100 …)`. headless-gl answers WebGL's `RENDERER` with a fixed "ANGLE" and
 * has no debug-renderer extension; its own direct query reaches the driver.
 */
export function rendererName(gl: WebGLRenderingContext): string {
  const direct = (gl as unknown as { _getParameterDirect?: (p: number) => unknown })._getParameterDirect
  return String(direct ? direct.call(gl, gl.RENDERER) : gl.getParameter(gl.RENDERER))
}
