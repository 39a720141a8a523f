import { logger } from '../log.js'

/** One dependency's check: resolves when it answers, throws (with a message for the operator) when not. */
export type Check = (signal: AbortSignal) => Promise<void>

/** What `/readyz` reports: ready when every dependency answered; each one's answer by name. */
export interface ReadinessReport {
  ready: boolean
  checks: Record<string, boolean>
}

export interface Readiness {
  report(): Promise<ReadinessReport>
  /** Stops what the checks hold open (a Redis probe connection). */
  close(): Promise<void>
}

/**
 * The readiness of a process from its dependencies' checks (database, Redis, storage), run at once, each
 * bounded by `timeoutMs` — a dependency that hangs is as down as one that refuses. Why one is down goes to
 * the log once when it goes down and once when it comes back (the report itself carries only booleans:
 * `/readyz` needs no key, and hosts and bucket names are not for everyone).
 */
export function readiness(
  checks: Record<string, Check>,
  o: { timeoutMs?: number; cacheMs?: number; log?: (line: string) => void; close?: () => Promise<void> } = {},
): Readiness {
  const timeoutMs = o.timeoutMs ?? 3000
  const cacheMs = o.cacheMs ?? 1000
  const ready = logger('ready')
  const log = o.log ?? ((line: string) => ready.warn(line))
  const down = new Map<string, string>()
  const run = async (name: string, check: Check): Promise<boolean> => {
    try {
      await bounded(check, timeoutMs)
      if (down.delete(name)) log(`${name} answers again`)
      return true
    } catch (e) {
      const why = (e as Error).message
      if (down.get(name) !== why) log(`${name} is not ready: ${why}`)
      down.set(name, why)
      return false
    }
  }
  const runAll = async (): Promise<ReadinessReport> => {
    const names = Object.keys(checks)
    const results = await Promise.all(names.map((n) => run(n, checks[n]!)))
    return { ready: results.every(Boolean), checks: Object.fromEntries(names.map((n, i) => [n, results[i]!])) }
  }
  // /readyz needs no key: callers at once share one round of checks, and its answer serves for `cacheMs`.
  let last: { at: number; report: Promise<ReadinessReport> } | undefined
  return {
    report() {
      if (!last || Date.now() - last.at > cacheMs) last = { at: Date.now(), report: runAll() }
      return last.report
    },
    close: o.close ?? (async () => {}),
  }
}

/** Runs `check` with an abort signal that fires after `ms`, and gives up waiting for it then too. */
export async function bounded(check: Check, ms: number): Promise<void> {
  const controller = new AbortController()
  let timer: NodeJS.Timeout | undefined
  const late = new Promise<never>((_, reject) => {
    timer = setTimeout(() => {
      const error = new Error(`no answer within ${ms / 1000} s`)
      controller.abort(error)
      reject(error)
    }, ms)
  })
  try {
    await Promise.race([check(controller.signal), late])
  } finally {
    clearTimeout(timer)
  }
}
