import { assetType, getIn, type Obj } from './edit-doc.js'

const short = (s: string, n = 28) => (s.length > n ? `${s.slice(0, n - 1)}…` : s)

/** What a clip shows on its bar: its text, or its source's file name, or its asset type. */
export function clipLabel(clip: Obj): string {
  const type = assetType(clip)
  for (const key of ['text', 'prompt', 'html', 'shape']) {
    const v = getIn(clip, ['asset', key])
    if (typeof v === 'string' && v.trim())
      return short(
        v
          .replace(/<[^>]*>/g, ' ')
          .replace(/\s+/g, ' ')
          .trim() || type,
      )
  }
  const src = getIn(clip, ['asset', 'src'])
  if (typeof src === 'string' && src) {
    if (type === 'svg') return 'svg'
    const last = src.split(/[?#]/)[0]!.split('/').filter(Boolean).at(-1)
    try {
      return short(decodeURIComponent(last ?? src))
    } catch {
      return short(last ?? src)
    }
  }
  return type
}

/** "1.5 s" with at most three decimals. */
export const secs = (s: number) => `${Math.round(s * 1000) / 1000} s`
