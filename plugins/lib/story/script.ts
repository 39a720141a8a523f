import type { AiAsk } from '../../../core/index.js'

/** What a text model is told, so any model (or the sandbox) answers in lines a storyboard can split. */
export const STORY_SYSTEM =
  'You write scripts for short narrated videos. Answer with plain lines only: first a short title, then one line per ' +
  'scene — one or two sentences the narrator says over one picture. No numbering, labels, quotes or markdown.'

/** The narrator's pace the script is sized for (espeak-ng's default is 165 words a minute). */
const WORDS_PER_SECOND = 2.6

/** The text task that writes a storyboard's script: about as many words as `seconds` of narration holds. */
export function storyAsk(prompt: string, seconds: number): AiAsk<'text'> {
  const words = Math.round(seconds * WORDS_PER_SECOND)
  const scenes = Math.max(2, Math.min(8, Math.round(seconds / 5)))
  return {
    prompt,
    system: `${STORY_SYSTEM} Write about ${words} words in ${scenes} scenes.`,
    // A title line beside the narration; a token is about three quarters of a word.
    maxTokens: Math.round((words + 12) * 1.35),
  }
}

export interface Story {
  title: string
  /** What the narrator says over each picture, in order. */
  scenes: string[]
}

/**
 * A script split into its title and scenes. Models add what they were told not to — "Scene 2:", "1.", bold
 * markers, quotes, "Title:" — so those are taken off; blank lines are dropped. A one-line answer is both the
 * title and the only scene.
 */
export function parseScript(text: string): Story {
  const lines = text
    .split(/\r?\n/)
    .map((line) => {
      let l = line.replace(/\*\*|__/g, '').trim()
      // Labels stack ("1. Scene 1: …"): take them off until none is left.
      for (let before = ''; before !== l; ) {
        before = l
        l = l.replace(/^(?:[-*•#>]+|(?:title|scene\s*\d*|narrator)\s*[:.)-]|\d+[.):])\s*/i, '')
      }
      return l.replace(/^["“']+|["”']+$/g, '').trim()
    })
    .filter((l) => /[\p{L}\p{N}]/u.test(l))
  if (!lines.length) return { title: 'Untitled', scenes: [] }
  return { title: lines[0]!, scenes: lines.length > 1 ? lines.slice(1) : [lines[0]!] }
}
