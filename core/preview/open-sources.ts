import { callHook } from '../plugin-driver.js'
import type { FrameSource, PreparedAsset, Size } from '../plugin.js'
import type { LayerPlan } from '../plan/layers.js'
import { atCrashSite } from '../render/crash-site.js'
import type { Gpu } from '../render/gpu.js'

interface Open {
  source: FrameSource
  /** Asked for any time in any order (static, or says so): never opened again to go back. */
  anyOrder: boolean
  /** The last clip-local time asked for. */
  last: number
  /** When it was last on screen (for closing the least recent). */
  used: number
}

/** Sources a preview session keeps open past one frame: a decoder stays warm while its clip is off screen. */
const MAX_OPEN = 16

/**
 * The open sources of a preview session, each keyed by its prepared asset, which of that asset's clips it is,
 * and the size it is drawn at — what a source depends on — so a changed edit keeps the sources of every clip
 * whose asset and size did not change. A source that can only go forward is opened again to go back.
 */
export class OpenSources {
  private readonly open = new Map<string, Open>()
  private readonly ids = new WeakMap<PreparedAsset, number>()
  /** `OpenHints.keep` of the layers that have one. */
  private readonly kept = new WeakMap<LayerPlan, Size>()
  private nextId = 0
  private clock = 0

  /**
   * Each layer's source key: its asset, the how-many-th clip of that asset it is, and its drawn and kept sizes.
   * `scale` (below 1 when the frame is scaled down to `output.scaleTo`) sets what a layer's source may keep.
   */
  keys(layers: readonly LayerPlan[], scale = 1): Map<LayerPlan, string> {
    const seen = new Map<PreparedAsset, number>()
    const keys = new Map<LayerPlan, string>()
    for (const layer of [...layers].sort((a, b) => a.id - b.id)) {
      let id = this.ids.get(layer.asset)
      if (id === undefined) this.ids.set(layer.asset, (id = this.nextId++))
      const nth = seen.get(layer.asset) ?? 0
      seen.set(layer.asset, nth + 1)
      const keep = keptSize(layer, scale)
      if (keep) this.kept.set(layer, keep)
      keys.set(layer, `${id}:${nth}:${layer.need.width}x${layer.need.height}${keep ? `:${keep.width}x${keep.height}` : ''}`)
    }
    return keys
  }

  /** The source of `layer` for timeline frame `i`, opened (as the frame loop opens it, at `from`) if need be. */
  async at(layer: LayerPlan, key: string, i: number, fps: number, gpu: Gpu): Promise<FrameSource> {
    const local = i / fps - layer.start
    let open = this.open.get(key)
    if (open && !open.anyOrder && local < open.last) this.close(key)
    open = this.open.get(key)
    if (!open) {
      const from = Math.max(0, (i - layer.startFrame) / fps)
      const asset = { kind: 'asset', name: layer.type }
      const source = await atCrashSite({ stage: 'rendering', path: `${layer.path}.asset`, plugin: `asset:${layer.type} open` }, () =>
        callHook(asset, 'open', `${layer.path}.asset`, () =>
          layer.asset.open!(gpu, layer.need, from, { scrub: true, length: layer.length, keep: this.kept.get(layer) }),
        ),
      )
      open = { source, anyOrder: layer.asset.static === true || !!source.anyOrder, last: local, used: 0 }
      this.open.set(key, open)
    }
    open.last = local
    open.used = ++this.clock
    return open.source
  }

  /**
   * Opens the source of every layer not open yet, earliest first, up to MAX_OPEN. A source that fails to open
   * is left to the frame that shows it, which fails as a render's would.
   */
  async warm(layers: readonly LayerPlan[], keys: ReadonlyMap<LayerPlan, string>, fps: number, gpu: Gpu): Promise<void> {
    for (const layer of [...layers].sort((a, b) => a.startFrame - b.startFrame)) {
      if (this.open.size >= MAX_OPEN) return
      const key = keys.get(layer)!
      if (!this.open.has(key) && layer.endFrame > layer.startFrame) await this.at(layer, key, layer.startFrame, fps, gpu).catch(() => {})
    }
  }

  /** Closes every source whose key is not in `keep`, then the least recently shown beyond MAX_OPEN. */
  retain(keep: ReadonlySet<string>): void {
    for (const key of [...this.open.keys()]) if (!keep.has(key)) this.close(key)
    const byUse = [...this.open].sort((a, b) => a[1].used - b[1].used)
    for (const [key] of byUse.slice(0, Math.max(0, byUse.length - MAX_OPEN))) this.close(key)
  }

  closeAll(): void {
    for (const key of [...this.open.keys()]) this.close(key)
  }

  private close(key: string): void {
    const open = this.open.get(key)
    this.open.delete(key)
    try {
      open?.source.close()
    } catch {
      // A source that fails to close is gone all the same; the next frame must not fail for it.
    }
  }
}

/**
 * The most of a layer's source a picture scaled by `scale` after drawing shows: its largest size on the frame
 * times `scale`, no bigger than `need`; undefined where that is `need` (nothing to save).
 */
function keptSize(layer: LayerPlan, scale: number): Size | undefined {
  if (scale >= 1) return undefined
  const side = (drawn: number, need: number) => Math.min(need, Math.max(1, Math.ceil(drawn * scale)))
  const keep = { width: side(layer.drawn.width, layer.need.width), height: side(layer.drawn.height, layer.need.height) }
  return keep.width < layer.need.width || keep.height < layer.need.height ? keep : undefined
}
