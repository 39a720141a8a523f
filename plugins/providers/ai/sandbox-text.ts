import { createHash } from 'node:crypto'
import { type AiProviderPlugin, defineAiProvider, RenderError, type TextRequest } from '../../../core/index.js'

// Words that carry no picture; the scenes are built from the rest of the prompt.
const STOP = new Set(
  'a an the and or but of in on at to for with from by about into over under as is are was were be been this that these those it its my your our their me us them make write create short video script story scene please some'.split(
    ' ',
  ),
)
// Lower-case inside a title, as title case does.
const SMALL = new Set('a an the and or but of in on at to for with from by as'.split(' '))
const OPEN = ['We open on {a}, quiet and still.', 'Morning light finds {a}.', 'It begins with {a}.']
const MIDDLE = [
  'The camera drifts toward {b} as the day turns.',
  'Close on {a} and {b}, side by side.',
  'A slow reveal: {c} fills the frame.',
  'Wind moves across {b}, and everything follows.',
  'From above, {c} looks small and bright.',
  'A quiet moment with {a}, then a hint of {c}.',
  'Colours warm as {b} comes into view.',
]
// Scenery for short prompts, so no sentence names the same thing twice.
const PAD = ['the horizon', 'the sky', 'the water']
const CLOSE = ['We pull back to see {a} in full.', 'The scene settles on {b} as the day ends.', 'Finally, {a} and {c} fade into one last image.']

/**
 * A local stand-in for every text model: a short script made from the prompt's own words, the same text for
 * the same prompt, system and max_tokens (the model name does not change it, so any routing gives the same
 * answer). The first line is a title, then one scene per line (3–6 of them; the number of scenes and words a
 * storyboard's system prompt asks for, when it does), so a storyboard can split it by line. `maxTokens` is
 * honoured roughly, counting a word as a token. No network, no cost.
 *
 * It serves `sandbox`; the service also routes every `text` model to it for sandbox keys and for models
 * without a configured provider.
 */
export const sandboxTextProvider: AiProviderPlugin<'text'> = defineAiProvider({
  kind: 'ai',
  name: 'sandbox-text',
  task: 'text',
  models: ['sandbox'],
  local: true,
  standIn: true,
  async run(req, { signal }) {
    if (signal.aborted) throw new RenderError('E_CANCELLED', 'cancelled')
    return { text: sandboxText(req) }
  },
})

/** The sandbox script for a request (exported for the storyboard's offline tests). */
export function sandboxText(req: Pick<TextRequest, 'prompt' | 'system' | 'maxTokens'>): string {
  const digest = createHash('sha256')
    .update(JSON.stringify([req.prompt, req.system ?? '', req.maxTokens ?? 0]))
    .digest()
  const all = req.prompt.match(/[\p{L}\p{N}][\p{L}\p{N}'’-]*/gu) ?? []
  // A capitalised word is taken for a name (Tokyo, Yemen) and gets no article.
  const phrase = (w: string) => (/^\p{Lu}/u.test(w) ? w : `the ${w.toLowerCase()}`)
  const content = [...new Set(all.filter((w) => !STOP.has(w.toLowerCase())).map(phrase))]
  const nouns = [...content, ...PAD].slice(0, Math.max(3, content.length))
  // Scene i starts at noun i (shifted by the digest after the first), so the prompt's subject opens the
  // script and every word of the prompt gets its turn.
  const fill = (template: string, i: number) => {
    const o = i === 0 ? 0 : i + digest[2]!
    const at = (k: number) => nouns[(o + k) % nouns.length]!
    const s = template.replace('{a}', at(0)).replace('{b}', at(1)).replace('{c}', at(2))
    return s[0]!.toUpperCase() + s.slice(1)
  }
  // The title: the prompt without a leading instruction ("write a short script about …"), in title case.
  let from = 0
  while (from < all.length - 1 && STOP.has(all[from]!.toLowerCase())) from++
  const title = all.slice(from, from + 8).map((w, i) => (i > 0 && SMALL.has(w.toLowerCase()) ? w.toLowerCase() : w[0]!.toUpperCase() + w.slice(1)))
  const asked = ASKED.exec(req.system ?? '')
  const scenes = asked ? Math.max(1, Number(asked[2])) : 3 + (digest[0]! % 4)
  const lines = [title.join(' ') || 'Untitled', fill(OPEN[digest[1]! % OPEN.length]!, 0)]
  // Distinct middle scenes, in an order the digest picks.
  const middle = MIDDLE.map((t, i) => ({ t, k: digest[5 + i]! })).sort((x, y) => x.k - y.k)
  for (let i = 1; i < scenes - 1; i++) lines.push(fill(middle[(i - 1) % middle.length]!.t, i))
  if (scenes > 1) lines.push(fill(CLOSE[digest[30]! % CLOSE.length]!, scenes - 1))
  // Asked for a length, each scene grows by a sentence at a time to its share of the words, as a model writes to it.
  const per = asked ? Number(asked[1]) / scenes : 0
  for (let i = 1; i < lines.length; i++) for (let k = 0; words(lines[i]!) + 4 < per; k++) lines[i] += ` ${fill(middle[(i + k) % middle.length]!.t, i + k + 1)}`
  return fitBudget(lines, req.maxTokens)
}

/** The storyboard's instruction to any model (plugins/lib/story/script.ts): the stand-in follows it as one would. */
const ASKED = /Write about (\d+) words in (\d+) scenes/
const words = (line: string) => line.split(' ').length

/** Whole lines while they fit `budget` words; a first scene that does not fit is cut to the words left. */
function fitBudget(lines: string[], maxTokens: number | undefined): string {
  if (maxTokens === undefined) return lines.join('\n')
  let left = Math.max(1, Math.floor(maxTokens))
  const out: string[] = []
  for (const line of lines) {
    const words = line.split(' ')
    if (words.length <= left) {
      out.push(line)
      left -= words.length
    } else {
      if (out.length <= 1 && left > 0)
        out.push(
          `${words
            .slice(0, left)
            .join(' ')
            .replace(/[,.:]$/, '')}.`,
        )
      break
    }
  }
  return out.join('\n')
}
