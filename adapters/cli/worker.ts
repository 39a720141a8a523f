import { setTimeout as sleep } from 'node:timers/promises'
import { redact } from '../../service/lib/redact.js'
import { startBullWorker } from '../../service/queue/bull-worker.js'
import { defaultConfig, filesDir, workDir } from '../../service/config.js'
import { loadPluginModules } from '../../service/isolation/plugin-modules.js'
import { workerRenderer } from '../../service/isolation/worker-renderer.js'
import { storageFor } from '../../service/storage/storage-select.js'
import { readiness } from '../../service/health/readiness.js'
import { redisProbe } from '../../service/queue/redis-check.js'
import { countOption, listenProblem, preflight, redisUrlOption, refuse } from './startup.js'
import { exitOnStopSignal, stopGraceSeconds } from './stop-signals.js'
import { startWorkerHttp, workerStats } from './worker-http.js'
import { parseCommand } from './args.js'
import { logger } from '../../service/log.js'

/** The process's own lines, bare in the text format as they always were. */
const log = logger('worker', { prefix: false })

const USAGE = `usage: reelforge worker --redis redis://host:6379 [--data ./data] [--concurrency 1] [--base-url URL] [--port 0] [--host 127.0.0.1]
  Renders jobs that \`reelforge serve --redis …\` queued. Files go to the service's storage: the bucket in
  REELFORGE_S3_BUCKET (and _ENDPOINT, _REGION, _PREFIX) when set, else <data>/files — then --data must be the
  server's data directory (shared with it, e.g. over NFS).
  --base-url: the server's public URL, so edits that use its own file links read them from storage directly.
  Each render runs in a process of its own, bounded as the server's are (REELFORGE_RENDER_MEMORY_MB, the time budget); a
  cancel ends it and everything it started (REELFORGE_ISOLATE_RENDERS=0 renders in the worker itself).
  --port, --host: where /healthz, /readyz and /metrics answer (env REELFORGE_WORKER_PORT, REELFORGE_WORKER_HOST;
  default a free port on 127.0.0.1, printed in the ready line).
  env: REELFORGE_REDIS_URL, REELFORGE_DATA, REELFORGE_LOCK_MS (BullMQ lock; a killed worker's job moves on after it, default 30000),
  REELFORGE_STOP_GRACE_S (SIGTERM lets renders finish this long, default 30; then the process exits and they go back to the queue)`

/**
 * `reelforge worker`: a BullMQ render worker with /healthz, /readyz and /metrics on its own port; SIGTERM
 * finishes the renders in progress within the grace, a second signal stops at once.
 */
export async function workerCommand(argv: string[]): Promise<number> {
  const { values } = parseCommand('worker', {
    args: argv,
    options: {
      redis: { type: 'string' },
      data: { type: 'string', short: 'd' },
      concurrency: { type: 'string', short: 'c' },
      'base-url': { type: 'string' },
      port: { type: 'string', short: 'p' },
      host: { type: 'string' },
      help: { type: 'boolean', short: 'h' },
    },
  })
  const redisUrl = values.help ? undefined : redisUrlOption('worker', values.redis)
  const lockMs = Number(process.env.REELFORGE_LOCK_MS ?? 30_000)
  if (values.help || !redisUrl || !(lockMs >= 1000)) {
    console.error(USAGE)
    return values.help ? 0 : 64
  }
  const concurrency = countOption('worker', '--concurrency', values.concurrency, 1, 1)
  const port = countOption(
    'worker',
    values.port !== undefined ? '--port' : 'REELFORGE_WORKER_PORT',
    values.port ?? process.env.REELFORGE_WORKER_PORT,
    0,
    0,
    65535,
  )
  const host = values.host ?? (process.env.REELFORGE_WORKER_HOST || '127.0.0.1')
  const config = defaultConfig({ dataDir: values.data ?? process.env.REELFORGE_DATA ?? 'data', baseUrl: values['base-url'] ?? process.env.REELFORGE_BASE_URL })
  const storage = storageFor(config)
  await preflight('worker', { redisUrl, storage })
  let stopping = false
  const redis = redisProbe(redisUrl)
  const ready = readiness({ redis: redis.check, storage: (signal) => storage.check(signal) }, { close: redis.close })
  const stats = workerStats()
  const plugins = await loadPluginModules(config.pluginModules)
  // Each render in a bounded process of its own, as in the server: a cancel or the time budget ends it whatever it is doing.
  const { renderer, close: closeRenderer } = workerRenderer(config, storage, plugins)
  // Listening first: a port in use stops the start before this worker takes a job.
  const server = await startWorkerHttp({ host, port, readiness: ready, stats, renderer, isStopping: () => stopping }).catch((e: NodeJS.ErrnoException) =>
    refuse('worker', listenProblem(e, host, port), 1),
  )
  const running = await startBullWorker({
    redisUrl,
    renderer,
    storage,
    workRoot: workDir(config),
    cacheDir: config.cacheDir,
    concurrency,
    lockMs,
    limits: config.limits,
  })
  stats.watch(running.worker, 'render')
  stats.watch(running.pieces, 'piece')
  const where = server.address() as { port: number }
  const isolation = config.isolateRenders ? `, each render in its own process of at most ${config.limits.renderMemoryMb} MB` : ''
  log.info(
    `reelforge worker ${process.pid} ready (queue on ${redact(redisUrl)}, files in ${config.s3 ? `s3://${config.s3.bucket}/${config.s3.prefix ?? ''}` : filesDir(config)}, ${concurrency} at a time${isolation}, health on http://${host}:${where.port})`,
  )
  const grace = stopGraceSeconds()
  const stop = async (graceMs: number) => {
    stopping = true
    // BullMQ's close waits for the renders, then for Redis: renders get the grace, Redis (maybe away) 3 s more.
    const closed = running.close().then(() => true)
    for (const end = Date.now() + graceMs; stats.running() > 0 && Date.now() < end; ) await sleep(100)
    if (stats.running() > 0) log.info(`grace over: ${stats.running()} render(s) still running go back to the queue once their lock lapses (REELFORGE_LOCK_MS)`)
    else await Promise.race([closed, sleep(3000)])
    server.close()
    server.closeAllConnections()
    await ready.close()
    await closeRenderer()
  }
  return exitOnStopSignal(
    'worker',
    grace,
    stop,
    () => `finishing the renders in progress for up to ${grace} s (REELFORGE_STOP_GRACE_S), then stopping (again: at once)`,
  )
}
