/**
 * Names Shotstack defines (SHOTSTACK.md §4–§6). The schema accepts these even before a plugin renders
 * them, so any real edit validates; the plan then asks the registry and reports a missing plugin.
 */

const SPEEDS = ['', 'Slow', 'Fast'] as const
const withSpeeds = (bases: readonly string[]) => bases.flatMap((b) => SPEEDS.map((s) => b + s))

/** The 16 asset types of the OAS `Asset` discriminator. */
export const SHOTSTACK_ASSET_TYPES = [
  'video',
  'image',
  'text',
  'rich-text',
  'audio',
  'luma',
  'caption',
  'rich-caption',
  'html',
  'html5',
  'title',
  'shape',
  'svg',
  'text-to-image',
  'image-to-video',
  'text-to-speech',
] as const

/** Transition bases; every base but `zoom` also comes as `…Slow` and `…Fast`. */
export const TRANSITION_BASES = [
  'fade',
  'reveal',
  'wipeLeft',
  'wipeRight',
  'slideLeft',
  'slideRight',
  'slideUp',
  'slideDown',
  'carouselLeft',
  'carouselRight',
  'carouselUp',
  'carouselDown',
  'shuffleTopRight',
  'shuffleRightTop',
  'shuffleRightBottom',
  'shuffleBottomRight',
  'shuffleBottomLeft',
  'shuffleLeftBottom',
  'shuffleLeftTop',
  'shuffleTopLeft',
] as const

/** All 62 values of the OAS `Transition` enum (`none` included). */
export const SHOTSTACK_TRANSITIONS: readonly string[] = ['none', ...withSpeeds(TRANSITION_BASES), 'zoom']

/** The 18 motion effects. */
export const SHOTSTACK_EFFECTS: readonly string[] = withSpeeds(['zoomIn', 'zoomOut', 'slideLeft', 'slideRight', 'slideUp', 'slideDown'])

/** The filters (`none` is a no-op). */
export const SHOTSTACK_FILTERS = ['none', 'blur', 'boost', 'contrast', 'darken', 'greyscale', 'lighten', 'muted', 'negative'] as const

export const POSITIONS = ['top', 'topRight', 'right', 'bottomRight', 'bottom', 'bottomLeft', 'left', 'topLeft', 'center'] as const
export type Position = (typeof POSITIONS)[number]

export const FITS = ['crop', 'cover', 'contain', 'none'] as const

/** Splits `slideLeftFast` into its base and speed; a name without a suffix has speed ''. */
export function splitSpeed(name: string): { base: string; speed: '' | 'Slow' | 'Fast' | 'VeryFast' } {
  const m = /^(.*?)(VeryFast|Slow|Fast)$/.exec(name)
  return m?.[1] ? { base: m[1], speed: m[2] as 'Slow' | 'Fast' | 'VeryFast' } : { base: name, speed: '' }
}

/**
 * A transition plugin's names: its own and one for each speed its `durations` name (`{ '': 1, Slow: 2 }` is
 * `wipeDown` and `wipeDownSlow`), as the plan resolves them (core/plan/layers.ts).
 */
export function transitionNames(p: { name: string; durations: Partial<Record<'' | 'Slow' | 'Fast' | 'VeryFast', number>> }): string[] {
  return [p.name, ...(['Slow', 'Fast', 'VeryFast'] as const).filter((speed) => p.durations[speed] !== undefined).map((speed) => p.name + speed)]
}

/** An effect plugin's names: its own and its `Slow` and `Fast` speeds, as Shotstack's effects have them (`zoomInSlow`). */
export function effectNames(p: { name: string }): string[] {
  return [p.name, `${p.name}Slow`, `${p.name}Fast`]
}
