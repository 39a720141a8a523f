import { rmSync } from 'node:fs'
import { encoderProcessEnv, ffmpegArgs, runFfmpeg } from '../../core/index.js'
import { x264Args } from '../../plugins/outputs/args.js'
import { measure } from './measure.js'

/**
 * The encoder floor: x264 veryfast CRF 23 (the default quality) alone, re-encoding a render's own frames. The
 * frames are decoded from the render's file into raw I420 on disk first (untimed; 3 MB a 1080p frame), so the
 * measured process only reads a file and encodes — no decoding, no conversion, no other process competing.
 * Every render must pay at least this; what the render tree spends beyond it is overhead. x264 runs as a render
 * runs it: the same arguments (quality `medium`, one frame thread a core) and malloc setting (`encoderProcessEnv`).
 */
export async function encoderFloor(rendered: string, size: { width: number; height: number }, fps: number) {
  const raw = `${rendered}.i420`
  const out = `${rendered}.floor.mp4`
  try {
    await runFfmpeg(ffmpegArgs`-v error -y -i ${rendered} -an -f rawvideo -pix_fmt yuv420p ${raw}`)
    const run = await measure(
      'ffmpeg',
      [
        ...ffmpegArgs`-v error -y -f rawvideo -pix_fmt yuv420p -s ${size.width}x${size.height} -framerate ${fps} -i ${raw}`,
        ...x264Args('medium'),
        '-an',
        '-f',
        'mp4',
        out,
      ],
      { env: encoderProcessEnv(size.width * size.height * 1.5) },
    )
    const cpu = [...run.cpuByRole.values()].reduce((a, b) => a + b, 0)
    return { wallMs: run.wallMs, cpu, peakPss: run.peakPss }
  } finally {
    rmSync(raw, { force: true })
  }
}
