import { parseArgs } from 'node:util'
import { dbTarget, defaultConfig, filesDir } from '../../service/config.js'
import { redact } from '../../service/lib/redact.js'
import { S3Storage } from '../../service/storage/s3-storage.js'
import { storageFor } from '../../service/storage/storage-select.js'
import { DATABASE_OPTIONS, dataDirOf } from './database-args.js'
import { type Dependencies, dependencyProblems, problemLine, redisUrlOption, refuse } from './startup.js'

const USAGE = `usage: reelforge check [--data ./data] [--database postgres://…] [--redis redis://…] [--create-bucket]
  Asks what \`serve\` and \`worker\` need, with the same settings (flags and environment), and prints one line each:
  the database (PostgreSQL answers and the database exists), Redis (when --redis or REELFORGE_REDIS_URL is set)
  and storage (the bucket in REELFORGE_S3_BUCKET answers these credentials, else <data>/files is writable).
  Exit 0 when everything answers, 1 otherwise.
  --create-bucket: first create the bucket (in REELFORGE_S3_REGION) when it does not exist yet`

/** `reelforge check`: the start checks of `serve` and `worker` on their own, for an operator setting up. */
export async function checkCommand(argv: string[]): Promise<number> {
  const { values } = parseArgs({
    args: argv,
    options: { ...DATABASE_OPTIONS, redis: { type: 'string' }, 'create-bucket': { type: 'boolean' }, help: { type: 'boolean', short: 'h' } },
  })
  if (values.help) return (console.log(USAGE), 0)
  const config = defaultConfig({ dataDir: dataDirOf(values), ...(values.database ? { databaseUrl: values.database } : {}) })
  const storage = storageFor(config)
  if (values['create-bucket']) {
    if (!(storage instanceof S3Storage)) refuse('check', '--create-bucket needs a bucket to create: set REELFORGE_S3_BUCKET', 64)
    const made = await storage.createBucket().catch((e: Error) => refuse('check', `storage: ${e.message}`, 1))
    console.log(`storage: ${made === 'created' ? 'created' : 'found'} the bucket "${config.s3!.bucket}"`)
  }
  const d: Dependencies = { database: dbTarget(config), redisUrl: redisUrlOption('check', values.redis), storage }
  const where: Record<string, string> = {
    database: redact(d.database!),
    redis: d.redisUrl ? redact(d.redisUrl) : '',
    storage: config.s3 ? `s3://${config.s3.bucket}/${config.s3.prefix ?? ''}${config.s3.endpoint ? ` at ${config.s3.endpoint}` : ''}` : filesDir(config),
  }
  let failed = 0
  for (const { name, problem } of await dependencyProblems(d)) {
    if (problem === undefined) console.log(`${name}: ok (${where[name]})`)
    else failed++, console.log(problemLine(name, problem, d))
  }
  return failed ? 1 : 0
}
