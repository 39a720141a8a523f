import type { Compositor } from '../../../core/index.js'
import type { Db } from '../../../service/db/db.js'
import type { Readiness } from '../../../service/health/readiness.js'
import { IsolatedRenderer } from '../../../service/isolation/isolated-renderer.js'
import type { JobRunner } from '../../../service/jobs/job-runner.js'
import type { RouteSpec } from '../route.js'

/** A gauge or counter line block in Prometheus' text format. */
export const metric = (name: string, type: 'gauge' | 'counter', help: string, samples: [labels: string, value: number][]) =>
  [`# HELP ${name} ${help}`, `# TYPE ${name} ${type}`, ...samples.map(([l, v]) => `${name}${l} ${v}`)].join('\n')

/**
 * Operations: `/healthz` (the process answers), `/readyz` (it can take work: the database, Redis when
 * configured and storage answer, and it is not shutting down), `/metrics` (Prometheus). Counts come from the
 * database, so every process of a deployment reports the same queue; render speed is this process's own.
 */
export function opsRoutes(d: { db: Db; readiness: Readiness; runner: JobRunner; renderer?: Compositor; isShuttingDown: () => boolean }): RouteSpec[] {
  return [
    {
      method: 'get',
      path: '/healthz',
      operationId: 'getHealth',
      auth: 'none',
      summary: 'Liveness',
      responses: { 200: { description: 'ok' } },
      handler: () => ({ ok: true }),
    },
    {
      method: 'get',
      path: '/readyz',
      operationId: 'getReadiness',
      auth: 'none',
      summary: 'Readiness: the database, Redis (when configured) and storage answer, and the server is not shutting down',
      responses: { 200: { description: 'ready' }, 503: { description: 'not ready' } },
      handler: async (event) => {
        const report = await d.readiness.report()
        const ready = report.ready && !d.isShuttingDown()
        if (!ready) event.res.status = 503
        return { ready, ...report.checks, shutting_down: d.isShuttingDown() }
      },
    },
    {
      method: 'get',
      path: '/metrics',
      operationId: 'getMetrics',
      auth: 'none',
      summary: 'Prometheus metrics',
      responses: { 200: { description: 'text/plain; version=0.0.4' } },
      handler: async (event) => {
        event.res.headers.set('content-type', 'text/plain; version=0.0.4; charset=utf-8')
        const byStatus = await d.db.all<{ status: string; n: number }>('SELECT status, COUNT(*) AS n FROM jobs GROUP BY status')
        const deliveries = await d.db.all<{ status: string; n: number }>(
          `SELECT status, COUNT(*) AS n FROM webhook_deliveries WHERE status IN ('pending', 'failed') GROUP BY status`,
        )
        const jobs = (s: string) => byStatus.find((r) => r.status === s)?.n ?? 0
        const outbox = (s: string) => deliveries.find((r) => r.status === s)?.n ?? 0
        const stats = d.runner.stats
        return `${[
          metric('reelforge_queue_depth', 'gauge', 'Render jobs waiting for a worker.', [['', jobs('QUEUED')]]),
          metric('reelforge_renders_in_progress', 'gauge', 'Render jobs being rendered, by any process.', [['', jobs('PROCESSING')]]),
          metric(
            'reelforge_jobs',
            'gauge',
            'Render jobs by status.',
            byStatus.map((r) => [`{status="${r.status}"}`, r.n]),
          ),
          metric('reelforge_webhook_backlog', 'gauge', 'Webhook deliveries waiting to be (re)tried.', [['', outbox('pending')]]),
          metric('reelforge_webhook_failed', 'gauge', 'Webhook deliveries that exhausted their retries.', [['', outbox('failed')]]),
          metric('reelforge_renders_running_here', 'gauge', 'Render jobs this process is rendering now.', [['', d.runner.active]]),
          ...(d.renderer instanceof IsolatedRenderer ? [processMetric(d.renderer)] : []),
          metric('reelforge_rendered_frames_total', 'counter', 'Frames rendered by this process.', [['', stats.frames]]),
          metric('reelforge_render_seconds_total', 'counter', 'Seconds this process spent rendering (frames_total / this = fps).', [
            ['', Math.round(stats.seconds * 1000) / 1000],
          ]),
          metric('reelforge_render_fps', 'gauge', 'Frames per second of the last render this process finished.', [['', Math.round(stats.lastFps * 100) / 100]]),
        ].join('\n')}\n`
      },
    },
  ]
}

/**
 * This process's render processes by state: busy ones are rendering a job or a frame; idle ones wait for the next;
 * preview ones each hold a preview session.
 */
export function processMetric(renderer: IsolatedRenderer): string {
  const { busy, idle, previews } = renderer.processes()
  return metric('reelforge_render_processes', 'gauge', "This process's render processes: busy, idle, or holding a preview session.", [
    ['{state="busy"}', busy],
    ['{state="idle"}', idle],
    ['{state="preview"}', previews],
  ])
}
