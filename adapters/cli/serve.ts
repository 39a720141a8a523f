import { parseArgs } from 'node:util'
import { defaultConfig } from '../service/config.js'
import { startServer } from '../http/serve.js'

const USAGE = `usage: reelforge serve [--port 3000] [--host 127.0.0.1] [--data ./data] [--concurrency 1] [--base-url URL] [--redis redis://host:6379]
  --redis: enqueue renders on BullMQ for \`reelforge worker\` processes instead of rendering here (env REELFORGE_REDIS_URL)`

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
      help: { type: 'boolean', short: 'h' },
    },
  })
  if (values.help) {
    console.log(USAGE)
    return 0
  }
  const config = defaultConfig({
    port: values.port !== undefined ? Number(values.port) : Number(process.env.PORT ?? 3000),
    host: values.host ?? process.env.HOST ?? '127.0.0.1',
    dataDir: values.data ?? process.env.REELFORGE_DATA ?? 'data',
    concurrency: values.concurrency !== undefined ? Number(values.concurrency) : 1,
    baseUrl: values['base-url'] ?? process.env.REELFORGE_BASE_URL,
    leaseMs: Number(process.env.REELFORGE_LEASE_MS ?? 15_000),
    redisUrl: values.redis ?? process.env.REELFORGE_REDIS_URL,
  })
  if (!Number.isInteger(config.port) || config.port < 0 || !Number.isInteger(config.concurrency) || config.concurrency < 0) {
    console.error(USAGE)
    return 64
  }
  const running = await startServer(config)
  const rendering = config.redisUrl ? `renders queued on BullMQ at ${config.redisUrl.replace(/\/\/[^@/]*@/, '//…@')} for reelforge worker` : `${config.concurrency} render${config.concurrency === 1 ? '' : 's'} at a time`
  console.log(`reelforge listening on ${running.url} (data: ${config.dataDir}, ${rendering})`)
  await new Promise<void>((resolve) => {
    const stop = (signal: string) => {
      console.log(`${signal}: finishing running renders, then stopping`)
      void running.close().finally(resolve)
    }
    process.once('SIGINT', () => stop('SIGINT'))
    process.once('SIGTERM', () => stop('SIGTERM'))
  })
  return 0
}
