import type { OutputSpec } from '../../core/index.js'

/**
 * Shotstack's `quality` as x264 settings: CRF for the look, preset for the time it takes. `medium` (the
 * default) uses `veryfast`, which keeps 1080p encoding near realtime on two cores; `high` is the classic
 * CRF 18 / preset medium.
 */
const TABLE: Record<OutputSpec['quality'], { crf: number; preset: string }> = {
  verylow: { crf: 32, preset: 'veryfast' },
  low: { crf: 28, preset: 'veryfast' },
  medium: { crf: 23, preset: 'veryfast' },
  high: { crf: 18, preset: 'medium' },
  veryhigh: { crf: 15, preset: 'slow' },
}

/** ffmpeg arguments for H.264 in yuv420p (plays everywhere). */
export function x264Args(quality: OutputSpec['quality']): string[] {
  const { crf, preset } = TABLE[quality]
  return ['-c:v', 'libx264', '-preset', preset, '-crf', String(crf), '-pix_fmt', 'yuv420p']
}

/** Maps the video and, when present, the mixed audio. */
export function mapArgs(spec: OutputSpec, audioCodec: string[]): string[] {
  return spec.audio ? ['-map', '0:v', '-map', '[aout]', ...audioCodec] : ['-map', '0:v']
}
