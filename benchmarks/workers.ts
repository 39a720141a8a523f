// `npm run bench:workers`: the 2-minute mixed timeline rendered through the service on BullMQ by 1 worker and
// by 2 workers splitting it into 2 segments (`serve --redis --segments 2`), in the same run, with the built
// CLI; prints the wall time from submission to COMPLETE for each and the ratio.
import { spawn, spawnSync, type ChildProcess } from 'node:child_process'
import { createReadStream, existsSync, mkdirSync, mkdtempSync, rmSync } from 'node:fs'
import { createServer } from 'node:http'
import { tmpdir } from 'node:os'
import { basename, join } from 'node:path'
import { Redis } from 'ioredis'
import { ensureDisplay } from '../core/index.js'
import { mixedEdit } from './mixed.js'

const here = import.meta.dirname
const work = join(here, '.media')
mkdirSync(work, { recursive: true })
const cli = join(here, '..', 'dist', 'adapters', 'cli', 'main.js')
const redisUrl = `redis://127.0.0.1:${process.env.REELFORGE_TEST_REDIS_PORT ?? 6399}/2`
const env = { ...process.env, DISPLAY: await ensureDisplay(), REELFORGE_ALLOW_NETWORKS: '127.0.0.0/8', REELFORGE_REDIS_URL: redisUrl }

// The service fetches assets over HTTP: serve the generated media from loopback.
const media = createServer((req, res) => {
  const file = join(work, basename(decodeURIComponent(new URL(req.url!, 'http://x').pathname)))
  if (!existsSync(file)) return void ((res.statusCode = 404), res.end())
  createReadStream(file).pipe(res)
})
await new Promise<void>((r) => media.listen(0, '127.0.0.1', () => r()))
const base = `http://127.0.0.1:${(media.address() as { port: number }).port}/`
const edit = await mixedEdit(work, 2)
edit.output = { ...edit.output, resolution: 'hd' } // 1280×720: two minutes stay a few minutes of benchmark
const json = JSON.stringify(edit).replace(new RegExp(`"${work.replace(/[/.]/g, (c) => `\\${c}`)}/([^"]+)"`, 'g'), (_, name) => `"${base}${name}"`)

function start(args: string[], extraEnv: Record<string, string>, ready: RegExp): Promise<ChildProcess> {
  return new Promise((resolve, reject) => {
    const child = spawn(process.execPath, [cli, ...args], { env: { ...env, ...extraEnv }, stdio: ['ignore', 'pipe', 'pipe'] })
    let out = ''
    const timer = setTimeout(() => reject(new Error(`${args[0]} did not start: ${out}`)), 30_000)
    const read = (d: Buffer) => {
      out += d
      if (ready.test(out)) clearTimeout(timer), resolve(child)
    }
    child.stdout!.on('data', read)
    child.stderr!.on('data', read)
  })
}
const stop = (c: ChildProcess) =>
  new Promise<void>((r) => (c.exitCode !== null || c.signalCode !== null ? r() : (c.once('exit', () => r()), c.kill('SIGKILL'))))

async function run(workers: number): Promise<number> {
  const redis = new Redis(redisUrl)
  await redis.flushdb()
  redis.disconnect()
  const data = mkdtempSync(join(tmpdir(), 'reelforge-bench-workers-'))
  const key = spawnSync(process.execPath, [cli, 'keys', 'create', '--data', data], { encoding: 'utf8' }).stdout.trim()
  spawnSync(process.execPath, [cli, 'wallet', 'deposit', '100000', '--key', key, '--data', data], { encoding: 'utf8' })
  const port = 4700 + workers
  const server = await start(['serve', '--port', String(port), '--data', data], { REELFORGE_SEGMENTS: String(workers) }, /listening on/)
  const procs = [server]
  try {
    for (let i = 0; i < workers; i++) procs.push(await start(['worker', '--data', data], {}, /reelforge worker \d+ ready/))
    const api = (method: string, path: string, body?: string) =>
      fetch(`http://127.0.0.1:${port}${path}`, { method, body, headers: { authorization: `Bearer ${key}`, 'content-type': 'application/json' } }).then(
        (r) => r.json() as Promise<any>,
      )
    const started = performance.now()
    const { jobId } = await api('POST', '/v1/render', json)
    for (;;) {
      const s = await api('GET', `/v1/render/${jobId}`)
      if (s.status === 'FAILED') throw new Error(`render failed: ${s.error}`)
      if (s.status === 'COMPLETE') {
        const wall = performance.now() - started
        console.log(
          `${workers} worker${workers === 1 ? '' : 's'}${workers > 1 ? ` (${workers} segments)` : ''}: ${(wall / 1000).toFixed(1)} s from submission to COMPLETE (${s.duration} s of video)`,
        )
        return wall
      }
      await new Promise((r) => setTimeout(r, 200))
    }
  } finally {
    await Promise.all(procs.map(stop))
    rmSync(data, { recursive: true, force: true })
  }
}

const one = await run(1)
const two = await run(2)
console.log(`\n2 workers / 1: ${(two / one).toFixed(2)}x the wall time (${(one / two).toFixed(2)}x faster)`)
media.close()
