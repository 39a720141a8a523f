import type { PrepareContext, Size } from '../../core/index.js'

const wh = (width: number, height: number): Size => ({ width, height })

/** The seed's image sizes by aspect ratio, small and large. */
const SIZES: Record<string, [Size, Size]> = {
  '1:1': [wh(1024, 1024), wh(1024, 1024)],
  '16:9': [wh(1024, 576), wh(1920, 1080)],
  '9:16': [wh(576, 1024), wh(1080, 1920)],
  '4:3': [wh(1024, 768), wh(1024, 768)],
  '3:4': [wh(768, 1024), wh(768, 1024)],
}

/**
 * Size of an AI image in a timeline: Shotstack's `aspectRatio` (default: the frame's) and `resolution`
 * (`1K` small; `2K`/`4K` large), mapped onto the seed's size table (nearest aspect).
 */
export function promptSize(resolution: string | undefined, aspectRatio: string | undefined, frame: Size): Size {
  const [w, h] = (aspectRatio ?? '').split(':').map(Number)
  const want = w && h ? w / h : frame.width / frame.height
  const key = Object.keys(SIZES).sort((a, b) => Math.abs(Math.log(ratio(a) / want)) - Math.abs(Math.log(ratio(b) / want)))[0]!
  return SIZES[key]![resolution === '2K' || resolution === '4K' ? 1 : 0]
}
const ratio = (r: string) => Number(r.split(':')[0]) / Number(r.split(':')[1])

const MODELS = ['dall-e-3', 'flux', 'stable-diffusion']

/**
 * A Shotstack `model` as one of ours or one a registered provider serves; anything else is generated with flux
 * (the seed's default), noted on the render.
 */
export function promptModel(model: string | undefined, ctx: Pick<PrepareContext, 'warn' | 'imageModels'>): string {
  if (!model) return 'flux'
  if (MODELS.includes(model) || ctx.imageModels.includes(model)) return model
  ctx.warn(`image model "${model}" is not offered; generated with flux`)
  return 'flux'
}
