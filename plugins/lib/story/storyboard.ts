import type { AiAsk, Edit } from '../../../core/index.js'
import { type StoryLook, storyEdit } from './edit.js'
import { parseScript, type Story, storyAsk } from './script.js'

export interface StoryboardRequest extends StoryLook {
  prompt: string
  /** Seconds of narration the script is written for (default 20); the video lasts what the voice takes. */
  duration?: number
}

export interface Storyboard extends Story {
  /** The script as the text engine wrote it. */
  script: string
  /** A Shotstack edit: render it as it is, or change it first. */
  edit: Edit
  /** True when a free stand-in wrote the script (no text model configured). */
  standIn: boolean
}

/** Writes the script through `write` (any text engine: a vendor, a local server, the sandbox). */
export type ScriptWriter = (ask: AiAsk<'text'>) => Promise<{ text: string; standIn?: boolean }>

/**
 * Prompt to finished edit: the text engine writes a script sized for `duration`, it is split into a title and
 * scenes, and each scene becomes narration, a picture and captions (edit.ts). The voice and the pictures are
 * made when the edit renders — by the renderer's engines, so offline with the local ones.
 */
export async function storyboard(req: StoryboardRequest, write: ScriptWriter): Promise<Storyboard> {
  const written = await write(storyAsk(req.prompt, req.duration ?? 20))
  const story = parseScript(written.text)
  if (!story.scenes.length) throw new Error('the script came back empty; try another prompt')
  return { ...story, script: written.text, edit: storyEdit(story, req), standIn: written.standIn === true }
}
