import { RenderError } from '../../core/index.js'
import type { Limits } from '../config.js'

/** 1080p's pixels: the size the per-second factor is stated for. */
const FULL_HD = 1920 * 1080

/**
 * Seconds a render may take: max(`renderMinSeconds`, `renderSecondsPerSecond` × output seconds × (pixels ÷ 1080p's,
 * at least 1)). Generous for honest work — 2 cores render 1080p at about realtime — and finite for anything else.
 */
export function renderBudgetSeconds(
  limits: Pick<Limits, 'renderMinSeconds' | 'renderSecondsPerSecond'>,
  seconds: number,
  width: number,
  height: number,
): number {
  const scale = Math.max(1, (width * height) / FULL_HD)
  return Math.max(limits.renderMinSeconds, Math.ceil(limits.renderSecondsPerSecond * seconds * scale))
}

/** A render's time budget: an AbortSignal that fires `E_TIME_LIMIT` when it runs out, re-armed once the real duration is known. */
export interface TimeBudget {
  readonly signal: AbortSignal
  /** Sets the budget for a render of `seconds` at `width`×`height`, counted from when the budget was made. */
  arm(seconds: number, width: number, height: number): void
  /** Stops the clock (the render ended). */
  clear(): void
}

/** Starts the clock of a render's budget (see `renderBudgetSeconds`). */
export function timeBudget(limits: Pick<Limits, 'renderMinSeconds' | 'renderSecondsPerSecond'>, seconds: number, width: number, height: number): TimeBudget {
  const started = Date.now()
  const controller = new AbortController()
  let timer: NodeJS.Timeout | undefined
  const arm = (s: number, w: number, h: number) => {
    clearTimeout(timer)
    const budget = renderBudgetSeconds(limits, s, w, h)
    const why = `the render ran past its time limit of ${budget} s (at least ${limits.renderMinSeconds} s, else ${limits.renderSecondsPerSecond} s per second of 1080p output: limits.renderMinSeconds and limits.renderSecondsPerSecond, env REELFORGE_RENDER_TIME_MIN_S and REELFORGE_RENDER_TIME_FACTOR)`
    timer = setTimeout(() => controller.abort(new RenderError('E_TIME_LIMIT', why)), Math.max(0, started + budget * 1000 - Date.now()))
    timer.unref()
  }
  arm(seconds, width, height)
  return { signal: controller.signal, arm, clear: () => clearTimeout(timer) }
}
