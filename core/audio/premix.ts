import { join } from 'node:path'
import { runFfmpeg } from '../ffmpeg/run.js'
import type { AudioMix } from '../plugin.js'

/**
 * Above this many sounds, a video's sound is mixed in a process of its own before the frames. The encoder holds
 * every input it is given open for the whole render — about 2.5 MB for a clip's file with its picture beside the
 * sound, 0.9 MB for sound alone — so an edit's length in clips became the encoder's size (20 clips with sound:
 * +45 MB; 200: +500 MB). Mixed first, the encoder reads one file whatever the count. A few sounds stay in the
 * encoder: the mix's own start (a process, its decoding before the first frame) would cost more than they hold.
 */
export const PREMIX_ABOVE = 4

/**
 * The same mix as one 32-bit float file in `dir` (the render's scratch folder, removed with it), and the graph that
 * hands it on unchanged: the encoder gets the very samples its own graph would have made, so the sound it encodes
 * is the same. Returns `audio` itself when it has few sounds.
 */
export async function premixSound(audio: AudioMix, dir: string, signal: AbortSignal): Promise<AudioMix> {
  if (audio.inputs.length <= PREMIX_ABOVE) return audio
  const file = join(dir, 'sound.wav')
  // Input 0 is a moment of silence nobody maps: it keeps the graph's input numbers (1 upward) as they are.
  const placeholder = ['-f', 'lavfi', '-t', '0.01', '-i', 'anullsrc=r=48000:cl=stereo']
  await runFfmpeg(
    ['-nostdin', '-hide_banner', '-v', 'error', '-y', ...placeholder, ...audio.inputs.flat(), '-filter_complex', audio.filter]
      // RF64 past WAV's 4 GB (three hours of this), plain WAV below it.
      .concat(['-map', '[aout]', '-c:a', 'pcm_f32le', '-rf64', 'auto', '-f', 'wav', file]),
    { signal, what: 'mixing the sound' },
  )
  return { inputs: [['-i', file]], filter: '[1:a]anull[aout]' }
}
