import { callHook, hookError, unlessAborted } from '../plugin-driver.js'
import type { FrameSource, OpenHints } from '../plugin.js'
import type { LayerPlan } from '../plan/layers.js'
import { atCrashSite } from './crash-site.js'
import type { Gpu } from './gpu.js'

/** A layer on screen with its open source. */
export interface LiveLayer {
  layer: LayerPlan
  source: FrameSource
}

/**
 * Opens each layer's source shortly before it shows and closes it when it ends, so memory holds only what
 * is on screen plus a short lookahead — never the whole timeline.
 */
export class Scheduler {
  private readonly byOpen: LayerPlan[]
  private next = 0
  private readonly opening = new Map<LayerPlan, Promise<FrameSource>>()
  private readonly open = new Map<LayerPlan, FrameSource>()
  private live: LiveLayer[] = []
  private liveKey = ''

  constructor(
    layers: readonly LayerPlan[],
    private readonly gpu: Gpu,
    private readonly lookahead: number,
    private readonly fps: number,
    /** What every source is told of its use (OpenHints.i420 where the frame loop takes I420 from covers). */
    private readonly hints?: OpenHints,
  ) {
    this.byOpen = layers.filter((l) => l.endFrame > l.startFrame).sort((a, b) => this.opensAt(a) - this.opensAt(b))
  }

  /** The frame a layer's source starts opening on: within the lookahead, or as it shows (`openWhenShown`). */
  private opensAt(layer: LayerPlan): number {
    return layer.asset.openWhenShown ? layer.startFrame : layer.startFrame - this.lookahead
  }

  /** The layers visible on frame `i`, bottom first. Awaits only sources still opening. */
  async at(i: number): Promise<LiveLayer[]> {
    // Close what has ended first: what opens on this frame never meets what it follows.
    for (const [layer, source] of this.open) {
      if (layer.endFrame <= i) {
        this.open.delete(layer) // first: a close that throws is not tried again when the render ends
        try {
          source.close()
        } catch (e) {
          throw hookError({ kind: 'asset', name: layer.type }, 'close', `${layer.path}.asset`, e)
        }
      }
    }
    // Start opening everything due by now.
    while (this.next < this.byOpen.length && this.opensAt(this.byOpen[this.next]!) <= i) {
      const layer = this.byOpen[this.next++]!
      if (layer.endFrame <= i) continue // entirely before the rendered range
      const p = this.start(layer, Math.max(0, (i - layer.startFrame) / this.fps))
      this.opening.set(layer, p)
      p.catch(() => {}) // awaited (and rethrown) when the layer is due
    }
    let changed = false
    const visible: LayerPlan[] = []
    for (const layer of [...this.open.keys(), ...this.opening.keys()]) {
      if (layer.startFrame <= i && i < layer.endFrame) visible.push(layer)
    }
    for (const layer of visible) {
      if (!this.open.has(layer)) {
        const source = await this.opening.get(layer)!
        this.opening.delete(layer)
        this.open.set(layer, source)
        changed = true
      }
    }
    visible.sort((a, b) => a.order - b.order)
    const key = visible.map((l) => l.id).join(',')
    if (changed || key !== this.liveKey) {
      this.liveKey = key
      this.live = visible.map((layer) => ({ layer, source: this.open.get(layer)! }))
    }
    return this.live
  }

  private async start(layer: LayerPlan, from: number): Promise<FrameSource> {
    const asset = { kind: 'asset', name: layer.type }
    // A decoder's process and socket events report an uncaught failure as this clip's.
    return atCrashSite({ stage: 'rendering', path: `${layer.path}.asset`, plugin: `asset:${layer.type} open` }, () =>
      callHook(asset, 'open', `${layer.path}.asset`, () => layer.asset.open!(this.gpu, layer.need, from, this.hints)),
    )
  }

  /**
   * Closes every open source (end of render, or failure). Sources still opening are waited for and closed; once
   * `signal` aborts (before or while waiting), closed whenever they open: an `open` that never answers must not
   * hold a cancelled render.
   */
  async close(signal?: AbortSignal): Promise<void> {
    for (const source of this.open.values()) source.close()
    this.open.clear()
    const pending = [...this.opening.values()]
    this.opening.clear()
    const closeLate = (source: FrameSource) => source.close()
    for (const p of pending) {
      try {
        const source = signal ? await unlessAborted(p, signal, closeLate) : await p
        source.close()
      } catch {
        // It failed to open (nothing to close), or the render was cancelled (closed when it opens).
      }
    }
  }
}
