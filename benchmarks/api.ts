// `npm run bench:api`: requests/s and latency of the /v1 API on loopback, with autocannon driving a real
// `reelforge serve` child (started with --concurrency 0, so submissions are validated and stored, not rendered).
import { spawn, spawnSync } from 'node:child_process'
import { mkdtempSync, rmSync } from 'node:fs'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import autocannon from 'autocannon'

const root = join(import.meta.dirname, '..')
const data = mkdtempSync(join(tmpdir(), 'reelforge-bench-api-'))
// REELFORGE_DATABASE_URL=postgres://… runs the same load against a PostgreSQL store (the children inherit it).
const port = 3900 + (process.pid % 90)
const main = join(root, 'dist/adapters/cli/main.js')
const key = spawnSync(process.execPath, [main, 'keys', 'create', '--data', data], { encoding: 'utf8' }).stdout.trim()
// Live submissions hold credits: fund the key for every request the run can make.
const funded = spawnSync(process.execPath, [main, 'wallet', 'deposit', '100000000', '--key', key, '--data', data], { encoding: 'utf8' })
if (funded.status !== 0) throw new Error(`could not fund the key: ${funded.stderr}`)
const server = spawn(process.execPath, [main, 'serve', '--port', String(port), '--data', data, '--concurrency', '0'], { stdio: ['ignore', 'pipe', 'inherit'] })
await new Promise<void>((resolve) => server.stdout!.on('data', (d) => /listening/.test(String(d)) && resolve()))

const base = `http://127.0.0.1:${port}`
const headers = { authorization: `Bearer ${key}`, 'content-type': 'application/json' }
const edit = JSON.stringify({
  timeline: {
    background: '#000000',
    tracks: [
      {
        clips: [
          { asset: { type: 'title', text: 'Hello', style: 'minimal' }, start: 0, length: 5, transition: { in: 'fade' } },
          { asset: { type: 'image', src: 'https://example.com/a.jpg' }, start: 5, length: 5, effect: 'zoomIn' },
        ],
      },
    ],
  },
  output: { format: 'mp4', resolution: 'hd' },
})
const first = (await (await fetch(`${base}/v1/render`, { method: 'POST', headers, body: edit })).json()) as { jobId?: string }
if (!first.jobId) throw new Error(`the first submission failed: ${JSON.stringify(first)}`)

async function run(title: string, opts: autocannon.Options, goal: { rps: number; p99: number }) {
  const r = await autocannon({ duration: 10, connections: 32, pipelining: 1, ...opts })
  const ok = r.non2xx === 0 && r.errors === 0
  console.log(
    `${title}: ${r.requests.average.toFixed(0)} req/s, latency p50 ${r.latency.p50} ms, p99 ${r.latency.p99} ms${ok ? '' : ` (non-2xx ${r.non2xx}, errors ${r.errors})`}`,
  )
  console.log(`  goal ≥ ${goal.rps} req/s and p99 < ${goal.p99} ms: ${r.requests.average >= goal.rps && r.latency.p99 < goal.p99 ? 'met' : 'NOT met'}`)
}

try {
  await run('GET /v1/render/{id}', { url: `${base}/v1/render/${first.jobId}`, headers }, { rps: 5000, p99: 25 })
  await run('POST /v1/render (validate + persist)', { url: `${base}/v1/render`, method: 'POST', headers, body: edit }, { rps: 1000, p99: 25 })
} finally {
  server.kill('SIGTERM')
  rmSync(data, { recursive: true, force: true })
}
