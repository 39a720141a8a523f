import { createHash, randomBytes } from 'node:crypto'
import { writeFile } from 'node:fs/promises'
import { join } from 'node:path'
import { createCanvas } from '@napi-rs/canvas'
import { type AiProviderPlugin, type AvatarRequest, BT709_TAGS, defineAiProvider, ffmpegArgs, RenderError, runFfmpeg } from '../../../core/index.js'
import { speak, voiceGender } from '../../lib/audio/speech.js'

/** Frame rate of the stand-in: Shotstack's default output rate, so the clip drops into a render frame for frame. */
const FPS = 25
// The presenters Shotstack offers (D-ID's and HeyGen's) spoken by a voice of their gender; others get a woman's voice.
const MEN = new Set('jack matt rian bill derek jake jeff jerome joon kent mark matthew peter thomas tyler wilson'.split(' '))

/**
 * `avatar` as a free local stand-in for every vendor: a drawn presenter (head and shoulders, in a colour of the
 * avatar's name, in a circle for `style: circle`) on the `background` colour, labelled with the avatar's name,
 * speaking `text` with espeak-ng — a voice of the presenter's gender, or the `voice` named when espeak knows it —
 * with the voice's waveform moving under the presenter while it speaks. 1280×720, or 720×1280 for 9:16; exactly
 * as long as the speech. Sandbox keys use it for D-ID and HeyGen avatars; no network, no cost.
 */
export const sandboxAvatarProvider: AiProviderPlugin<'avatar'> = defineAiProvider({
  kind: 'ai',
  name: 'sandbox-avatar',
  task: 'avatar',
  models: ['sandbox'],
  local: true,
  standIn: true,
  async run(req, { signal, workDir }) {
    if (!req.text.trim()) throw new RenderError('E_PROVIDER_FAILED', 'sandbox-avatar: there is no text to speak')
    const voiceName = req.voice?.split(' - ')[0]?.trim()
    const gendered = MEN.has(req.avatar.toLowerCase()) ? 'Matthew' : 'Joanna'
    const speech = await speak(req.text, { voice: voiceGender(voiceName) ? voiceName : gendered })
    if (signal.aborted) throw new RenderError('E_CANCELLED', 'cancelled')
    const [W, H] = req.aspectRatio === '9:16' ? [720, 1280] : [1280, 720]
    const id = randomBytes(6).toString('hex')
    const still = join(workDir, `avatar-${id}.png`)
    await writeFile(still, await presenter(req, W, H))
    const frames = Math.max(1, Math.round(speech.duration * FPS))
    const wave = `${Math.round(W * 0.5)}x${Math.round(H * 0.08)}`
    const graph = [
      `[1:a]aformat=channel_layouts=mono,showwaves=s=${wave}:mode=cline:rate=${FPS}:colors=0x${ink(req.background)},format=rgba[w]`,
      `[0:v][w]overlay=x=(W-w)/2:y=H*0.86:shortest=1,scale=out_color_matrix=bt709:out_range=tv,format=yuv420p[v]`,
    ].join(';')
    const out = join(workDir, `avatar-${id}.mp4`)
    await runFfmpeg(
      [
        ...ffmpegArgs`-v error -y -loop 1 -framerate ${FPS} -i ${still} -i ${speech.path} -filter_complex ${graph} -map [v] -map 1:a
          -frames:v ${frames} -c:v libx264 -preset veryfast -crf 20 -pix_fmt yuv420p -c:a aac -b:a 128k -ar 44100`,
        ...BT709_TAGS,
        ...ffmpegArgs`-movflags +faststart ${out}`,
      ],
      { signal, what: 'sandbox-avatar' },
    )
    return { path: out, duration: frames / FPS }
  },
})

/** A dark or light line colour (`rrggbb`), whichever reads on the background. */
function ink(background = '#ffffff'): string {
  const n = Number.parseInt(background.slice(1), 16)
  const luma = 0.2126 * ((n >> 16) & 255) + 0.7152 * ((n >> 8) & 255) + 0.0722 * (n & 255)
  return luma > 128 ? '202020' : 'f0f0f0'
}

/** The presenter drawn on the background: shoulders and head, coloured from the avatar's name. */
async function presenter(req: AvatarRequest, W: number, H: number): Promise<Buffer> {
  const hue = createHash('sha256').update(req.avatar.toLowerCase()).digest()[0]! * (360 / 256)
  const canvas = createCanvas(W, H)
  const g = canvas.getContext('2d')
  g.fillStyle = req.background ?? '#ffffff'
  g.fillRect(0, 0, W, H)
  const unit = Math.min(W, H) / 10
  const cx = W / 2
  const cy = H * 0.45
  g.save()
  if (req.style === 'circle') {
    g.beginPath()
    g.arc(cx, cy, unit * 3.6, 0, Math.PI * 2)
    g.fillStyle = `hsl(${hue}, 25%, 88%)`
    g.fill()
    g.clip()
  }
  g.fillStyle = `hsl(${hue}, 45%, 35%)` // shoulders
  g.beginPath()
  g.ellipse(cx, cy + unit * 3.4, unit * 3, unit * 1.9, 0, Math.PI, 0)
  g.fill()
  g.fillStyle = `hsl(${(hue + 30) % 360}, 35%, 70%)` // head
  g.beginPath()
  g.arc(cx, cy, unit * 1.3, 0, Math.PI * 2)
  g.fill()
  g.restore()
  g.fillStyle = `#${ink(req.background)}`
  g.font = `700 ${Math.round(unit * 0.45)}px sans-serif`
  g.textAlign = 'center'
  g.fillText(`SANDBOX · ${req.avatar}`, cx, H * 0.08)
  return Buffer.from(await canvas.encode('png'))
}
