import type { RenderError, RenderOptions, RenderProgress, RenderResult } from '../../core/index.js'
import type { PreviewAnswer } from './protocol.js'

/** A render in progress in a `RenderProcess`, as the parent tracks it. */
export interface Running {
  id: string
  resolve(r: RenderResult | PreviewAnswer): void
  reject(e: Error): void
  onProgress?: (p: RenderProgress) => void
  onPlanned?: RenderOptions['onPlanned']
  /** What `onPlanned` threw: the render fails with this very error (a ServiceError keeps its code). */
  refusal?: Error
  signal?: AbortSignal
  /**
   * A preview session's exchange: an abort the child heeds within the grace ends only the exchange (a scrubbing
   * client drops requests all the time); a time limit still ends the process.
   */
  soft?: boolean
  /** The last stage the render reported, for a process that dies without a word. */
  stage: RenderProgress['stage']
  /** Set when the parent killed the process (abort not heeded, memory ceiling): the render fails with it. */
  stopping?: RenderError
  /** Stops listening for the abort (when it settles). */
  detach?: () => void
  /** The abort grace and the memory check, cleared when the render settles. */
  timers: NodeJS.Timeout[]
}

/**
 * The line of a dead render process's stderr that says why: Node ends a crash with its version and the stack,
 * which say nothing to a user — the last line that is neither.
 */
export function crashLine(stderr: string): string | undefined {
  return stderr
    .split('\n')
    .map((l) => l.trim())
    .filter((l) => l && !/^Node\.js v\d/.test(l) && !/^at\s/.test(l) && !/^\^+$/.test(l))
    .pop()
}
