import { readFile, rm } from 'node:fs/promises'
import { join } from 'node:path'
import type { RenderPlan } from '../plan/plan.js'
import { encodePng } from '../render/png.js'

let next = 0

/**
 * The frame the plan's painter holds, as the `png` output writes it: encoded here (no process to start) when
 * it is written at the drawn size, else through the output itself, which scales it as a render does.
 */
export async function encodeFrame(plan: RenderPlan, tmpDir: string): Promise<Buffer> {
  const { width, height } = plan.frame
  const rgba = new Uint8Array(width * height * 4)
  plan.painter.read(rgba)
  if (!plan.scaleTo) return encodePng(rgba, width, height)
  const path = join(tmpDir, `frame-${next++}.png`)
  const sink = await plan.output.open({
    path,
    width,
    height,
    scaleTo: plan.scaleTo,
    fps: plan.fps,
    fpsRational: plan.fpsRational,
    frames: 1,
    duration: 1 / plan.fps,
    quality: plan.edit.output.quality,
    signal: new AbortController().signal,
    pixelFormat: 'rgba',
  })
  await sink.write(rgba)
  await sink.close()
  try {
    return await readFile(path)
  } finally {
    await rm(path, { force: true })
  }
}
