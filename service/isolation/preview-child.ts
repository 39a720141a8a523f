import type { Compositor, PreviewSession } from '../../core/index.js'
import type { PreviewAnswer, PreviewOp } from './protocol.js'

/** The preview session this render process holds: it was started for it, and ends with it. */
let session: PreviewSession | undefined

/** Runs one exchange of this process's preview session (render-child.ts hands them over). */
export async function previewOp(renderer: Compositor, op: PreviewOp, signal: AbortSignal): Promise<PreviewAnswer> {
  if (op.kind === 'open') {
    if (session) throw new Error('this render process holds a preview session already')
    if (!renderer.preview) throw new Error('this renderer has no preview sessions')
    session = await renderer.preview(op.edit, { signal, owner: op.owner, baseDir: op.baseDir, yAxis: op.yAxis })
    return { state: session.state }
  }
  if (!session) throw new Error('no preview session is open in this render process')
  if (op.kind === 'update') return { state: await session.update(op.edit, signal) }
  return { png: await session.frame(op.time, signal) }
}
