import type * as Undici from 'undici'
import { lazyPackage } from '../lazy-package.js'

/**
 * undici, loaded on first use. Its import is ~0.2 CPU-s and 110 modules — a third of what importing the library
 * costs — and only vendor requests and webhooks use it (media downloads go through node:http, `openDownload`), so
 * a render of local or downloaded media, a CLI run and every render process start without it. Synchronous:
 * `guardedAgent` hands back an Agent, not a promise of one.
 */
export const undici = lazyPackage<typeof Undici>('undici')
