// The text of core/schema/edit-names.ts (see edit-type-source.mts): each kind of name an edit may use, as an
// interface whose keys are the names. An interface, not a union, because a plugin's author can add to it
// (declaration merging) while a misspelt built-in name stays an error; `keyof` turns it into the union.

export interface BuiltinNames {
  transitions: string[]
  effects: string[]
  filters: string[]
  fits: string[]
  fonts: string[]
  outputs: string[]
}

const members = (names: readonly string[]) => names.map((n) => `  ${JSON.stringify(n)}: true`).join('\n')

const doc = (what: string, example: string) =>
  `/**\n * ${what}.\n * A plugin that adds one declares it here, so edits naming it compile:\n * \`declare module 'reelforge' { interface ${example}: true } }\`\n */\n`

/** The generated file's text below its header. */
export function namesFile(names: BuiltinNames): string {
  return `import type { AssetTypes } from './edit-assets.js'

export type { AssetTypes } from './edit-assets.js'

/** An asset: one of \`AssetTypes\`, told apart by its \`type\`. */
export type Asset = AssetTypes[keyof AssetTypes]

${doc("Transition names (a clip's `transition.in`/`out`): Shotstack's, with their `Slow`/`Fast` forms, and gl-transitions' as `gl:<name>`", "TransitionNames { 'my-iris'")}export interface TransitionNames {
${members(names.transitions)}
}
/** A declared transition's own name, not one of Shotstack's speed variants (\`fadeSlow\`), nor \`none\`. */
type TransitionBase = Exclude<Extract<keyof TransitionNames, string>, 'none' | \`\${string}\${'Slow' | 'Fast'}\`>
/**
 * A declared transition name or one of its speeds (\`wipeDownSlow\`, \`gl:cubeFast\`: a plugin's \`durations\` name
 * them, a GLSL transition has all three); the validator holds a speed to the plugin's \`durations\`.
 */
export type TransitionName = Extract<keyof TransitionNames, string> | \`\${TransitionBase}\${'Slow' | 'Fast' | 'VeryFast'}\`

${doc("Motion effect names (a clip's `effect`)", "EffectNames { 'wobble'")}export interface EffectNames {
${members(names.effects)}
}
/** A declared effect's own name, not one of its speed variants (\`zoomInSlow\`). */
type EffectBase = Exclude<Extract<keyof EffectNames, string>, \`\${string}\${'Slow' | 'Fast'}\`>
/** A declared effect name or one of its speeds (\`driftSlow\`: a plugin's effect gets \`speed: 'Slow'\`). */
export type EffectName = Extract<keyof EffectNames, string> | \`\${EffectBase}\${'Slow' | 'Fast'}\`

${doc("Filter names (a clip's `filter`)", "FilterNames { 'sepia'")}export interface FilterNames {
${members(names.filters)}
}
export type FilterName = Extract<keyof FilterNames, string>

${doc("Fit names (a clip's `fit`)", "FitNames { 'stretch-width'")}export interface FitNames {
${members(names.fits)}
}
export type FitName = Extract<keyof FitNames, string>

${doc('Output formats (`output.format`)', "OutputFormats { 'webp'")}export interface OutputFormats {
${members(names.outputs)}
}
export type OutputFormat = Extract<keyof OutputFormats, string>

/**
 * The built-in font families. A family an edit brings in \`timeline.fonts\` (the name embedded in the file) is declared
 * the same way: \`declare module 'reelforge' { interface FontFamilies { 'Acme Sans': true } }\`.
 */
export interface FontFamilies {
${members(names.fonts)}
}

/** A weight written into the family's name, as Shotstack's edits do: "Montserrat ExtraBold". */
export type FontWeightName = 'Thin' | 'ExtraLight' | 'Light' | 'Regular' | 'Medium' | 'SemiBold' | 'Bold' | 'ExtraBold' | 'Black'

/** A font family: a known one, with a weight in its name ("Montserrat ExtraBold") or an optical size ("DM Sans 9pt"). */
export type FontFamily =
  | Extract<keyof FontFamilies, string>
  | \`\${Extract<keyof FontFamilies, string>} \${FontWeightName}\`
  | \`\${Extract<keyof FontFamilies, string>} \${number}pt\`
`
}
