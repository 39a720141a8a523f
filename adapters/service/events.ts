import { EventEmitter } from 'node:events'
import type { Job } from './jobs.js'

/** What happens to jobs, for whoever listens (webhooks, metrics, tests). */
export interface JobEventMap {
  'render.queued': [Job]
  'render.processing': [Job]
  'render.complete': [Job]
  'render.failed': [Job]
}

/** A typed event bus for job life-cycle events. Listeners must not throw; errors are logged. */
export class JobEvents {
  private readonly bus = new EventEmitter()

  on<K extends keyof JobEventMap>(name: K, listener: (...args: JobEventMap[K]) => void): () => void {
    this.bus.on(name, listener as never)
    return () => this.bus.off(name, listener as never)
  }

  emit<K extends keyof JobEventMap>(name: K, ...args: JobEventMap[K]): void {
    for (const listener of this.bus.listeners(name)) {
      try {
        ;(listener as (...a: JobEventMap[K]) => void)(...args)
      } catch (e) {
        console.error(`[events] ${name} listener failed:`, e)
      }
    }
  }
}
