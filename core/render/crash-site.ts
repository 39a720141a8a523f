import { AsyncLocalStorage } from 'node:async_hooks'

/** Where in a render a piece of work runs: its stage, and the clip and plugin it is done for. */
export interface CrashSite {
  stage: 'fetching' | 'rendering' | 'encoding'
  /** The clip's asset (`timeline.tracks[0].clips[2].asset`), or `output` for the encoder. */
  path?: string
  /** `kind:name hook` of the plugin doing the work (`asset:video open`). */
  plugin?: string
  /** The asset's source, when it names one. */
  src?: string
}

const sites = new AsyncLocalStorage<CrashSite>()

/**
 * Runs `fn` as work of `site`. Callbacks it schedules — timers, child-process and stream events — carry the
 * site with them, so an exception one of them throws, which no promise can catch, can still say which stage
 * and clip it came from (`crashSite()` read in an `uncaughtException` handler). Cold paths only (prepare,
 * open): never per frame.
 */
export const atCrashSite = <T>(site: CrashSite, fn: () => T): T => sites.run(site, fn)

/** The site of the work running now, if it runs inside `atCrashSite` (read it in `uncaughtException`). */
export const crashSite = (): CrashSite | undefined => sites.getStore()

/**
 * A site in words: `while rendering timeline.tracks[0].clips[1].asset (asset:video open, src a.mp4)`;
 * `stage` stands in when the work ran outside any site (the last stage the render reported).
 */
export function describeCrashSite(site: CrashSite | undefined, stage?: string): string {
  const where = site?.path ? ` ${site.path}` : ''
  const who = [site?.plugin, site?.src && `src ${site.src}`].filter(Boolean).join(', ')
  return `while ${site?.stage ?? stage ?? 'rendering'}${where}${who ? ` (${who})` : ''}`
}
