import { createServer, type Server } from 'node:http'
import type { Worker } from 'bullmq'
import type { Compositor } from '../../core/index.js'
import type { Readiness } from '../../service/health/readiness.js'
import { IsolatedRenderer } from '../../service/isolation/isolated-renderer.js'
import type { RenderOutcome } from '../../service/jobs/render-task.js'
import { metric, processMetric } from '../http/routes/ops.js'

/** What a worker has done since it started, from its BullMQ workers' events (`watch`: renders, pieces of split ones). */
export function workerStats() {
  const running = new Set<string>()
  const stats = { completed: 0, failed: 0, frames: 0, seconds: 0, lastFps: 0, running: () => running.size, watch }
  function watch(worker: Worker, queue: 'render' | 'piece') {
    const key = (id: string | undefined) => `${queue}:${id}`
    worker.on('active', (job) => void running.add(key(job.id)))
    worker.on('failed', (job) => {
      if (job && running.delete(key(job.id))) stats.failed++
    })
    worker.on('completed', (job, outcome: RenderOutcome) => {
      if (!running.delete(key(job.id))) return
      stats.completed++
      // A split render's frames are counted once, by its coordinator: pieces count as jobs only.
      if (queue !== 'render' || !outcome?.frames) return
      stats.frames += outcome.frames
      stats.seconds += outcome.renderMs / 1000
      stats.lastFps = outcome.renderMs > 0 ? outcome.frames / (outcome.renderMs / 1000) : 0
    })
  }
  return stats
}

/**
 * `reelforge worker`'s own small HTTP listener, for orchestrators and Prometheus: `/healthz` (the process
 * answers), `/readyz` (Redis and storage answer and it is not stopping; 503 otherwise) and `/metrics` (this
 * worker's renders, in the names `serve`'s /metrics uses for its own). Nothing else; no key.
 */
export function startWorkerHttp(o: {
  host: string
  port: number
  readiness: Readiness
  stats: ReturnType<typeof workerStats>
  renderer: Compositor
  isStopping: () => boolean
}): Promise<Server> {
  const server = createServer(async (req, res) => {
    const path = new URL(req.url ?? '/', 'http://worker').pathname
    const send = (status: number, body: string, type = 'application/json; charset=utf-8') =>
      res.writeHead(status, { 'content-type': type, 'cache-control': 'no-store' }).end(body)
    if (req.method !== 'GET' && req.method !== 'HEAD') return send(405, JSON.stringify({ error: { code: 'E_METHOD_NOT_ALLOWED', message: 'only GET' } }))
    if (path === '/healthz') return send(200, JSON.stringify({ ok: true }))
    if (path === '/readyz') {
      const report = await o.readiness.report()
      const ready = report.ready && !o.isStopping()
      return send(ready ? 200 : 503, JSON.stringify({ ready, ...report.checks, shutting_down: o.isStopping() }))
    }
    if (path === '/metrics') return send(200, metricsText(o.stats, o.renderer), 'text/plain; version=0.0.4; charset=utf-8')
    send(404, JSON.stringify({ error: { code: 'E_NOT_FOUND', message: `no route ${path}: /healthz, /readyz and /metrics only` } }))
  })
  server.keepAliveTimeout = 65_000
  return new Promise((resolve, reject) => {
    server.once('error', reject)
    server.listen(o.port, o.host, () => resolve(server))
  })
}

function metricsText(stats: ReturnType<typeof workerStats>, renderer: Compositor): string {
  return `${[
    metric('reelforge_renders_running_here', 'gauge', 'Renders and pieces of split renders this worker is rendering now.', [['', stats.running()]]),
    metric('reelforge_worker_jobs_total', 'counter', 'Renders and pieces this worker finished, by outcome.', [
      ['{outcome="completed"}', stats.completed],
      ['{outcome="failed"}', stats.failed],
    ]),
    ...(renderer instanceof IsolatedRenderer ? [processMetric(renderer)] : []),
    metric('reelforge_rendered_frames_total', 'counter', 'Frames rendered by this worker.', [['', stats.frames]]),
    metric('reelforge_render_seconds_total', 'counter', 'Seconds this worker spent rendering (frames_total / this = fps).', [
      ['', Math.round(stats.seconds * 1000) / 1000],
    ]),
    metric('reelforge_render_fps', 'gauge', 'Frames per second of the last render this worker finished.', [['', Math.round(stats.lastFps * 100) / 100]]),
  ].join('\n')}\n`
}
