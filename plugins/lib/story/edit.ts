import type { Edit } from '../../../core/index.js'
import type { Story } from './script.js'

export interface StoryLook {
  aspectRatio?: '16:9' | '9:16' | '1:1' | '4:5'
  /** A Polly, OpenAI or espeak voice name; the render's speech engine maps it. */
  voice?: string
  /** Words added to every picture's prompt ("watercolour", "35mm film still"). */
  style?: string
  resolution?: 'preview' | 'mobile' | 'sd' | 'hd' | '1080'
}

// Each picture moves, in turn, so a still never looks frozen.
const MOTION = ['zoomInSlow', 'slideLeftSlow', 'zoomOutSlow', 'slideRightSlow']

/**
 * The Shotstack edit of a story: per scene, the narration (`text-to-speech`, placed after the one before), a
 * picture from a prompt and a caption of the voice's own words — both of the narration's start and length by
 * `alias://`, so every scene lasts exactly its narration whichever engine speaks it; the title, centred on a
 * band, over the first seconds. Positions only (no offsets), so the edit reads the same with either `offset.y` convention.
 */
export function storyEdit(story: Story, look: StoryLook = {}): Edit {
  const voice = look.voice ?? 'Matthew'
  const alias = (i: number) => `scene${i + 1}`
  const narration = story.scenes.map((text, i) => ({
    asset: { type: 'text-to-speech', text, voice },
    start: 'auto',
    length: 'auto',
    alias: alias(i),
  }))
  const pictures = story.scenes.map((text, i) => ({
    asset: { type: 'image', prompt: look.style ? `${text} ${look.style}` : text, aspectRatio: look.aspectRatio ?? '16:9' },
    start: `alias://${alias(i)}`,
    length: `alias://${alias(i)}`,
    effect: MOTION[i % MOTION.length],
    // Cuts between scenes (a fade would dip to black mid-story); the film fades in and out at its ends.
    ...(i === 0 || i === story.scenes.length - 1 ? { transition: i === 0 ? { in: 'fade' } : { out: 'fade' } } : {}),
  }))
  const captions = story.scenes.map((_, i) => ({
    asset: { type: 'caption', src: `alias://${alias(i)}`, background: { color: '#000000', opacity: 0.55, padding: 12, borderRadius: 8 } },
    start: `alias://${alias(i)}`,
    length: `alias://${alias(i)}`,
  }))
  const title = {
    asset: { type: 'title', text: story.title, style: 'minimal', size: 'medium', background: '#000000' },
    start: 0,
    length: 2.5,
    transition: { in: 'fade', out: 'fade' },
  }
  return {
    timeline: { background: '#000000', tracks: [{ clips: [title] }, { clips: captions }, { clips: pictures }, { clips: narration }] },
    output: { format: 'mp4', resolution: look.resolution ?? 'hd', aspectRatio: look.aspectRatio ?? '16:9', fps: 25 },
  } as unknown as Edit
}
