import type { GenericSchema, InferOutput } from 'valibot'
import type { Gpu, Texture } from './render/gpu.js'
import type { AudioSource } from './audio/types.js'
import type { FontBook } from './fonts.js'
import type { LAYER_STATE } from './render/layer-state.js'
import type { AiAnswer, AiAsk, AiRunContext, AiTask, AiTasks, TimedWord } from './ai.js'

/** Pixel dimensions. */
export interface Size {
  width: number
  height: number
}

/** A margin on each side of a box, in pixels. */
export interface Bleed {
  top: number
  right: number
  bottom: number
  left: number
}

interface Base<K extends string> {
  kind: K
  /** Unique per kind. Asset plugins are named by the asset `type` they draw, transitions by their Shotstack name. */
  name: string
  version?: string
}

// ── Assets ──────────────────────────────────────────────────────────────────────────────────

/** What an asset plugin gets while it prepares one clip. */
export interface PrepareContext {
  /** The clip's path, for error messages: `timeline.tracks[0].clips[2]`. */
  readonly path: string
  /** Output frame size and rate. */
  readonly frame: Size & { fps: number }
  /** The clip's own box (`width`/`height` on the clip), when it has one: text and html lay out in it. */
  readonly box?: Size
  readonly signal: AbortSignal
  /** Fetches `src` through the loader plugins (http, file, …) and returns a local file path. */
  load(src: string): Promise<string>
  /** Records a non-fatal remark on the render (substituted font, ignored markup…). */
  warn(message: string): void
  /** Built-in and `timeline.fonts` families. */
  readonly fonts: FontBook
  /** Directory for scratch files that live as long as the render. */
  readonly tmpDir: string
  /** Sign convention of `offset.y` for asset-level offsets (see `CompositorOptions.yAxis`). */
  readonly yAxis: 'down' | 'up'
  /** Generates an image through the image providers (AI assets in timelines); returns a local file path. */
  generateImage(request: ImageRequest): Promise<string>
  /** The model names the registered image providers serve (an edit's `model` is asked for when listed here). */
  readonly imageModels: readonly string[]
  /**
   * Runs an AI task for this clip (a video from a prompt, a voice-over) on the render's engines; the same ask
   * twice in one render is answered once. The service charges, records and rate-limits it.
   */
  runAi<T extends AiTask>(task: T, ask: AiAsk<T>): Promise<AiAnswer<T>>
  /** The cores this render may use (`RenderOptions.cores`): decoders size their threads to it; absent, the whole machine. */
  readonly cores?: number
  /** The clip's `length` in seconds when the edit gives a number (`auto`/`end` are not known yet). */
  readonly length?: number
  /** The words spoken in a local media file, timed, through the registered transcription engine (local first); undefined when there is none. */
  transcribe(path: string): Promise<TimedWord[] | undefined>
  /**
   * The clip with this `alias`, for `alias://` sources (captions of a voice-over): its asset as written, and
   * how many seconds after this clip it starts (0 when either start is `auto`/`alias://`).
   */
  alias(name: string): { asset: { type: string; [key: string]: unknown }; offset: number } | undefined
}

/** The result of `prepare`: cheap facts known up front, and how to start producing pixels. */
export interface PreparedAsset {
  /** Intrinsic pixel size before fit; null for sound-only assets, which are never drawn. */
  readonly size: Size | null
  /** Natural duration in seconds (used by `length: "auto"`); undefined for stills (3 s). */
  readonly duration?: number
  /** True when every frame shows the same pixels: the compositor may reuse the previous frame. */
  readonly static?: boolean
  /** Effect used when the clip names none (image-to-video's slow zoom). */
  readonly defaultEffect?: string
  /** A luma matte: not drawn itself, it masks the content clip it overlaps on its own track. */
  readonly luma?: boolean
  /**
   * Fit used when the clip names none. Shotstack fills the frame (`crop`) for media, but lays out boxes with
   * their own pixel size (html, text, shapes) unscaled, so those plugins say `none`.
   */
  readonly defaultFit?: string
  /** Sound this clip contributes to the mix. */
  readonly audio?: AudioSource
  /**
   * How far the asset's drawing reaches past `size` on each side (pixels of `size`): text whose descenders hang
   * below its box. Layout, fit and crop still use `size`; the textures `open`'s source returns then hold the box
   * at `need` plus `bleedTexels(bleed, size, need)` around it, and the compositor draws that margin outside the box,
   * moving with it.
   */
  readonly bleed?: Bleed
  /**
   * Opened at the clip's first frame, after the sources that end there have closed, instead of shortly before it
   * shows: for an `open` that briefly holds far more than its source keeps (a photo decoded at full size, 48 MB
   * for 12 MP, then scaled), so that moment never meets the source before it (a video's decoder, the last photo).
   * The frames wait for it, while the encoder works through those it holds.
   */
  readonly openWhenShown?: boolean
  /**
   * Cold: runs shortly before the clip first shows (`openWhenShown`: as it shows). May decode, rasterise and upload.
   * `need` is the largest size the plan will draw the asset at, so sources can be rasterised no bigger;
   * `from` is the first clip-local time that will be asked for (0, or later when a render starts mid-clip);
   * `hints.scrub`: a preview session will ask for times in any order and keep the source open while the edit is
   * being worked on — worth keeping what makes a jump cheap (decoded frames, a decoder to seek).
   */
  open?(gpu: Gpu, need: Size, from: number, hints?: OpenHints): Promise<FrameSource>
  /** Releases what `prepare` allocated (temp files, probes). */
  dispose?(): void
}

/** How a source will be used, beyond what a render asks (`PreparedAsset.open`). */
export interface OpenHints {
  /** Frames are asked for in any order, as a playhead is dragged (a preview session). */
  scrub?: boolean
  /** Seconds the clip lasts: nothing past it will be asked for (a source reading ahead can stop there). */
  length?: number
  /**
   * Smaller than `need` where the frame is scaled down after drawing (`output.scaleTo`): the most of the source
   * the picture shows. A source that keeps many frames (a scrubbed video) may keep them at this size, drawn
   * stretched to `need`, to keep more of them in the same memory.
   */
  keep?: Size
  /**
   * Frames the source covers exactly (core/render/cover.ts) may go to the encoder as BT.709 TV-range I420: a
   * decoded video whose frames are that already can decode to I420 and offer `FrameSource.i420` (and convert for
   * `frame` and `pixels`) — 60 % fewer bytes from its decoder, and no 8 MB RGBA frames to copy.
   */
  i420?: boolean
}

/** A clip's live picture while it is on screen. */
export interface FrameSource {
  /**
   * `frame` answers any time in any order, not only times that never decrease (a preview session asks as the
   * playhead moves; without this it opens a source again to go back). Static sources always do.
   */
  readonly anyOrder?: boolean
  /**
   * HOT: once per frame — the texture for clip-local time `t` seconds, or null when there is nothing to
   * draw (a video that ended before its clip). Return a promise only when a decoder lags.
   */
  frame(t: number): Texture | null | Promise<Texture | null>
  /**
   * HOT, optional: the frame `frame(t)` would show as its premultiplied RGBA bytes (the texture's size, top row
   * first), or null where there is nothing. Where a layer covers the frame (core/render/cover.ts) the frame loop
   * makes the frame around the GPU: an `opaque` source's pixels unchanged or scaled on the CPU, with texel-exact
   * layers over it (titles) blended there too — no upload, no GPU draw, no read back. Valid until the next
   * `frame` or `pixels`; times never decrease between the two.
   */
  pixels?(t: number): Uint8Array | null | Promise<Uint8Array | null>
  /**
   * HOT, optional (only where `OpenHints.i420` asked): the frame `pixels(t)` would give, packed to BT.709 TV-range
   * I420 (Y, U, V planes at the texture's size) — what packing those pixels gives, within rounding — for a frame the
   * source covers exactly with nothing over it. Asked only of `opaque` sources with `pixels`, at even sizes 16 or
   * more wide; null or another size and the frame loop asks `pixels(t)` for the same `t`. Valid as `pixels`' answer
   * is; times never decrease across `frame`, `pixels` and `i420`.
   */
  i420?(t: number): Uint8Array | null | Promise<Uint8Array | null>
  /**
   * HOT, optional, as `i420`: the frame at `opacity` (0..1) over a constant `background` (premultiplied RGBA 0..1)
   * — what packing `pixels(t)` so blended gives (each channel (c·o + bg·(256 − o) + 128) >> 8, o the opacity in
   * 256ths), within rounding: a frame a clip fading in or out covers alone, over the timeline's background. Asked
   * as `i420` is; null or another size and the frame loop blends `pixels(t)` itself.
   */
  i420Over?(t: number, opacity: number, background: readonly number[]): Uint8Array | null | Promise<Uint8Array | null>
  /** Every pixel `pixels` gives is opaque (alpha 255): such a source can be the frame's base. */
  readonly opaque?: boolean
  /**
   * Optional: the size of the texture `frame` gives and of the pixels `pixels` gives, where known without making
   * the texture. A layer blended on the CPU over a frame made there then needs no texture, and a render whose
   * frames are all made there never opens GL (core/render/lazy-gpu.ts); without it `frame` is asked for the size.
   */
  readonly size?: Size
  close(): void
}

/** Draws one asset `type`. The plugin owns its params schema. */
export interface AssetPlugin<S extends GenericSchema = GenericSchema> extends Base<'asset'> {
  schema: S
  /** Cold: once per clip during `plan()`. Fetch and probe; allocate no GPU memory yet. */
  prepare(params: InferOutput<S>, ctx: PrepareContext): Promise<PreparedAsset>
}

// ── Motion: transitions and effects ─────────────────────────────────────────────────────────

/**
 * The animatable state of one layer on one frame, before layout. Offsets are fractions of the frame,
 * x right-positive and y DOWN-positive (the seed's convention); `zoom` scales about the layer's centre.
 * Its fields and their neutral values are listed once, in `LAYER_STATE` (render/layer-state.ts).
 */
export type LayerState = { -readonly [K in keyof typeof LAYER_STATE]: number }

/** The hot half of a transition or effect. */
export interface CompiledMotion {
  /** HOT: `progress` runs 0 → 1 across the transition (or the clip, for effects). Mutate `layer` only. */
  apply(layer: LayerState, progress: number): void
  /**
   * HOT, for whole-frame (GLSL) transitions: draws the transition between `from` (the frame without the
   * layer) and `to` (with it) over the current frame. `progress` runs 0 → 1 towards `to`.
   */
  blend?(from: Texture, to: Texture, progress: number): void
  dispose?(): void
}

export interface TransitionContext {
  direction: 'in' | 'out'
  /** Seconds the transition lasts. */
  duration: number
  gpu: Gpu
}

/** A clip's `transition.in` / `transition.out`. `Slow`/`Fast` variants of a name resolve to the same plugin. */
export interface TransitionPlugin extends Base<'transition'> {
  /** Seconds per speed suffix; `''` is the plain name. */
  durations: { '': number; Slow?: number; Fast?: number; VeryFast?: number }
  /** Cold: once per clip side, at plan time. */
  compile(ctx: TransitionContext): CompiledMotion
}

export interface EffectContext {
  speed: '' | 'Slow' | 'Fast'
  /** Clip length in seconds. */
  length: number
  /** The layer's fitted size and the frame size, for effects that must keep the frame covered. */
  fitted: Size
  frame: Size
}

/** A clip's `effect`: motion across the clip's whole length. */
export interface EffectPlugin extends Base<'effect'> {
  compile(ctx: EffectContext): CompiledMotion
}

/** A clip's `filter`: a per-pixel look applied on the GPU. */
export interface FilterPlugin extends Base<'filter'> {
  /** GLSL body of `vec4 look(vec4 c)` over premultiplied colour (return the new colour); compiled once per plan. */
  glsl: string
}

// ── Fit ─────────────────────────────────────────────────────────────────────────────────────

/** A clip's `fit`: the size an asset is drawn at inside a box. Pure and sync. */
export interface FitPlugin extends Base<'fit'> {
  fit(src: Size, box: Size): Size
}

// ── Outputs ─────────────────────────────────────────────────────────────────────────────────

/** What an output plugin is asked to produce. */
export interface OutputSpec {
  path: string
  /** Size of the frames written (the composited size). */
  width: number
  height: number
  /** Size of the file's picture when it differs (`output.scaleTo`); sinks scale to it. */
  scaleTo?: Size
  fps: number
  /** Exact rate for ffmpeg, e.g. `30000/1001`. */
  fpsRational: string
  frames: number
  quality: 'verylow' | 'low' | 'medium' | 'high' | 'veryhigh'
  repeat?: boolean
  /** The mixed soundtrack as ffmpeg inputs plus a filtergraph; absent when silent or muted. */
  audio?: AudioMix
  /** Seconds of output (what the audio graph is cut or padded to). */
  duration: number
  signal: AbortSignal
  /** The cores this render may use (`RenderOptions.cores`): encoders size their threads to it; absent, the whole machine. */
  cores?: number
  /** Encode on the CPU even where NVENC works (`RenderOptions.cpuEncoder`). */
  cpuEncoder?: boolean
  /** Encode for speed over size (`RenderOptions.draft`): the encoder's fastest settings at the same quality target. */
  draft?: boolean
  /** Layout of the frames `write` gets: RGBA (4 bytes a pixel, the default) or I420 packed on the GPU (`yuvFrames`). */
  pixelFormat?: 'rgba' | 'yuv420p'
}

export interface AudioMix {
  /** ffmpeg input arguments, e.g. `['-i', '/tmp/a.mp3']`, in input order (index 1 upward; 0 is video). */
  inputs: string[][]
  /** A `-filter_complex` graph whose final pad is `[aout]`. */
  filter: string
}

export interface OutputResult {
  path: string
  bytes: number
}

/** Receives raw RGBA frames, top row first. */
export interface FrameSink {
  /** Resolves when the sink can take another frame (backpressure). The buffer is not reused before then. */
  write(rgba: Uint8Array): void | Promise<void>
  close(): Promise<OutputResult>
  /** Stops at once and removes partial output. */
  abort(): void
}

/** An output `format` (mp4, gif, …). */
export interface OutputPlugin extends Base<'output'> {
  mime: string
  extension: string
  /** `video` takes frames; `still` takes exactly one; `audio` takes none. */
  takes: 'video' | 'still' | 'audio'
  /** False for formats that cannot carry sound (gif); the audio graph is then not built. */
  sound?: boolean
  /**
   * Takes I420 frames (BT.709, TV range; `spec.pixelFormat: 'yuv420p'`) when the compositor converts on the GPU
   * (where that wins: a hardware GL renderer, or `REELFORGE_GPU_YUV=on`). Formats that encode yuv420p set it.
   */
  yuvFrames?: boolean
  open(spec: OutputSpec): Promise<FrameSink>
}

// ── Image providers ─────────────────────────────────────────────────────────────────────────

/** What to generate: the seed's `POST /v1/ai/image` fields. */
export interface ImageRequest {
  prompt: string
  /** Public model name: `dall-e-3`, `flux`, `stable-diffusion`. */
  model: string
  width: number
  height: number
  style?: string
  negativePrompt?: string
  steps?: number
  seed?: number
  /** How closely to follow the prompt (classifier-free guidance, Stability's `cfg_scale`); default the vendor's. */
  guidance?: number
  /** A vendor's style preset by its own name (Stability's `cinematic`, `anime`, …): wins over `style`. */
  preset?: string
  /** A vendor's own engine id (Stability's `stable-diffusion-xl-1024-v1-0`) in place of the provider's configured one. */
  engine?: string
}

/** Image bytes from a provider (any size: the caller fits them to the requested size). */
export interface GeneratedImage {
  data: Uint8Array
  mime: string
  /** The plugin that made it (`openai`, `bfl`, `stability`, `automatic1111`, `sandbox`). */
  provider: string
  /** The upstream model actually used. */
  upstreamModel: string
  revisedPrompt?: string
}

/** Generates images for one or more public model names through a vendor's API. */
export interface ProviderPlugin extends Base<'provider'> {
  /** Public model names it serves. */
  models: readonly string[]
  /** Cold per request; network-bound. Throws RenderError `E_PROVIDER_FAILED` / `E_PROVIDER_TIMEOUT` with a clear reason. */
  generate(request: ImageRequest, opts: { signal: AbortSignal }): Promise<GeneratedImage>
}

/**
 * A provider of one AI task (`text`, `speech`, `transcription`, `video`, `upscale`: core/ai.ts) for some public
 * model names: a vendor's wire API or a local engine. Throws RenderError `E_PROVIDER_FAILED` (with
 * `data.moderated` for a content refusal) or `E_PROVIDER_TIMEOUT` with a clear reason, never a credential.
 */
export interface AiProviderPlugin<T extends AiTask = AiTask> extends Base<'ai'> {
  task: T
  models: readonly string[]
  /** Free and offline (sandbox keys use only these). */
  local?: boolean
  /** A deterministic stand-in, not a real model (sandbox text, sandbox video): only sandbox keys are given it. */
  standIn?: boolean
  run(request: AiTasks[T][0], ctx: AiRunContext): Promise<AiTasks[T][1]>
}

// ── Loaders ─────────────────────────────────────────────────────────────────────────────────

export interface LoadContext {
  signal: AbortSignal
  cacheDir: string
  /** Directory relative paths resolve against (the edit file's folder for the CLI). */
  baseDir: string
  maxBytes: number
  timeoutMs: number
}

/** Turns a `src` into a local file. Chosen by `test()`, highest `priority` first (rollup's hookFirst). */
export interface LoaderPlugin extends Base<'loader'> {
  priority?: number
  test(src: string): boolean
  /** Cold: returns the path of a local file holding the bytes of `src`. */
  load(src: string, ctx: LoadContext): Promise<string>
}

export type Plugin = AssetPlugin | TransitionPlugin | EffectPlugin | FilterPlugin | FitPlugin | OutputPlugin | LoaderPlugin | ProviderPlugin | AiProviderPlugin
export type PluginKind = Plugin['kind']
export type PluginOf<K extends PluginKind> = Extract<Plugin, { kind: K }>

/** Identity helpers that only help type inference. */
export const defineAssetPlugin = <S extends GenericSchema>(p: AssetPlugin<S>): AssetPlugin<S> => p
export const defineTransitionPlugin = (p: TransitionPlugin): TransitionPlugin => p
export const defineEffectPlugin = (p: EffectPlugin): EffectPlugin => p
export const defineFilterPlugin = (p: FilterPlugin): FilterPlugin => p
export const defineFitPlugin = (p: FitPlugin): FitPlugin => p
export const defineOutputPlugin = (p: OutputPlugin): OutputPlugin => p
export const defineLoaderPlugin = (p: LoaderPlugin): LoaderPlugin => p
export const defineProviderPlugin = (p: ProviderPlugin): ProviderPlugin => p
export const defineAiProvider = <T extends AiTask>(p: AiProviderPlugin<T>): AiProviderPlugin<T> => p
