import type { CompiledMotion, FilterPlugin, PreparedAsset, Size } from '../plugin.js'
import type { Registry } from '../registry.js'
import type { Gpu } from '../render/gpu.js'
import type { ValidEdit } from '../schema/validate.js'
import { splitSpeed, type Position } from '../schema/names.js'
import { callHook, type PluginId } from '../plugin-driver.js'
import { bleedTexels, windowWithBleed } from './bleed.js'
import { effectReach } from './effect-reach.js'
import { sized } from './plugin-answers.js'
import { compileTrack, isAnimated, type Track } from './tween.js'
import { layerWindow, type CropFractions } from './window.js'

type Clip = ValidEdit['timeline']['tracks'][number]['clips'][number]

/** Everything the frame loop needs to draw one clip, resolved once. */
export interface LayerPlan {
  id: number
  path: string
  /** The asset type (the plugin that draws it). */
  type: string
  /** Track index; 0 is the top layer. */
  track: number
  /** `luma` layers are not drawn: they mask the content layer that lists them in `lumas`. */
  role: 'content' | 'luma'
  /** Luma mattes masking this layer while they are on screen. */
  lumas: LayerPlan[]
  /** Draw order key: lower draws first (bottom tracks, then earlier clips). */
  order: number
  start: number
  length: number
  startFrame: number
  endFrame: number
  asset: PreparedAsset
  /** Size the layer is laid out at (the clip box when `width`/`height` are set, else the fitted asset). */
  fitted: Size
  /** Largest size it is drawn at; sources rasterise no bigger. */
  need: Size
  /** The source's size at its largest on the frame, not capped at its own as `need` is (it may be drawn larger). */
  drawn: Size
  position: Position
  quad: [number, number, number, number]
  uv: [number, number, number, number]
  /** The box's window in a texture that holds a bleed around it (`PreparedAsset.bleed`); undefined without one. */
  hold?: [number, number, number, number]
  opacity: Track
  offsetX: Track
  offsetY: Track
  scale: Track
  rotate: Track
  skewX: Track
  skewY: Track
  transitionIn?: LayerMotion & { duration: number }
  transitionOut?: LayerMotion & { duration: number }
  effect?: LayerMotion
  /** Index into the plan's filter list, or -1. */
  filter: number
  /** False when every frame of the clip looks the same (static asset, no motion). */
  animated: boolean
}

/** A compiled transition or effect, with the plugin that made it and the clip path it serves (for its errors). */
export interface LayerMotion {
  motion: CompiledMotion
  plugin: PluginId
  /** `timeline.tracks[0].clips[2].effect`, `….transition.in` */
  path: string
}

export interface LayerContext {
  registry: Registry
  gpu: Gpu
  frame: Size
  fps: number
  /** 'down' = the seed's convention (+y moves down); 'up' = Shotstack's (+y moves up). */
  yAxis: 'down' | 'up'
  /** Distinct filter shaders, each with the plugin and the first clip that uses it (for compile errors). */
  filters: { glsl: string; plugin: FilterPlugin; path: string }[]
}

/** Builds one clip's layer: fit, window, tracks, and compiled motion. Cold. */
export function buildLayer(
  clip: Clip,
  at: { id: number; path: string; track: number; order: number; start: number; length: number },
  asset: PreparedAsset & { size: Size },
  ctx: LayerContext,
): LayerPlan {
  const { registry, frame, fps } = ctx
  const params = clip.asset as { crop?: CropFractions }
  const crop = params.crop
  const cropped = {
    width: asset.size.width * (1 - (crop?.left ?? 0) - (crop?.right ?? 0)),
    height: asset.size.height * (1 - (crop?.top ?? 0) - (crop?.bottom ?? 0)),
  }
  const box = clip.width || clip.height ? { width: clip.width ?? frame.width, height: clip.height ?? frame.height } : undefined
  const fit = registry.get('fit', clip.fit ?? asset.defaultFit ?? 'crop', `${at.path}.fit`)
  // The validator keeps a crop from leaving nothing (validate.ts), so the fit answers for a real size.
  const fittedAsset = callHook(fit, 'fit', `${at.path}.fit`, () => sized(fit.fit(cropped, box ?? frame)))
  const flip = clip.transform?.flip
  const { quad, uv } = layerWindow(fittedAsset, box, crop, !!flip?.horizontal, !!flip?.vertical)
  const ySign = ctx.yAxis === 'up' ? -1 : 1

  const layer: LayerPlan = {
    ...at,
    type: clip.asset.type,
    role: asset.luma ? 'luma' : 'content',
    lumas: [],
    startFrame: Math.round(at.start * fps),
    endFrame: Math.round((at.start + at.length) * fps),
    asset,
    fitted: box ?? fittedAsset,
    need: fittedAsset,
    drawn: fittedAsset,
    position: clip.position ?? 'center',
    quad,
    uv,
    opacity: compileTrack(clip.opacity, 1),
    offsetX: compileTrack(clip.offset?.x, 0),
    offsetY: compileTrack(clip.offset?.y, 0, (y) => y * ySign),
    scale: compileTrack(clip.scale, 1),
    rotate: compileTrack(clip.transform?.rotate?.angle, 0),
    skewX: compileTrack(clip.transform?.skew?.x, 0),
    skewY: compileTrack(clip.transform?.skew?.y, 0),
    filter: -1,
    animated: !asset.static,
  }
  layer.transitionIn = transition(clip.transition?.in, 'in', at, ctx)
  layer.transitionOut = transition(clip.transition?.out, 'out', at, ctx)
  const effect = clip.effect ?? asset.defaultEffect
  if (effect) {
    const { base, speed } = splitSpeed(effect)
    const plugin = registry.find('effect', effect) ?? registry.get('effect', base, `${at.path}.effect`)
    const path = `${at.path}.effect`
    const motion = callHook(plugin, 'compile', path, () =>
      plugin.compile({ speed: speed === 'VeryFast' ? 'Fast' : speed, length: at.length, fitted: layer.fitted, frame }),
    )
    layer.effect = { motion, plugin, path }
  }
  if (clip.filter && clip.filter !== 'none') {
    const plugin = registry.get('filter', clip.filter, `${at.path}.filter`)
    let index = ctx.filters.findIndex((f) => f.glsl === plugin.glsl)
    if (index < 0) index = ctx.filters.push({ glsl: plugin.glsl, plugin, path: `${at.path}.filter` }) - 1
    layer.filter = index
  }
  const tweened = [
    clip.opacity,
    clip.offset?.x,
    clip.offset?.y,
    clip.scale,
    clip.transform?.rotate?.angle,
    clip.transform?.skew?.x,
    clip.transform?.skew?.y,
  ].some(isAnimated)
  layer.animated ||= tweened || !!layer.transitionIn || !!layer.transitionOut || !!layer.effect
  // Rasterise the whole source for the largest scale the clip reaches (its effect's: effect-reach.ts), never
  // above its own size; a crop shows part of it, so the whole is needed proportionally larger.
  const maxScale =
    Math.max(1, ...[0, at.length / 2, at.length].map((t) => layer.scale(t))) *
    (layer.effect ? effectReach(layer.effect.plugin, layer.effect.motion, layer.effect.path) : 1)
  const kx = (fittedAsset.width * maxScale) / cropped.width
  const ky = (fittedAsset.height * maxScale) / cropped.height
  layer.drawn = { width: asset.size.width * kx, height: asset.size.height * ky }
  layer.need = { width: Math.max(1, Math.ceil(asset.size.width * Math.min(1, kx))), height: Math.max(1, Math.ceil(asset.size.height * Math.min(1, ky))) }
  // Drawing past the box (text's descenders): the quad reaches over the margin the texture holds around the box.
  const texels = asset.bleed && bleedTexels(asset.bleed, asset.size, layer.need)
  if (texels && texels.top + texels.right + texels.bottom + texels.left > 0) Object.assign(layer, windowWithBleed(quad, uv, texels, layer.need))
  return layer
}

function transition(name: string | undefined, direction: 'in' | 'out', at: { path: string; length: number }, ctx: LayerContext) {
  if (!name || name === 'none') return undefined
  const { base, speed } = splitSpeed(name)
  const path = `${at.path}.transition.${direction}`
  const plugin = ctx.registry.find('transition', name) ?? ctx.registry.get('transition', base, path)
  const exact = plugin.name === name
  const duration = Math.min(at.length, exact ? plugin.durations[''] : (plugin.durations[speed || ''] ?? plugin.durations['']))
  return { motion: callHook(plugin, 'compile', path, () => plugin.compile({ direction, duration, gpu: ctx.gpu })), plugin, path, duration }
}
