import { ffmpegArgs, runFfmpeg } from '../../../core/index.js'

export interface Silence {
  start: number
  end: number
}

/**
 * The silent stretches of an audio file, from ffmpeg's `silencedetect` (quieter than `noiseDb` for at least
 * `minSeconds`). ffmpeg closes a silence that runs to the end of the file at the file's end.
 */
export async function silences(path: string, opts: { noiseDb?: number; minSeconds?: number; signal?: AbortSignal } = {}): Promise<Silence[]> {
  const filter = `silencedetect=noise=${opts.noiseDb ?? -40}dB:d=${opts.minSeconds ?? 0.05}`
  // silencedetect reports on stderr at the info level; -nostats keeps progress lines out of it.
  const log = await runFfmpeg(ffmpegArgs`-hide_banner -nostats -i ${path} -af ${filter} -f null -`, { signal: opts.signal, what: 'silence detection' })
  const out: Silence[] = []
  let open: number | undefined
  for (const m of log.matchAll(/silence_(start|end): (-?[\d.]+)/g)) {
    if (m[1] === 'start') open = Math.max(0, Number(m[2]))
    else if (open !== undefined) {
      out.push({ start: open, end: Number(m[2]) })
      open = undefined
    }
  }
  return out
}

/**
 * Where speech starts and ends in a file of `duration` seconds — after a leading silence and before a trailing
 * one (vendors pad both ends), else the whole file — and the pauses inside it (0.15 s or longer).
 */
export async function speechSpan(path: string, duration: number, signal?: AbortSignal): Promise<{ from: number; to: number; pauses: Silence[] }> {
  const quiet = await silences(path, { noiseDb: -40, minSeconds: 0.02, signal })
  const lead = quiet[0] && quiet[0].start <= 0.01 ? quiet[0].end : 0
  const last = quiet.at(-1)
  const to = last && last.end >= duration - 0.1 && last.start > lead ? last.start : duration
  const from = Math.min(lead, to)
  return { from, to, pauses: quiet.filter((s) => s.start > from && s.end < to && s.end - s.start >= 0.15) }
}
