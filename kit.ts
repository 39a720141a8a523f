// `reelforge/kit`: the building blocks for writing plugins and assembling renderers by hand — the contexts a
// plugin's hooks receive, GL and ffmpeg helpers, colour and easing, the schema primitives asset schemas are made
// of, the built-in plugin sets, and the network guard a loader must use. Library users need only 'reelforge'.

// Contracts a plugin's hooks receive and return
export type {
  AudioMix,
  Bleed,
  CompiledMotion,
  EffectContext,
  FrameSink,
  FrameSource,
  GeneratedImage,
  ImageRequest,
  LayerState,
  LoadContext,
  OpenHints,
  OutputResult,
  OutputSpec,
  PluginOf,
  PrepareContext,
  PreparedAsset,
  Size,
  TransitionContext,
} from './core/index.js'
export type { AudioSource, Gpu, Texture, FontBook, FontFace, ImageGenerator, AiAsk, AiAnswer, AiRunner } from './core/index.js'

// A renderer from parts
export { createCompositor, createRegistry, type CompositorOptions, type Registry } from './core/index.js'
export {
  builtinAssets,
  builtinEffects,
  builtinFilters,
  builtinFits,
  builtinFonts,
  builtinLoaders,
  builtinOutputs,
  builtinPlugins,
  builtinTransitions,
  DEFAULT_FONT,
} from './plugins/index.js'
export type { BuiltinOptions, FilePolicy, NetworkPolicy } from './plugins/index.js'

// Errors a plugin throws
export { invalidTimeline, pluginError } from './core/index.js'

// Schema primitives for asset schemas, and the names Shotstack defines
export { BoolLike, Color, int, num, NumberLike, numOrTween, oneOf, Src, TweenSchema, validateEdit } from './core/index.js'
export { SHOTSTACK_ASSET_TYPES, SHOTSTACK_EFFECTS, SHOTSTACK_FILTERS, SHOTSTACK_TRANSITIONS } from './core/index.js'
export type { Animatable, EditOutput, TweenOutput, ValidEdit } from './core/index.js'

// Motion, colour, layout
export { cubicBezier, easing, EASING_NAMES, type Ease } from './core/index.js'
export { cssColor, parseColor, parseColorBytes } from './core/index.js'
export { anchorOf, bleedTexels, layerMatrix, neutralState } from './core/index.js'

// Media: ffmpeg, probing, decoding
export {
  ffmpegArgs,
  ffmpegBin,
  ffprobeBin,
  frameOrigin,
  probe,
  probeFfmpeg,
  probeHardware,
  RawVideoDecoder,
  runFfmpeg,
  spawnFfmpeg,
  type DecoderOptions,
  type FrameOrigin,
  type Hardware,
  type HardwareCheck,
  type Probe,
  type ProbedStream,
  type ProbeOptions,
} from './core/index.js'

// Network: every loader fetches through the SSRF guard
export { addressGuard, AddressRefused, checkUrl, guardedAgent } from './plugins/index.js'

// Image providers: configuration from the environment, and fitting a vendor's image to the asked size
export { aiProvidersFromConfig, fitImage, providersFromConfig, type ProvidersConfig } from './plugins/index.js'

// Webhooks: signing and the HTTP sender a custom service composes
export { httpSender, type SendResult, type WebhookSender } from './service/webhooks/http-sender.js'
export { signWebhook } from './service/webhooks/signature.js'
