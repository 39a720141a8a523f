// Public API of reelforge's core: re-exports only.
export { createCompositor } from './compositor.js'
export type {
  Compositor,
  CompositorOptions,
  ImageGenerator,
  PlannedRender,
  PlanOptions,
  RenderOptions,
  RenderProgress,
  RenderResult,
  RenderStage,
} from './compositor.js'
export type { PreviewSession, PreviewState } from './preview/session.js'
export { RenderError, invalidTimeline, pluginError } from './errors.js'
export type { Issue, RenderErrorCode, Warning } from './errors.js'
export { createRegistry } from './registry.js'
export { checkPluginShape, PLUGIN_KINDS } from './plugin-shape.js'
export { checkedImage } from './plan/plugin-answers.js'
export type { Registry } from './registry.js'
export * from './plugin.js'
export * from './ai.js'
export { createFontBook, familyKey, splitWeightName } from './fonts.js'
export type { FontBook, FontFace } from './fonts.js'
export type { AudioSource } from './audio/types.js'
export type { Gpu, Texture } from './render/gpu.js'
export { displayLost, ensureDisplay } from './render/display.js'
export { crashSite, describeCrashSite } from './render/crash-site.js'
export type { CrashSite } from './render/crash-site.js'
export { anchorOf, layerMatrix, neutralState } from './render/layout.js'
export { bleedTexels } from './plan/bleed.js'
export { easing, cubicBezier, EASING_NAMES } from './plan/easing.js'
export type { Ease } from './plan/easing.js'
export { compileTrack } from './plan/tween.js'
export { resolveTiming, STILL_AUTO_LENGTH } from './plan/timing.js'
export type { TimingInput } from './plan/timing.js'
export { parseColor, parseColorBytes, cssColor } from './plan/color.js'
export { applyMerge, placeholdersOf } from './plan/merge.js'
export type { Placeholder } from './plan/merge.js'
export { sizeFor, outputSize, scaleToSize, fpsRational } from './plan/output-size.js'
export type { RenderPlan } from './plan/plan.js'
export { buildAudioMix, volumeFilter, AUDIO_FADE_SECONDS } from './audio/graph.js'
export type { Placement } from './audio/graph.js'
export { RawVideoDecoder } from './ffmpeg/decoder.js'
export { createRgbaConverter, type RgbaConverter, type YuvMatrix } from './render/cpu-rgba.js'
export { i420Fits } from './render/cpu-yuv.js'
export { type WasmPixels, wasmPixels } from './render/wasm-pixels.js'
export type { DecoderOptions } from './ffmpeg/decoder.js'
export { fileFrameIndex, frameOrigin, originIn, readFrameIndex } from './ffmpeg/frame-times.js'
export type { FrameIndex, FrameOrigin } from './ffmpeg/frame-times.js'
export { scaleToFilter, writeStill } from './ffmpeg/still.js'
export { readFontInfo } from './font-file.js'
export type { FontFileInfo } from './font-file.js'
export type { LayerPlan } from './plan/layers.js'
export { createFfmpegSink } from './ffmpeg/frame-sink.js'
export { ffmpegArgs } from './ffmpeg/args.js'
export { spawnFfmpeg, runFfmpeg, ffmpegBin, ffprobeBin, lastLines, ffmpegReason, removePartial } from './ffmpeg/run.js'
export { encoderProcessEnv, frameProcessEnv, keepMallocSettingToSelf } from './ffmpeg/malloc-env.js'
export { probe, unreadableReason } from './ffmpeg/probe.js'
export { BT709_TAGS, bt709Filters, isHdr, type StreamColour, toneMapFilters } from './ffmpeg/tone-map.js'
export { probeFfmpeg, probeHardware, type Hardware, type HardwareCheck } from './ffmpeg/hardware.js'
export type { Probe, ProbedStream, ProbeOptions } from './ffmpeg/probe.js'
export { validateEdit } from './schema/validate.js'
export { nearest } from './schema/closest.js'
export type { ValidEdit, ParsedAsset, KnownNames, ValidateOptions } from './schema/validate.js'
export { EditSchema, TimelineSchema, SoundtrackSchema, MergeFieldSchema } from './schema/edit.js'
export type { Edit, EditInput, EditOutput } from './schema/edit.js'
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
} from './schema/edit-names.js'
export { frameEdit } from './schema/frame-edit.js'
export { OutputSchema, FORMATS, RESOLUTIONS, ASPECT_RATIOS, QUALITIES, FPS_VALUES } from './schema/output.js'
export type { Format, Quality, Resolution, AspectRatio, OutputSettings } from './schema/output.js'
export { ClipSchema, TrackSchema } from './schema/clip.js'
export * from './schema/assets-media.js'
export * from './schema/assets-text.js'
export * from './schema/assets-markup.js'
export { SHOTSTACK_ASSET_SCHEMAS } from './schema/assets.js'
export * from './schema/names.js'
export { num, int, NumberLike, BoolLike, Color, Src, oneOf, TweenSchema, numOrTween, show } from './schema/primitives.js'
export type { Animatable, TweenOutput } from './schema/primitives.js'
