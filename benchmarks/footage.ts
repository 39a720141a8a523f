import { footageMedia } from './lib/footage-media.js'

const title = (text: string, start: number) => ({
  asset: { type: 'text', text, width: 1400, height: 300, font: { family: 'Montserrat ExtraBold', size: 72, color: '#ffffff' } },
  start,
  length: 5,
  transition: { in: 'fade', out: 'fade' },
})

/** The stills' Ken Burns effects, one each, as Shotstack's editor names them. */
const KEN_BURNS = ['zoomIn', 'slideLeft', 'zoomOut', 'slideRight']

/**
 * The footage timeline (issue 35): per minute a 15 s camera-like clip, two 7.5 s photos, the second clip, two more
 * photos — each photo with a Ken Burns effect, so every one of its frames is composited — every clip fading in and
 * out, three text titles fading over them, and a soundtrack with fades; `minutes` repeats the minute.
 */
export async function footageEdit(dir: string, minutes: number) {
  const { photos, clips, music } = await footageMedia(dir, minutes * 60)
  const media: object[] = []
  const titles: object[] = []
  for (let m = 0; m < minutes; m++) {
    const t0 = m * 60
    const seq: [string, string, number, string?][] = [
      ['video', clips[0]!, 15],
      ['image', photos[0]!, 7.5, KEN_BURNS[0]],
      ['image', photos[1]!, 7.5, KEN_BURNS[1]],
      ['video', clips[1]!, 15],
      ['image', photos[2]!, 7.5, KEN_BURNS[2]],
      ['image', photos[3]!, 7.5, KEN_BURNS[3]],
    ]
    let t = t0
    for (const [type, src, length, effect] of seq) {
      const asset = type === 'video' ? { type, src, volume: 0.3 } : { type, src }
      media.push({ asset, start: t, length, ...(effect ? { effect } : {}), transition: { in: 'fade', out: 'fade' } })
      t += length
    }
    titles.push(title(`Minute ${m + 1}: on the street`, t0 + 2), title('Stills in motion', t0 + 20), title('Rendered by reelforge', t0 + 40))
  }
  return {
    timeline: { background: '#000000', soundtrack: { src: music, effect: 'fadeInFadeOut', volume: 0.6 }, tracks: [{ clips: titles }, { clips: media }] },
    output: { format: 'mp4', resolution: '1080', fps: 30 },
  }
}
