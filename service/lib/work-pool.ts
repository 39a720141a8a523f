import { logger } from '../log.js'

const log = logger('work')
/**
 * Background work by id, a few at a time in this process: what source imports and AI jobs share. Ids are
 * kept in the database by their owners, so `stop` only forgets the queue here: the next `start` of the owner
 * enqueues its unfinished ids again. A failing `run` is the owner's to record; the pool only goes on.
 */
export class WorkPool {
  private readonly waiting: string[] = []
  private readonly running = new Set<Promise<void>>()
  private stopped = true

  constructor(
    private readonly concurrency: () => number,
    private readonly run: (id: string) => Promise<void>,
  ) {}

  start(): void {
    this.stopped = false
    this.pump()
  }

  /** Waits for the work under way; what is queued stays for the next start. */
  async stop(): Promise<void> {
    this.stopped = true
    this.waiting.length = 0
    await Promise.allSettled([...this.running])
  }

  enqueue(id: string): void {
    if (!this.waiting.includes(id)) this.waiting.push(id)
    this.pump()
  }

  /** Resolves when nothing is queued or running (tests, shutdown). */
  async idle(): Promise<void> {
    while (this.running.size || (this.waiting.length && !this.stopped)) await Promise.allSettled([...this.running])
  }

  private pump(): void {
    while (!this.stopped && this.waiting.length && this.running.size < this.concurrency()) {
      const id = this.waiting.shift()!
      const run = this.run(id)
        .catch((e) => log.error(`${id}:`, e))
        .finally(() => {
          this.running.delete(run)
          this.pump()
        })
      this.running.add(run)
    }
  }
}
