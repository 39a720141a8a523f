import { join } from 'node:path'
import { createRenderer, type Edit, type RendererOptions } from '../../index.js'
import { tempDir } from './media.js'
import { decodeFrames, type Frames } from './frames.js'

const dir = tempDir()
let n = 0

/** Renders an edit into a temp file and decodes its frames. */
export async function renderAndDecode(
  edit: Edit,
  opts: RendererOptions = {},
): Promise<{ frames: Frames; path: string; result: Awaited<ReturnType<ReturnType<typeof createRenderer>['render']>> }> {
  const renderer = createRenderer({ cacheDir: join(dir, 'cache'), ...opts })
  const out = join(dir, `render-${n++}.mp4`)
  const result = await renderer.render(edit, { out })
  const frames = await decodeFrames(out, result.width, result.height)
  return { frames, path: out, result }
}

/** A one-track edit at a small custom size, for pixel tests. */
/** Test edits are built from loose parts on purpose (the renderer validates them at run time): typed as `Edit` here. */
export function edit(clips: object[], output: object = {}, more: { background?: string; tracks?: object[] } = {}): Edit {
  return {
    timeline: { background: more.background ?? '#0000ff', tracks: more.tracks ?? [{ clips }] },
    output: { format: 'mp4', size: { width: 320, height: 180 }, fps: 25, ...output },
  } as Edit
}
