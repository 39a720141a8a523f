// reelforge's public API: everything a library user names, and nothing else. Plugin authors' building blocks
// are in `reelforge/kit` (kit.ts). docs/library.md's "Public API" lists both; test/api/public-api.test.ts holds them to it.

// Rendering
export { createRenderer, type RendererOptions } from './plugins/create-renderer.js'
export { renderSegmented, type PieceRenderer, type SegmentedOptions } from './service/isolation/render-segmented.js'
export type {
  Compositor,
  PlannedRender,
  PlanOptions,
  PreviewSession,
  PreviewState,
  RenderOptions,
  RenderProgress,
  RenderResult,
  RenderStage,
} from './core/index.js'

// Edits: the schema (valibot) and the type an edit literal is checked against
export { EditSchema } from './core/index.js'
export type { Edit } from './core/index.js'
// The names and assets an edit may use; a plugin adds its own to the interfaces (`declare module 'reelforge'`)
export type {
  Asset,
  AssetTypes,
  EffectName,
  EffectNames,
  FilterName,
  FilterNames,
  FitName,
  FitNames,
  FontFamilies,
  FontFamily,
  OutputFormat,
  OutputFormats,
  TransitionName,
  TransitionNames,
} from './core/index.js'

// Errors
export { RenderError } from './core/index.js'
export type { Issue, RenderErrorCode, Warning } from './core/index.js'

// Plugins: helpers that type a plugin object, and the plugin contracts
export {
  defineAiProvider,
  defineAssetPlugin,
  defineEffectPlugin,
  defineFilterPlugin,
  defineFitPlugin,
  defineLoaderPlugin,
  defineOutputPlugin,
  defineProviderPlugin,
  defineTransitionPlugin,
} from './core/index.js'
export { defineGlslTransition, type GlslTransitionOptions } from './plugins/index.js'
export type {
  AiProviderPlugin,
  AiTask,
  AiTasks,
  AiRunContext,
  TimedWord,
  AssetPlugin,
  EffectPlugin,
  FilterPlugin,
  FitPlugin,
  LoaderPlugin,
  OutputPlugin,
  Plugin,
  PluginKind,
  ProviderPlugin,
  TransitionPlugin,
} from './core/index.js'

// AI image providers (vendor wire APIs) and the free local generator
export { automatic1111Provider, bflProvider, openaiProvider, sandboxProvider, stabilityProvider } from './plugins/index.js'
export type { Automatic1111Options, BflOptions, OpenAIOptions, StabilityOptions } from './plugins/index.js'

// AI task providers (text, speech, transcription, video, upscale, avatar): vendor wire APIs and local engines
export {
  didAvatarProvider,
  elevenlabsSpeechProvider,
  espeakSpeechProvider,
  ffmpegUpscaleProvider,
  heygenAvatarProvider,
  localTranscriptionProvider,
  lumaVideoProvider,
  openaiSpeechProvider,
  openaiTextProvider,
  openaiTranscriptionProvider,
  runwayVideoProvider,
  sandboxAvatarProvider,
  sandboxTextProvider,
  sandboxVideoProvider,
} from './plugins/index.js'
export type {
  DidAvatarOptions,
  ElevenLabsSpeechOptions,
  FfmpegUpscaleOptions,
  HeygenAvatarOptions,
  LumaVideoOptions,
  OpenAISpeechOptions,
  OpenAITextOptions,
  OpenAITranscriptionOptions,
  RunwayVideoOptions,
} from './plugins/index.js'

// Prompt to video: a script from any text engine, then a narrated, captioned edit
export { storyboard } from './plugins/index.js'
export type { ScriptWriter, Storyboard, StoryboardRequest } from './plugins/index.js'

// Webhooks: what a receiver verifies
export { SIGNATURE_HEADER, verifyWebhook } from './service/webhooks/signature.js'

// The /v1 service
export { createService, defaultConfig } from './service-entry.js'
export type { Service, ServiceApp, ServiceConfig, ServiceOverrides } from './service-entry.js'
