import { createCpuYuvPacker } from './cpu-yuv.js'
import type { Gpu } from './gpu.js'
import { createYuvPacker, useGpuYuv, type YuvPacker } from './yuv-pack.js'

/**
 * How frames leave the compositor for an encoder that takes I420: packed on the GPU where it is a real one
 * (`useGpuYuv`), else read back as RGBA and packed in WebAssembly (cpu-yuv.ts) — unless `REELFORGE_CPU_YUV=off`,
 * which leaves RGBA to ffmpeg's swscale (the path before either; kept to compare). Undefined: RGBA.
 */
export function framePacker(gpu: Gpu, software = false): YuvPacker | undefined {
  // `software`: the renderer is known to be the CPU (lazy-gpu.ts) — asking it would open the context.
  if (!software && useGpuYuv(gpu.gl)) {
    try {
      const packer = createYuvPacker(gpu)
      if (packer) return packer
    } catch {
      // A driver that rejects the pack shader: the CPU's packing below, the same picture.
    }
  }
  return process.env.REELFORGE_CPU_YUV === 'off' ? undefined : createCpuYuvPacker(gpu)
}
