import { parseArgs } from 'node:util'
import { redact } from '../../service/redact.js'
import { startBullWorker } from '../../service/queue/bull-worker.js'
import { defaultConfig, filesDir, publicBaseUrl, workDir } from '../../service/config.js'
import { loadPluginModules } from '../../service/isolation/plugin-modules.js'
import { serviceRenderer } from '../../service/isolation/service-renderer.js'
import { storageFor } from '../../service/storage/storage-select.js'

const USAGE = `usage: reelforge worker --redis redis://host:6379 [--data ./data] [--concurrency 1] [--base-url URL]
  Renders jobs that \`reelforge serve --redis …\` queued. Files go to the service's storage: the bucket in
  REELFORGE_S3_BUCKET (and _ENDPOINT, _REGION, _PREFIX) when set, else <data>/files — then --data must be the
  server's data directory (shared with it, e.g. over NFS).
  --base-url: the server's public URL, so edits that use its own file links read them from storage directly.
  env: REELFORGE_REDIS_URL, REELFORGE_DATA, REELFORGE_LOCK_MS (BullMQ lock; a killed worker's job moves on after it, default 30000)`

/** `reelforge worker`: a BullMQ render worker; SIGTERM finishes the renders in progress, a second signal aborts them. */
export async function workerCommand(argv: string[]): Promise<number> {
  const { values } = parseArgs({
    args: argv,
    options: {
      redis: { type: 'string' },
      data: { type: 'string', short: 'd' },
      concurrency: { type: 'string', short: 'c' },
      'base-url': { type: 'string' },
      help: { type: 'boolean', short: 'h' },
    },
  })
  const redisUrl = values.redis ?? process.env.REELFORGE_REDIS_URL
  const concurrency = Number(values.concurrency ?? 1)
  const lockMs = Number(process.env.REELFORGE_LOCK_MS ?? 30_000)
  if (values.help || !redisUrl || !Number.isInteger(concurrency) || concurrency < 1 || !(lockMs >= 1000)) {
    console.error(USAGE)
    return values.help ? 0 : 64
  }
  const config = defaultConfig({ dataDir: values.data ?? process.env.REELFORGE_DATA ?? 'data', baseUrl: values['base-url'] ?? process.env.REELFORGE_BASE_URL })
  const storage = storageFor(config)
  const plugins = await loadPluginModules(config.pluginModules)
  const renderer = serviceRenderer({
    cacheDir: config.cacheDir,
    network: config.network,
    files: config.files,
    baseUrl: () => publicBaseUrl(config),
    storage,
    plugins,
  })
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
  console.log(
    `reelforge worker ${process.pid} ready (queue on ${redact(redisUrl)}, files in ${config.s3 ? `s3://${config.s3.bucket}/${config.s3.prefix ?? ''}` : filesDir(config)}, ${concurrency} at a time)`,
  )
  await new Promise<void>((resolve) => {
    let signals = 0
    const stop = (signal: string) => {
      if (++signals > 1) return void running.close(true).finally(resolve)
      console.log(`${signal}: finishing the renders in progress, then stopping (again to abort them)`)
      void running.close().finally(resolve)
    }
    process.on('SIGINT', () => stop('SIGINT'))
    process.on('SIGTERM', () => stop('SIGTERM'))
  })
  return 0
}
