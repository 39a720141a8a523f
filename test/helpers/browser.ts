import { mkdirSync } from 'node:fs'
import { createServer, type Server } from 'node:http'
import { join } from 'node:path'
import { toNodeHandler } from 'h3'
import { chromium, type Browser } from 'playwright-core'
import type { TestService } from './service.js'

/** Debian's Chromium (installed by `scripts/setup.sh --test`), headless, with no connection of its own to the outside. */
export const CHROMIUM = process.env.REELFORGE_CHROMIUM ?? '/usr/bin/chromium'
const FLAGS = [
  '--headless',
  '--no-sandbox',
  '--disable-gpu',
  '--disable-background-networking',
  '--disable-component-update',
  '--disable-sync',
  '--no-first-run',
  '--disable-quic',
]

export const launchBrowser = (): Promise<Browser> => chromium.launch({ executablePath: CHROMIUM, args: FLAGS })

/** Screenshots land in `.test-output/dashboard/` (kept after the run, ignored by git). */
export const SCREENSHOTS = join(new URL('../..', import.meta.url).pathname, '.test-output', 'dashboard')
mkdirSync(SCREENSHOTS, { recursive: true })

/** Serves a test service over real HTTP (a browser needs a port); the job links point at it. */
export async function listen(svc: TestService): Promise<{ url: string; server: Server; close(): Promise<void> }> {
  const server = createServer(toNodeHandler(svc.app))
  await new Promise<void>((r) => server.listen(0, '127.0.0.1', r))
  const port = (server.address() as { port: number }).port
  svc.config.port = port
  svc.config.host = '127.0.0.1'
  svc.config.baseUrl = `http://127.0.0.1:${port}`
  return {
    url: svc.config.baseUrl,
    server,
    close: () => new Promise<void>((r) => (server.closeAllConnections(), server.close(() => r()))),
  }
}
