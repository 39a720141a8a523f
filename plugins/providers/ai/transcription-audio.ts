import { randomUUID } from 'node:crypto'
import { stat } from 'node:fs/promises'
import { join } from 'node:path'
import { ffmpegArgs, type Probe, probe, runFfmpeg } from '../../../core/index.js'

/** The sound a recognizer gets: a file, how long it lasts, and whether we made it (the caller removes it then). */
export interface SpeechAudio {
  path: string
  duration: number
  made: boolean
}

/**
 * How the extracted sound is written. Recognizers hear speech at 16 kHz mono (Whisper and pocketsphinx both
 * resample to it), so anything more is upload weight: `mp3` at 32 kbit/s is 4 KB a second — about 100 minutes
 * inside OpenAI's 25 MB — and `pcm` is raw 16-bit samples for pocketsphinx, which reads no compressed format.
 */
const CODECS = {
  mp3: ffmpegArgs`-c:a libmp3lame -b:a 32k -f mp3`,
  pcm: ffmpegArgs`-c:a pcm_s16le -f s16le`,
} as const

/** Whether a probed file is sound only (cover art aside): a video track would be uploaded for nothing. */
export const soundOnly = (info: Probe) => info.streams.every((s) => s.type !== 'video' || s.attachedPic)

/**
 * The speech track of a local audio or video file, ready for a recognizer: `keep(info)` says the file can go
 * as it is; otherwise its first audio track is extracted to mono 16 kHz `format` in `workDir`. Undefined when
 * the file has no sound at all — there is nothing to transcribe, so no provider needs to be asked (or paid).
 */
export async function speechAudio(
  path: string,
  opts: { workDir: string; signal: AbortSignal; format: keyof typeof CODECS; keep?: (info: Probe, bytes: number) => boolean },
): Promise<SpeechAudio | undefined> {
  const info = await probe(path, { signal: opts.signal })
  if (!info.streams.some((s) => s.type === 'audio')) return undefined
  if (opts.keep?.(info, info.size || (await stat(path)).size)) return { path, duration: info.duration ?? 0, made: false }
  const out = join(opts.workDir, `transcribe-${randomUUID()}.${opts.format === 'mp3' ? 'mp3' : 'pcm'}`)
  // -map 0:a:0: the first sound track only (a second language or commentary track would be mixed in by -ac 1).
  await runFfmpeg([...ffmpegArgs`-v error -nostdin -y -i ${path} -map 0:a:0 -vn -sn -dn -ac 1 -ar 16000`, ...CODECS[opts.format], out], {
    signal: opts.signal,
    code: 'E_ASSET_UNREADABLE',
    what: 'extracting the sound to transcribe',
  })
  const bytes = (await stat(out)).size
  // Raw samples have no header to probe: 16-bit mono at 16 kHz is 32,000 bytes a second.
  const duration = opts.format === 'pcm' ? bytes / 32_000 : ((await probe(out, { signal: opts.signal })).duration ?? 0)
  return { path: out, duration, made: true }
}
