import { placeLayer } from '../../../../core/render/placement.js'
import { isVisual, type Timed } from './clip-times.js'
import { assetType, type ClipRef, getIn, isObj, num, type Obj } from './edit-doc.js'
import { outputSize } from './output-frame.js'

// Where each clip is on the frame, worked out here from the renderer's own layout: `placeLayer` is the very
// function its frame loop uses (core/render/placement.ts); the fits and the assets' own sizes are mirrored from
// plugins/fits/ and plugins/assets/ (test/dashboard/editor-layout.test.ts holds them to the renderer's).

type Size = { width: number; height: number }
export type Position = 'topLeft' | 'top' | 'topRight' | 'left' | 'center' | 'right' | 'bottomLeft' | 'bottom' | 'bottomRight'
export const POSITIONS: readonly Position[] = ['topLeft', 'top', 'topRight', 'left', 'center', 'right', 'bottomLeft', 'bottom', 'bottomRight']

/** plugins/fits/: crop fills keeping the aspect, cover stretches, contain fits inside, none keeps the size. */
export const FITS: Record<string, (src: Size, box: Size) => Size> = {
  crop: (src, box) => scaled(src, Math.max(box.width / src.width, box.height / src.height)),
  cover: (_src, box) => ({ width: box.width, height: box.height }),
  contain: (src, box) => scaled(src, Math.min(box.width / src.width, box.height / src.height)),
  none: (src) => ({ width: src.width, height: src.height }),
}
const scaled = (s: Size, k: number) => ({ width: s.width * k, height: s.height * k })

/** Assets laid out at their own pixel size unless the clip says otherwise (their plugins' `defaultFit`). */
const BOXED = ['html', 'html5', 'shape', 'text', 'rich-text', 'caption', 'rich-caption']

/** An asset's own size, as its plugin's `prepare` gives it; media by what the browser read of the file. */
export function assetSize(clip: Obj, frame: Size, box: Size | undefined, media: (type: string, src: string) => Size | undefined): Size {
  const type = assetType(clip)
  const a = isObj(clip.asset) ? clip.asset : {}
  const own = (fallback: Size) => ({ width: num(a.width) ?? fallback.width, height: num(a.height) ?? fallback.height })
  if (type === 'html' || type === 'text') return own(frame)
  if (type === 'shape' || type === 'rich-text' || type === 'rich-caption') return own(box ?? frame)
  if (type === 'caption' || type === 'html5') return box ?? frame
  if ((type === 'image' || type === 'video' || type === 'svg') && typeof a.src === 'string') return media(type, a.src) ?? frame
  return frame
}

/** A value at `local` seconds into the clip: a number, or keyframes (`[{from, to, start, length}]`) read linearly. */
export function valueAt(value: unknown, local: number, neutral: number): number {
  if (!Array.isArray(value)) return num(value) ?? neutral
  let out = neutral
  for (const k of value) {
    if (!isObj(k)) continue
    const start = num(k.start) ?? 0
    if (local < start && out !== neutral) break
    const p = Math.min(1, Math.max(0, (local - start) / (num(k.length) || 1e-9)))
    out = (num(k.from) ?? neutral) + ((num(k.to) ?? neutral) - (num(k.from) ?? neutral)) * p
  }
  return out
}

export interface ClipBox {
  ref: ClipRef
  clip: Obj
  position: Position
  scale: number
  x: number
  y: number
  width: number
  height: number
}

/**
 * The boxes of the clips that show at `time`, top track last (the order they are drawn in), in frame pixels.
 * `yAxis` is this server's convention for `offset.y` (`GET /v1/me`): `up` counts upwards, as Shotstack does.
 */
export function clipBoxes(edit: Obj, times: Timed[][], time: number, yAxis: 'up' | 'down', media: (type: string, src: string) => Size | undefined): ClipBox[] {
  const frame = outputSize(edit.output)
  const ySign = yAxis === 'up' ? -1 : 1
  const showing = times.flat().filter((t) => isVisual(t.clip) && t.start <= time && time < t.start + t.length)
  return showing.reverse().map(({ ref, clip, start }) => {
    const local = time - start
    const w = num(clip.width)
    const h = num(clip.height)
    const box = w || h ? { width: w ?? frame.width, height: h ?? frame.height } : undefined
    const crop = getIn(clip, ['asset', 'crop'])
    const c = (k: string) => (isObj(crop) ? (num(crop[k]) ?? 0) : 0)
    const size = assetSize(clip, frame, box, media)
    const cropped = { width: size.width * (1 - c('left') - c('right')), height: size.height * (1 - c('top') - c('bottom')) }
    const fitName = typeof clip.fit === 'string' ? clip.fit : BOXED.includes(assetType(clip)) ? 'none' : 'crop'
    const fitted = box ?? (FITS[fitName] ?? FITS.crop!)(cropped, box ?? frame)
    const position = (POSITIONS.includes(clip.position as Position) ? clip.position : 'center') as Position
    const scale = valueAt(clip.scale, local, 1)
    const ox = valueAt(getIn(clip, ['offset', 'x']), local, 0)
    const oy = valueAt(getIn(clip, ['offset', 'y']), local, 0) * ySign
    return { ref, clip, position, scale, ...placeLayer(frame, fitted, position, scale, ox, oy) }
  })
}
