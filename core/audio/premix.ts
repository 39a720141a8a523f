import { randomUUID } from 'node:crypto'
import { join } from 'node:path'
import { RenderError } from '../errors.js'
import { ffmpegArgs } from '../ffmpeg/args.js'
import { runFfmpeg } from '../ffmpeg/run.js'
import type { AudioMix } from '../plugin.js'

/**
 * Above this many sounds, a video's sound is mixed in a process of its own before the frames. The encoder holds
 * every input it is given open for the whole render — about 2.5 MB for a clip's file with its picture beside the
 * sound, 0.9 MB for sound alone — so an edit's length in clips became the encoder's size (20 clips with sound:
 * +45 MB). Mixed first, the encoder reads one file whatever the count; the mix holds the inputs instead, before the
 * first frame, while nothing else of the render is large. A few sounds stay in the encoder: the mix's own start
 * (a process, its decoding before the first frame) would cost more than they hold.
 */
export const PREMIX_ABOVE = 4

/**
 * The same mix as one lossless file in `dir` (the render's scratch folder, removed with it), and the graph that
 * hands it on unchanged: the encoder gets the very samples its own graph would have made, so the sound it encodes
 * is the same. Returns `audio` itself when it has few sounds.
 *
 * WavPack, not WAV: it keeps 32-bit float samples exactly in 40–45 % of the size (88 MB for ten minutes of music
 * against 230 MB; silence next to nothing), for ~0.4 CPU-s per output minute. Float WAV is 1.4 GB an hour of
 * output, and /tmp may be memory (tmpfs). An ffmpeg without the WavPack encoder gets the WAV.
 */
export async function premixSound(audio: AudioMix, dir: string, signal: AbortSignal): Promise<AudioMix> {
  if (audio.inputs.length <= PREMIX_ABOVE) return audio
  if (signal.aborted) throw new RenderError('E_CANCELLED', 'render cancelled')
  // A name of its own: plugins are handed the same folder for their scratch files.
  const name = join(dir, `sound-${randomUUID()}`)
  const mix = (codec: string[], file: string) => {
    const args = [...HEAD, ...audio.inputs.flat(), ...ffmpegArgs`-filter_complex ${audio.filter} -map [aout]`, ...codec, file]
    return runFfmpeg(args, { signal, what: 'mixing the sound' }).catch((e: Error) => {
      // The mix is the render's first large write: a full disk is said as the encoder says it, without the
      // scratch folder's path (ffmpeg's lines name it; it is the server's, not the user's).
      if (/No space left on device/i.test(e.message)) throw new RenderError('E_OUTPUT_FAILED', FULL)
      throw e
    })
  }
  let file = `${name}.wv`
  try {
    await mix(ffmpegArgs`-c:a wavpack -f wv`, file)
  } catch (e) {
    // An ffmpeg built without its WavPack encoder (a trimmed build) still mixes, to the larger WAV.
    if (!/Unknown encoder|Encoder not found|wavpack/i.test((e as Error).message) || signal.aborted) throw e
    file = `${name}.wav`
    await mix(ffmpegArgs`-c:a pcm_f32le -rf64 auto -f wav`, file)
  }
  return { inputs: [['-i', file]], filter: '[1:a]anull[aout]' }
}

const FULL = "the disk is full: no room for the render's mixed sound in its scratch folder (No space left on device)"

/** The mix's first arguments. Its input 0 is a moment of silence nobody maps: the graph's inputs keep their numbers (1 up). */
const HEAD = ffmpegArgs`-nostdin -hide_banner -v error -y -f lavfi -t 0.01 -i anullsrc=r=48000:cl=stereo`
