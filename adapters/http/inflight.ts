/**
 * Requests being handled right now. Shutting down waits for them before the database closes: a handler
 * still writing (a submission's webhook fan-out after the client went away) must not meet a closed pool.
 */
export class InflightRequests {
  private count = 0
  private readonly waiters = new Set<() => void>()

  /** h3 middleware: counts a request from its start until its handler has answered (or thrown). */
  readonly middleware = async (_event: unknown, next: () => unknown) => {
    this.count++
    try {
      return await next()
    } finally {
      if (--this.count === 0) for (const w of this.waiters) w()
    }
  }

  get active(): number {
    return this.count
  }

  /** Resolves once no request is in flight, or after `timeoutMs` (true when drained). */
  drained(timeoutMs: number): Promise<boolean> {
    if (this.count === 0) return Promise.resolve(true)
    return new Promise((resolve) => {
      const done = (ok: boolean) => (clearTimeout(timer), this.waiters.delete(wake), resolve(ok))
      const wake = () => done(true)
      const timer = setTimeout(() => done(false), timeoutMs)
      this.waiters.add(wake)
    })
  }
}
