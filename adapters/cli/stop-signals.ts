import { logger } from '../../service/log.js'

/** Seconds past the grace a stopping process gives its connections to close before it exits regardless. */
export const CLOSE_SECONDS = 5

/** Seconds a stopping process gives work in progress: env `REELFORGE_STOP_GRACE_S`, default 30. */
export function stopGraceSeconds(): number {
  const raw = process.env.REELFORGE_STOP_GRACE_S
  const n = Number(raw)
  return raw !== undefined && raw.trim() !== '' && Number.isFinite(n) && n >= 0 ? n : 30
}

/**
 * Waits for SIGTERM or SIGINT, then stops within a bound whatever the process's connections are doing:
 * `stop(graceMs)` finishes or hands back the work in progress and closes connections; if it has not ended
 * `CLOSE_SECONDS` after the grace (a dependency that does not answer holds a close forever), the process
 * exits anyway — work it still held goes back to the queue when its lease or lock lapses. A second signal
 * exits at once. Exits 0 after a clean stop, 1 after a forced one.
 */
export function exitOnStopSignal(
  command: string,
  graceS: number,
  stop: (graceMs: number) => Promise<void>,
  announce: (signal: string) => string,
): Promise<never> {
  return new Promise<never>(() => {
    let stopping = false
    const log = logger(command, { prefix: false })
    const onSignal = (signal: string) => {
      if (stopping) {
        log.info(`${signal} again: stopping now`)
        process.exit(130)
      }
      stopping = true
      log.info(`${signal}: ${announce(signal)}`)
      const deadline = setTimeout(
        () => {
          log.error(`reelforge ${command}: still closing ${graceS + CLOSE_SECONDS} s after ${signal} (a dependency not answering?): exiting now`)
          process.exit(1)
        },
        (graceS + CLOSE_SECONDS) * 1000,
      )
      deadline.unref()
      stop(graceS * 1000).then(
        () => process.exit(0),
        (e: Error) => {
          log.error(`reelforge ${command}: while stopping: ${e.message}`)
          process.exit(1)
        },
      )
    }
    process.on('SIGINT', () => onSignal('SIGINT'))
    process.on('SIGTERM', () => onSignal('SIGTERM'))
  })
}
