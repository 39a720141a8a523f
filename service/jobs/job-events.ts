import { EventEmitter } from 'node:events'
import type { Job } from './store.js'
import { logger } from '../log.js'
import { isUnavailable } from '../lib/retry.js'

const log = logger('events')

/** What happens to jobs, for whoever listens (webhooks, metrics, tests). */
export interface JobEventMap {
  'render.queued': [Job]
  'render.processing': [Job]
  'render.complete': [Job]
  'render.failed': [Job]
}

/**
 * A typed event bus for job life-cycle events. `emit` waits for every listener (webhooks write their
 * deliveries to the outbox), so a caller that awaits it knows the event's effects are stored. Listener
 * errors are logged, never thrown back at the job.
 */
export class JobEvents {
  private readonly bus = new EventEmitter()

  on<K extends keyof JobEventMap>(name: K, listener: (...args: JobEventMap[K]) => unknown): () => void {
    this.bus.on(name, listener as never)
    return () => this.bus.off(name, listener as never)
  }

  async emit<K extends keyof JobEventMap>(name: K, ...args: JobEventMap[K]): Promise<void> {
    for (const listener of this.bus.listeners(name)) {
      try {
        await (listener as (...a: JobEventMap[K]) => unknown)(...args)
      } catch (e) {
        // An outage is one line here (its watch logged it already); anything else keeps its stack.
        if (isUnavailable(e)) log.error(`${name} listener failed: ${(e as Error).message}`)
        else log.error(`${name} listener failed:`, e)
      }
    }
  }
}
