import { defineAssetPlugin, easing, RichCaptionAssetSchema } from '../../core/index.js'
import { loadCues, wordTimes } from '../lib/text/cues.js'
import { drawTextBox, type Animation, type TextStyle, type UnitState } from '../lib/text/draw.js'
import { redrawingSource } from '../lib/text/source.js'
import { cueAt, type Cue } from '../lib/text/subtitles.js'
import { richStyle } from './rich-text.js'
import { withOpacity } from './text.js'

const ease = easing('easeOutCubic')
const bounce = easing('easeOutBack')
/** Seconds a word takes to pop, fade, slide or bounce in. */
const IN = 0.2

/**
 * `rich-caption`: word-timed captions with rich-text styling. Each cue's words are timed by their length
 * across the cue; the word being spoken takes the `active` look (colour, background, size, stroke, shadow),
 * and `animation.style` says how words arrive: karaoke (spoken words stay lit), highlight (only the current
 * one), pop, fade, slide, bounce, typewriter, or none. Redrawn only when the active word or a moving word changes.
 */
export const richCaption = defineAssetPlugin({
  kind: 'asset',
  name: 'rich-caption',
  schema: RichCaptionAssetSchema,
  async prepare(params, ctx) {
    const cues = await loadCues(params.src, ctx)
    const box = { width: params.width ?? ctx.box?.width ?? ctx.frame.width, height: params.height ?? ctx.box?.height ?? ctx.frame.height }
    const style: TextStyle = {
      ...richStyle(params, ctx, { family: 'Roboto', size: Math.round(box.height * 0.05), color: '#ffffff' }),
      // Captions sit low in the frame unless told otherwise.
      align: { h: params.align?.horizontal ?? 'center', v: params.align?.vertical === 'center' ? 'middle' : (params.align?.vertical ?? 'bottom') },
    }
    if (!params.padding && !params.align?.vertical) style.padding = { top: 0, right: box.width * 0.05, bottom: box.height * 0.08, left: box.width * 0.05 }
    const kind = params.animation?.style ?? 'highlight'
    const dir = { left: [-1, 0], right: [1, 0], up: [0, -1], down: [0, 1] }[params.animation?.direction ?? 'up']!
    const a = params.active ?? {}
    const scale = a.font?.size ? a.font.size / style.size : kind === 'pop' ? 1.2 : 1
    const active: Partial<UnitState> = {
      color: a.font?.color ?? (kind === 'highlight' || kind === 'karaoke' ? '#ffff00' : undefined),
      background: a.font?.background,
      stroke:
        a.stroke === 'none' ? null : a.stroke?.width ? { width: a.stroke.width, color: withOpacity(a.stroke.color ?? '#000000', a.stroke.opacity) } : undefined,
      shadow:
        a.shadow === 'none'
          ? null
          : a.shadow
            ? {
                offsetX: a.shadow.offsetX ?? 0,
                offsetY: a.shadow.offsetY ?? 0,
                blur: a.shadow.blur ?? 0,
                color: withOpacity(a.shadow.color ?? '#000000', a.shadow.opacity ?? 0.5),
              }
            : undefined,
    }
    const timed = new Map<Cue, { start: number; end: number }[]>(cues.map((c) => [c, wordTimes(c)]))

    /** How word `i` of the cue looks at time `t`. */
    const wordState = (words: { start: number; end: number }[], i: number, t: number): UnitState => {
      const w = words[i]
      if (!w) return { alpha: 1, dx: 0, dy: 0 }
      const since = t - w.start
      const spoken = since >= 0,
        current = spoken && t < w.end
      const k = Math.min(1, Math.max(0, since / IN))
      const look: UnitState =
        current || (kind === 'karaoke' && spoken)
          ? { alpha: a.font?.opacity ?? 1, dx: 0, dy: 0, ...active, scale: current ? scale : 1 }
          : { alpha: 1, dx: 0, dy: 0 }
      if (kind === 'karaoke' && spoken && !current) delete look.background
      switch (kind) {
        case 'typewriter':
          return spoken ? look : { alpha: 0, dx: 0, dy: 0 }
        case 'fade':
          return { ...look, alpha: look.alpha * ease(k) }
        case 'slide':
          return spoken
            ? { ...look, alpha: look.alpha * ease(k), dx: -dir[0]! * style.size * (1 - ease(k)), dy: -dir[1]! * style.size * (1 - ease(k)) }
            : { alpha: 0, dx: 0, dy: 0 }
        case 'bounce':
          return spoken ? { ...look, dy: -style.size * 0.4 * (1 - bounce(k)) } : { alpha: 0, dx: 0, dy: 0 }
        case 'pop':
          return current ? { ...look, scale: 1 + (scale - 1) * ease(k) } : look
        case 'none':
          return { alpha: 1, dx: 0, dy: 0 }
        default:
          return look
      }
    }
    const at = (t: number) => cueAt(cues, t)
    const moving = kind === 'fade' || kind === 'slide' || kind === 'bounce' || kind === 'pop'
    // The drawing changes when the cue or its active word does, and every frame while a word is moving in.
    const key = (t: number) => {
      const cue = at(t)
      if (!cue) return 'none'
      const words = timed.get(cue)!
      const i = words.findIndex((w) => t >= w.start && t < w.end)
      const inMotion = moving && i >= 0 && t - words[i]!.start < IN
      return `${cues.indexOf(cue)}:${i}${inMotion ? `:${Math.round(t * 1000)}` : ''}`
    }
    return {
      size: box,
      static: cues.length === 0,
      defaultFit: 'none',
      async open(gpu, need) {
        return redrawingSource(gpu, need, key, (t) => {
          const cue = at(t)
          if (!cue) return null
          const words = timed.get(cue)!
          const anim: Animation = { unit: 'word', state: (i) => wordState(words, i, t) }
          return drawTextBox(cue.text, style, box, need, kind === 'none' ? undefined : anim)
        })
      },
    }
  },
})
