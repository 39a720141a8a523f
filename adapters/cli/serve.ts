import { resolve } from 'node:path'
import { parseArgs } from 'node:util'
import { defaultConfig } from '../../service/config.js'
import { startServer } from '../http/serve.js'
import { redact } from '../../service/redact.js'

const USAGE = `usage: reelforge serve [--port 3000] [--host 127.0.0.1] [--data ./data] [--concurrency 1] [--base-url URL] [--redis redis://host:6379 [--segments N]] [--database postgres://…] [--allow-files DIR,DIR] [--y-axis down|up] [--shotstack]
  --redis: enqueue renders on BullMQ for \`reelforge worker\` processes instead of rendering here (env REELFORGE_REDIS_URL)
  --segments: with --redis, split each mp4 render into N time segments rendered at once by several workers (env REELFORGE_SEGMENTS)
  --database: keep jobs, keys, the wallet ledger and the webhook outbox in PostgreSQL instead of <data>/reelforge.db (env REELFORGE_DATABASE_URL)
  --y-axis: which way offset.y counts in edits sent to /v1: down (default, the seed's) or up (Shotstack's) (env REELFORGE_Y_AXIS)
  --shotstack: also serve Shotstack's own API (/edit, /serve, /ingest with x-api-key; offsets count up) (env REELFORGE_SHOTSTACK=1)
  --allow-files: local directories timelines may read files from (env REELFORGE_ALLOW_FILES); none by default: over the API a source is an http(s) URL, this service's own /v1/files URL or alias://`

/** `reelforge serve`: the /v1 service on embedded defaults (SQLite + local files under --data, in-process worker). */
export async function serveCommand(argv: string[]): Promise<number> {
  const { values } = parseArgs({
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
  const config = defaultConfig({
    port: values.port !== undefined ? Number(values.port) : Number(process.env.PORT ?? 3000),
    host: values.host ?? process.env.HOST ?? '127.0.0.1',
    dataDir: values.data ?? process.env.REELFORGE_DATA ?? 'data',
    concurrency: values.concurrency !== undefined ? Number(values.concurrency) : 1,
    baseUrl: values['base-url'] ?? process.env.REELFORGE_BASE_URL,
    leaseMs: Number(process.env.REELFORGE_LEASE_MS ?? 15_000),
    redisUrl: values.redis ?? process.env.REELFORGE_REDIS_URL,
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
    segments: Number(values.segments ?? process.env.REELFORGE_SEGMENTS ?? 1),
    ...(axis !== undefined ? { yAxis: axis } : {}),
    ...(values.shotstack ? { shotstack: true } : {}),
  })
  const segmentsOk = Number.isInteger(config.segments) && config.segments! >= 1 && config.segments! <= 64
  if (!Number.isInteger(config.port) || config.port < 0 || !Number.isInteger(config.concurrency) || config.concurrency < 0 || !segmentsOk) {
    console.error(USAGE)
    return 64
  }
  const running = await startServer(config)
  const rendering = config.redisUrl
    ? `renders queued on BullMQ at ${redact(config.redisUrl)} for reelforge worker${config.segments! > 1 ? `, split in ${config.segments} segments` : ''}`
    : `${config.concurrency} render${config.concurrency === 1 ? '' : 's'} at a time`
  const store = config.databaseUrl ? `, store: ${redact(config.databaseUrl)}` : ''
  console.log(`reelforge listening on ${running.url} (data: ${config.dataDir}${store}, ${rendering})`)
  console.log(`dashboard: ${running.url}/dashboard`)
  // Renders in progress get the grace to finish, then go back to the queue; a second signal skips the grace.
  const grace = stopGraceSeconds()
  await new Promise<void>((resolve) => {
    let stopping = false
    const stop = (signal: string) => {
      if (stopping) {
        // Render processes end with this one (they watch it); their jobs' leases lapse and they are re-queued.
        console.log(`${signal} again: stopping now`)
        process.exit(130)
      }
      stopping = true
      console.log(`${signal}: finishing running renders for up to ${grace} s (REELFORGE_STOP_GRACE_S), then stopping`)
      void running.close(grace * 1000).finally(resolve)
    }
    process.on('SIGINT', () => stop('SIGINT'))
    process.on('SIGTERM', () => stop('SIGTERM'))
  })
  return 0
}

/** Seconds a stopping server gives renders in progress before it re-queues them: env `REELFORGE_STOP_GRACE_S`, default 30. */
function stopGraceSeconds(): number {
  const n = Number(process.env.REELFORGE_STOP_GRACE_S ?? 30)
  return Number.isFinite(n) && n >= 0 ? n : 30
}
