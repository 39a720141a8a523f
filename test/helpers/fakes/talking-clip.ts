import { mkdtemp, readFile, rm, writeFile } from 'node:fs/promises'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { ffmpegArgs, runFfmpeg } from '../../../core/index.js'
import { spokenAudio } from './speech-audio.js'

/**
 * What an avatar vendor's CDN serves: a small H.264 + AAC mp4 of `text` spoken (real speech, see speech-audio.ts)
 * over a test picture, exactly as long as the speech — so a client's result can be checked for sound and length.
 */
export async function talkingClip(text: string, width: number, height: number): Promise<Buffer> {
  const dir = await mkdtemp(join(tmpdir(), 'fake-avatar-'))
  try {
    const wav = join(dir, 'voice.wav')
    await writeFile(wav, await spokenAudio(text, 'wav'))
    const out = join(dir, 'clip.mp4')
    await runFfmpeg(ffmpegArgs`-v error -y -f lavfi -i ${`testsrc2=s=${width}x${height}:r=25`} -i ${wav} -shortest -map 0:v -map 1:a
      -c:v libx264 -preset ultrafast -pix_fmt yuv420p -c:a aac -b:a 64k ${out}`)
    return await readFile(out)
  } finally {
    await rm(dir, { recursive: true, force: true })
  }
}
