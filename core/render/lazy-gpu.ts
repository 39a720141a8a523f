import type { Size } from '../plugin.js'
import { ensureDisplay, ownsDisplay, servedByXvfb } from './display.js'
import { createGLContext, glContextNow } from './gl-context.js'
import { createGpu, type Gpu } from './gpu.js'

/**
 * The GL of one render. Where GL here can only be Mesa drawing on an Xvfb — a software rasteriser, llvmpipe — the
 * context opens when something first needs it (a texture, a program, `gl`), so a render whose frames are all made
 * on the CPU (cover-frames.ts: footage, photos with Ken Burns, titles over them) never loads the driver: 39 MB of
 * the render process (Mesa and LLVM), 47 MB with a 1080p context, measured. Elsewhere (a GPU, the user's own
 * display) it opens at once, as always. `software`: known to be the CPU without asking the driver.
 */
export async function openGpu(frame: Size): Promise<{ gpu: Gpu; software: boolean }> {
  if (!softwareAhead()) return { gpu: createGpu(await createGLContext(frame.width, frame.height), frame), software: false }
  // The display is made ready now: the context may be first needed in the middle of a frame, where nothing waits.
  if (!process.env.DISPLAY || ownsDisplay()) await ensureDisplay()
  return { gpu: lazyGpu(frame, () => glContextNow(frame.width, frame.height)), software: true }
}

/** Whether `gpu` has a context to destroy (a lazy one may never have opened). */
export const glOpened = (gpu: Gpu): boolean => opened.get(gpu)?.() ?? true

const opened = new WeakMap<Gpu, () => boolean>()

/** A `Gpu` whose context `open` makes at its first use. */
function lazyGpu(frame: Size, open: () => WebGLRenderingContext): Gpu {
  let made: Gpu | undefined
  const real = () => (made ??= createGpu(open(), frame))
  const gpu: Gpu = {
    get gl() {
      return real().gl
    },
    frame,
    get maxTextureSize() {
      return real().maxTextureSize
    },
    texture: (rgba, width, height) => real().texture(rgba, width, height),
    update: (texture, rgba) => real().update(texture, rgba),
    release: (texture) => made?.release(texture),
    program: (vertex, fragment) => real().program(vertex, fragment),
  }
  opened.set(gpu, () => made !== undefined)
  return gpu
}

/**
 * True where GL will be Mesa on an Xvfb: one this process starts or started, or a local one `DISPLAY` names (its
 * lock file's process). Xvfb has no direct rendering, so Mesa draws there with llvmpipe — unless another GLX
 * vendor is chosen (`__GLX_VENDOR_LIBRARY_NAME=nvidia`: a GPU through Xvfb) or the GPU pack is asked for.
 */
function softwareAhead(): boolean {
  if (process.env.REELFORGE_GPU_YUV === 'on') return false
  const vendor = process.env.__GLX_VENDOR_LIBRARY_NAME
  if (vendor && vendor !== 'mesa') return false
  const display = process.env.DISPLAY
  return !display || ownsDisplay() || servedByXvfb(display)
}
