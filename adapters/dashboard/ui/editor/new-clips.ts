import type { SourceRecord as Source } from '../../../../service/api-types.js'
import type { Obj } from './edit-doc.js'

/** How long a still (image, title, shape) lasts when added, and media whose length is not known yet. */
const STILL_SECONDS = 3
const MEDIA_SECONDS = 5
const ms = (s: number) => Math.round(s * 1000) / 1000

/** A clip for a hosted source (not a font: fonts go to `timeline.fonts`), starting at `start`. */
export function clipFromSource(s: Pick<Source, 'type' | 'url' | 'duration'>, start: number): Obj {
  const length = s.type === 'image' ? STILL_SECONDS : s.duration ? ms(s.duration) : MEDIA_SECONDS
  return { asset: { type: s.type, src: s.url }, start: ms(start), length }
}

/** A clip for a URL whose kind the user chose. */
export const clipFromUrl = (type: 'video' | 'image' | 'audio', src: string, start: number): Obj => ({
  asset: { type, src },
  start: ms(start),
  length: type === 'image' ? STILL_SECONDS : MEDIA_SECONDS,
})

/** The AI assets Shotstack's schema defines: made by the server's providers when the edit renders. */
export const AI_ASSETS = {
  'text-to-image': (prompt: string) => ({ type: 'text-to-image', prompt }),
  'text-to-speech': (text: string) => ({ type: 'text-to-speech', text, voice: 'Matthew' }),
} as const
export type AiAssetType = keyof typeof AI_ASSETS

export const clipFromAi = (type: AiAssetType, words: string, start: number): Obj => ({
  asset: AI_ASSETS[type](words),
  start: ms(start),
  length: STILL_SECONDS,
})

/** Starting points that need no file: a title, a text box, a rectangle. */
export const QUICK: Record<string, () => Obj> = {
  Title: () => ({ type: 'title', text: 'A new title', style: 'minimal' }),
  Text: () => ({ type: 'text', text: 'Text', width: 600, height: 120, font: { family: 'Open Sans', size: 48, color: '#ffffff' } }),
  Shape: () => ({ type: 'shape', shape: 'rectangle', width: 320, height: 180, rectangle: { width: 320, height: 180 }, fill: { color: '#3449c9' } }),
}
export const quickClip = (name: string, start: number): Obj => ({ asset: QUICK[name]!(), start: ms(start), length: STILL_SECONDS })
