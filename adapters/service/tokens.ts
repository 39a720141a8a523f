/** DI tokens (symbols) for the service's composition root; only `adapters/` uses them. */
export const TOKENS = {
  Config: Symbol('Config'),
  Db: Symbol('Db'),
  Keys: Symbol('Keys'),
  Jobs: Symbol('Jobs'),
  Storage: Symbol('Storage'),
  Queue: Symbol('Queue'),
  Renderer: Symbol('Renderer'),
  Billing: Symbol('Billing'),
  Worker: Symbol('Worker'),
  Events: Symbol('Events'),
  Clock: Symbol('Clock'),
} as const
