import { familyKey, splitWeightName, type Warning } from '../../core/index.js'
import type { Replacement } from './rewrite.js'

/** Warnings the runner expects, by what causes them; anything else is unexplained. */
const LIMITS: [RegExp, string][] = [
  [/merge field .* has no value/, 'template placeholder the file leaves unfilled'],
  // Captions transcribe their clip's sound; a stand-in video holds a tone, not speech.
  [/nothing was heard in/, 'the stand-in media has no speech to caption'],
  [/speech-to-text|music provider|AI video provider|video generation needs|rendered statically/, 'documented limitation: no such service offline'],
]

/** Families Shotstack supplies itself (SHOTSTACK.md §2): a missing one of these is our gap, never the edit's. */
const SHOTSTACK_FONTS = [
  'Arapey',
  'Clear Sans',
  'Didact Gothic',
  'Montserrat',
  'Movlette',
  'NotoEmoji',
  'Open Sans',
  'Permanent Marker',
  'Roboto',
  'Sue Ellen Francisco',
  'Uni Neue',
  'Work Sans',
].map(familyKey)

export function causeOf(w: Warning, replaced: Replacement[]): string | undefined {
  const font = /^font "([^"]+)" is not available/.exec(w.message)?.[1]
  if (font) {
    // The edit brought this family as a font file, which the offline run replaced with a built-in one.
    const family = familyKey(splitWeightName(font).family)
    const brought = replaced.some((r) => r.kind === 'font' && familyKey(decodeURIComponent(r.from.split(/[?#]/)[0]!.split('/').pop() ?? '')).startsWith(family))
    if (brought) return "the edit's font file was replaced by a stand-in"
    // Neither the edit (no fonts[] entry) nor Shotstack supplies it: falling back is the right behaviour.
    return SHOTSTACK_FONTS.includes(family) ? undefined : 'the edit names a font that neither it nor Shotstack supplies'
  }
  return LIMITS.find(([re]) => re.test(w.message))?.[1]
}
