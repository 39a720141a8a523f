import { createRequire } from 'node:module'
import type * as Undici from 'undici'

let loaded: typeof Undici | undefined

/**
 * undici, loaded on first use. Its import is ~0.2 CPU-s and 110 modules — a third of what importing the library
 * costs — and only vendor requests and webhooks use it (media downloads go through node:http, `openDownload`), so
 * a render of local or downloaded media, a CLI run and every render process start without it. `require` (undici
 * is CommonJS) keeps callers synchronous: `guardedAgent` hands back an Agent, not a promise of one.
 */
export function undici(): typeof Undici {
  loaded ??= createRequire(import.meta.url)('undici') as typeof Undici
  return loaded
}
