import { resolve } from 'node:path'
import { dbTarget, defaultConfig } from '../../service/config.js'
import { redact } from '../../service/lib/redact.js'
import { storageFor } from '../../service/storage/storage-select.js'
import { countOption, listenProblem, preflight, redisUrlOption, refuse } from './startup.js'
import { exitOnStopSignal, stopGraceSeconds } from './stop-signals.js'
import { parseCommand } from './args.js'
import { logger } from '../../service/log.js'

/** The process's own lines, bare in the text format as they always were. */
const log = logger('serve', { prefix: false })

const USAGE = `usage: reelforge serve [--port 3000] [--host 127.0.0.1] [--data ./data] [--concurrency 1] [--base-url URL] [--redis redis://host:6379 [--segments N]] [--database postgres://…] [--allow-files DIR,DIR] [--y-axis down|up] [--shotstack]
  --redis: enqueue renders on BullMQ for \`reelforge worker\` processes instead of rendering here (env REELFORGE_REDIS_URL)
  --segments: with --redis, split each mp4 render into N time segments rendered at once by several workers (env REELFORGE_SEGMENTS)
  --database: keep jobs, keys, the wallet ledger and the webhook outbox in PostgreSQL instead of <data>/reelforge.db (env REELFORGE_DATABASE_URL)
  --y-axis: which way offset.y counts in edits sent to /v1: down (default, the seed's) or up (Shotstack's) (env REELFORGE_Y_AXIS)
  --shotstack: also serve Shotstack's own API (/edit, /serve, /ingest with x-api-key; offsets count up) (env REELFORGE_SHOTSTACK=1)
  --allow-files: local directories timelines may read files from (env REELFORGE_ALLOW_FILES); none by default: over the API a source is an http(s) URL, this service's own /v1/files URL or alias://`

/** `reelforge serve`: the /v1 service on embedded defaults (SQLite + local files under --data, in-process worker). */
export async function serveCommand(argv: string[]): Promise<number> {
  const { values } = parseCommand('serve', {
    args: argv,
    options: {
      port: { type: 'string', short: 'p' },
      host: { type: 'string' },
      data: { type: 'string', short: 'd' },
      concurrency: { type: 'string', short: 'c' },
      'base-url': { type: 'string' },
      redis: { type: 'string' },
      database: { type: 'string' },
      segments: { type: 'string' },
      'allow-files': { type: 'string' },
      'y-axis': { type: 'string' },
      shotstack: { type: 'boolean' },
      help: { type: 'boolean', short: 'h' },
    },
  })
  if (values.help) {
    console.log(USAGE)
    return 0
  }
  const axis = values['y-axis']
  if (axis !== undefined && axis !== 'down' && axis !== 'up') {
    console.error(`--y-axis must be down or up, not ${axis}\n${USAGE}`)
    return 64
  }
  const redisUrl = redisUrlOption('serve', values.redis)
  // Settings that would do nothing in this mode are refused: the operator believes they do something.
  if (!redisUrl && values.segments !== undefined) refuse('serve', '--segments splits renders over BullMQ workers: it needs --redis', 64)
  if (!redisUrl && Number(process.env.REELFORGE_SEGMENTS || 1) !== 1)
    refuse('serve', 'REELFORGE_SEGMENTS splits renders over BullMQ workers: it needs --redis (or REELFORGE_REDIS_URL)', 64)
  if (redisUrl && Number(process.env.REELFORGE_ACCOUNT_CONCURRENCY || 0) !== 0)
    refuse('serve', 'REELFORGE_ACCOUNT_CONCURRENCY caps the embedded queue: BullMQ (--redis) has no per-account cap; unset it', 64)
  if (redisUrl && values.concurrency !== undefined)
    refuse('serve', '--concurrency does nothing with --redis: renders run on `reelforge worker` processes (their --concurrency)', 64)
  const config = defaultConfig({
    port: countOption('serve', values.port !== undefined ? '--port' : 'PORT', values.port ?? process.env.PORT, 3000, 0, 65535),
    host: values.host ?? process.env.HOST ?? '127.0.0.1',
    dataDir: values.data ?? process.env.REELFORGE_DATA ?? 'data',
    concurrency: countOption('serve', '--concurrency', values.concurrency, 1, 0),
    baseUrl: values['base-url'] ?? process.env.REELFORGE_BASE_URL,
    leaseMs: Number(process.env.REELFORGE_LEASE_MS ?? 15_000),
    redisUrl,
    ...(values.database ? { databaseUrl: values.database } : {}),
    ...(values['allow-files']
      ? {
          files: {
            allow: values['allow-files']
              .split(',')
              .map((dir) => resolve(dir.trim()))
              .filter(Boolean),
          },
        }
      : {}),
    segments: countOption(
      'serve',
      values.segments !== undefined ? '--segments' : 'REELFORGE_SEGMENTS',
      values.segments ?? process.env.REELFORGE_SEGMENTS,
      1,
      1,
      64,
    ),
    ...(axis !== undefined ? { yAxis: axis } : {}),
    ...(values.shotstack ? { shotstack: true } : {}),
  })
  await preflight('serve', { database: dbTarget(config), redisUrl, storage: storageFor(config) })
  // The service's modules load only once the options are known to be good: a refusal comes at once.
  const { startServer } = await import('../http/serve.js')
  const running = await startServer(config).catch((e: NodeJS.ErrnoException) =>
    refuse('serve', e.syscall === 'listen' ? listenProblem(e, config.host, config.port) : `cannot start: ${e.message}`, 1),
  )
  const rendering = config.redisUrl
    ? `renders queued on BullMQ at ${redact(config.redisUrl)} for reelforge worker${config.segments! > 1 ? `, split in ${config.segments} segments` : ''}`
    : `${config.concurrency} render${config.concurrency === 1 ? '' : 's'} at a time`
  const store = config.databaseUrl ? `, store: ${redact(config.databaseUrl)}` : ''
  log.info(`reelforge listening on ${running.url} (data: ${config.dataDir}${store}, ${rendering})`)
  log.info(`dashboard: ${running.url}/dashboard`)
  // Renders in progress get the grace to finish, then go back to the queue; a second signal skips the grace.
  const grace = stopGraceSeconds()
  return exitOnStopSignal(
    'serve',
    grace,
    (graceMs) => running.close(graceMs),
    () => `finishing running renders for up to ${grace} s (REELFORGE_STOP_GRACE_S), then stopping`,
  )
}
