import { resolve } from 'node:path'
import { createCompositor, defineOutputPlugin, writeStill, type Edit, type FrameSink, type Size } from '../../core/index.js'
import { builtinFonts, builtinPlugins, DEFAULT_FONT, type BuiltinOptions } from '../../plugins/index.js'

/** One composited frame as the encoder would be handed it: RGBA (premultiplied), top row first. */
export interface Frame extends Size {
  rgba: Uint8Array
}

export interface ProberOptions {
  yAxis: 'up' | 'down'
  cacheDir: string
  network: BuiltinOptions['network']
  /** Also write each frame to its `out` path as a PNG (with its alpha), for a person to look at. */
  save?: boolean
}

/** Renders still edits (`format: 'png'`) and hands back the frame instead of a file. */
export type Prober = (edit: Edit, out: string) => Promise<Frame>

/**
 * A renderer built as `createRenderer` builds one (every built-in plugin, the built-in fonts), except that its
 * `png` output keeps the composited frame in memory. The PNG encoder writes rgb24, which would drop the alpha
 * that tells what a clip drew on a transparent background from what it left empty (a black title on black is
 * still "drawn"); keeping the frame also saves an encode and a decode per probe.
 */
export function createProber(opts: ProberOptions): Prober {
  const frames = new Map<string, Frame>()
  const keep = defineOutputPlugin({
    kind: 'output',
    name: 'png',
    mime: 'image/png',
    extension: 'png',
    takes: 'still',
    async open(spec): Promise<FrameSink> {
      let last: Uint8Array | undefined
      return {
        // The loop reuses its buffer after `write` returns: copy.
        write: (rgba) => void (last = rgba.slice()),
        async close() {
          if (last) frames.set(spec.path, { width: spec.width, height: spec.height, rgba: last })
          return { path: spec.path, bytes: 0 }
        },
        abort: () => frames.delete(spec.path),
      }
    },
  })
  const plugins = builtinPlugins({ network: opts.network }).filter((p) => !(p.kind === 'output' && p.name === 'png'))
  const compositor = createCompositor({
    plugins: [...plugins, keep],
    fonts: builtinFonts,
    fallbackFont: DEFAULT_FONT,
    cacheDir: opts.cacheDir,
    yAxis: opts.yAxis,
  })
  return async (edit, out) => {
    const path = (await compositor.render(edit, { out })).path
    const frame = frames.get(path) ?? frames.get(resolve(out))
    frames.delete(path)
    if (!frame) throw new Error(`the probe render of ${out} produced no frame`)
    if (opts.save) await writeStill(frame.rgba, frame, path)
    return frame
  }
}
