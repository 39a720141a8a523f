import type { Application } from '../../service/compose.js'

// The service as the package's public types describe it. Apart from create-service.ts on purpose: that module's
// types name h3's app class, and an app compiling against reelforge (skipLibCheck off) would compile h3's too.

/** The service's HTTP handler: a web-standard fetch handler, for any server that speaks Request/Response. */
export interface ServiceApp {
  /** Answers one request, as `Deno.serve`, Bun, srvx or an `http.createServer` adapter hands it over. */
  fetch(request: Request): Response | Promise<Response>
  /** Answers a request made in-process: a path (`/v1/health`) or URL, and the usual `fetch` options. */
  request(input: string | URL | Request, init?: RequestInit): Response | Promise<Response>
}

/** A running service: the app plus what must be started and stopped. */
export interface Service
  extends Pick<
    Application,
    'config' | 'db' | 'keys' | 'jobs' | 'queue' | 'events' | 'wallet' | 'webhooks' | 'outbox' | 'images' | 'sources' | 'importer' | 'aiJobs'
  > {
  app: ServiceApp
  /** Starts taking jobs and sending webhooks (and resumes image batches a previous process left). */
  start(): Promise<void>
  /** Stops taking jobs (waiting up to `graceMs` for running ones) and closes the database. */
  close(graceMs?: number): Promise<void>
}
