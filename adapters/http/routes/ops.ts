import type { Db } from '../../service/db.js'
import type { RenderWorker } from '../../service/worker.js'
import type { RouteSpec } from '../route.js'

/** A gauge or counter line block in Prometheus' text format. */
const metric = (name: string, type: 'gauge' | 'counter', help: string, samples: [labels: string, value: number][]) =>
  [`# HELP ${name} ${help}`, `# TYPE ${name} ${type}`, ...samples.map(([l, v]) => `${name}${l} ${v}`)].join('\n')

/**
 * Operations: `/healthz` (the process answers), `/readyz` (it can take work: the database answers and it is
 * not shutting down), `/metrics` (Prometheus). Counts come from the database, so every process of a
 * deployment reports the same queue; render speed is this process's own.
 */
export function opsRoutes(d: { db: Db; worker: RenderWorker; isShuttingDown: () => boolean }): RouteSpec[] {
  const count = (sql: string) => (d.db.prepare(sql).get() as { n: number }).n
  return [
    { method: 'get', path: '/healthz', auth: false, summary: 'Liveness', responses: { 200: { description: 'ok' } }, handler: () => ({ ok: true }) },
    {
      method: 'get',
      path: '/readyz',
      auth: false,
      summary: 'Readiness: the database answers and the server is not shutting down',
      responses: { 200: { description: 'ready' }, 503: { description: 'not ready' } },
      handler: (event) => {
        let db = true
        try {
          d.db.prepare('SELECT 1').get()
        } catch {
          db = false
        }
        const ready = db && !d.isShuttingDown()
        if (!ready) event.res.status = 503
        return { ready, database: db, shutting_down: d.isShuttingDown() }
      },
    },
    {
      method: 'get',
      path: '/metrics',
      auth: false,
      summary: 'Prometheus metrics',
      responses: { 200: { description: 'text/plain; version=0.0.4' } },
      handler: (event) => {
        event.res.headers.set('content-type', 'text/plain; version=0.0.4; charset=utf-8')
        const byStatus = d.db.prepare('SELECT status, COUNT(*) AS n FROM jobs GROUP BY status').all() as { status: string; n: number }[]
        const stats = d.worker.stats
        return [
          metric('reelforge_queue_depth', 'gauge', 'Render jobs waiting for a worker.', [['', count(`SELECT COUNT(*) AS n FROM jobs WHERE status = 'QUEUED'`)]]),
          metric('reelforge_renders_in_progress', 'gauge', 'Render jobs being rendered, by any process.', [['', count(`SELECT COUNT(*) AS n FROM jobs WHERE status = 'PROCESSING'`)]]),
          metric('reelforge_jobs', 'gauge', 'Render jobs by status.', byStatus.map((r) => [`{status="${r.status}"}`, r.n])),
          metric('reelforge_webhook_backlog', 'gauge', 'Webhook deliveries waiting to be (re)tried.', [['', count(`SELECT COUNT(*) AS n FROM webhook_deliveries WHERE status = 'pending'`)]]),
          metric('reelforge_webhook_failed', 'gauge', 'Webhook deliveries that exhausted their retries.', [['', count(`SELECT COUNT(*) AS n FROM webhook_deliveries WHERE status = 'failed'`)]]),
          metric('reelforge_rendered_frames_total', 'counter', 'Frames rendered by this process.', [['', stats.frames]]),
          metric('reelforge_render_seconds_total', 'counter', 'Seconds this process spent rendering (frames_total / this = fps).', [['', Math.round(stats.seconds * 1000) / 1000]]),
          metric('reelforge_render_fps', 'gauge', 'Frames per second of the last render this process finished.', [['', Math.round(stats.lastFps * 100) / 100]]),
        ].join('\n') + '\n'
      },
    },
  ]
}
