import { RenderError } from '../../core/index.js'

/** Prints a failure the way a user can act on it — its message, and its stack only with `debug`; returns the exit code. */
export function reportError(e: unknown, debug = false): number {
  const stack = (err: unknown) => {
    if (!debug) return
    const cause = err instanceof Error ? (err.cause ?? err) : err
    if (cause instanceof Error && cause.stack) console.error(cause.stack)
  }
  if (e instanceof RenderError) {
    if (e.code === 'E_TIMELINE_INVALID' && e.data?.issues) {
      console.error(`error: the edit is invalid (${e.data.issues.length} issue${e.data.issues.length === 1 ? '' : 's'}):`)
      for (const issue of e.data.issues) console.error(`  ${issue.path || '(root)'}: ${issue.message}`)
      return 2
    }
    if (e.code === 'E_CANCELLED') {
      console.error('cancelled')
      return 130
    }
    console.error(`error ${e.code}: ${e.message}`)
    stack(e)
    return 1
  }
  console.error(`error: ${e instanceof Error ? e.message : String(e)}`)
  stack(e)
  return 1
}
