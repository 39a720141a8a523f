import type { Animatable } from '../schema/primitives.js'

/** Sound a clip adds to the mix; placed at the clip's start and cut at its end by the audio graph. */
export interface AudioSource {
  /** Local file (already fetched). */
  path: string
  /** Seconds into the file where playback starts. */
  trim: number
  /** Playback rate (atempo); 1 = normal. */
  speed: number
  /** 0..1, constant or tweened over clip time. */
  volume: Animatable
  effect?: 'none' | 'fadeIn' | 'fadeOut' | 'fadeInFadeOut'
  /** Seconds of sound the file holds after `trim`, when known. */
  duration?: number
}
