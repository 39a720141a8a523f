import { writeFileSync } from 'node:fs'
import { join } from 'node:path'
import { suite } from 'uvu'
import * as assert from 'uvu/assert'
import Database from 'better-sqlite3'
import { probe } from '../../kit.js'
import { tempDir } from '../helpers/media.js'
import { groupPids } from '../../service/isolation/process-group.js'
import { pgrep, running, sleep, until } from '../helpers/processes.js'
import { runnable, api, createKey, freePort, serve, startCli, stop, waitStatus } from '../helpers/serve-child.js'

const e2e = suite('reelforge serve (a real socket, a child process)')
e2e('key from the CLI, the dashboard address printed, submit, poll until COMPLETE, download, ffprobe', async () => {
  const data = tempDir('reelforge-e2e-')
  const key = createKey(data)
  assert.match(key, /^rf_live_[A-Za-z0-9]{40}$/)
  const port = await freePort()
  // Started by hand (not serve()) to read what it prints: a user learns the dashboard's address from it.
  const { child: server, log } = await startCli(['serve', '--port', String(port), '--data', data], { REELFORGE_LEASE_MS: '1500' }, /^dashboard: \S+\n/m, 10_000)
  try {
    const printed = log().match(/^dashboard: (\S+)\n/m)![1]!
    assert.is(printed, `http://127.0.0.1:${port}/dashboard`)
    const page = await fetch(printed)
    assert.equal([page.status, page.headers.get('content-type')], [200, 'text/html; charset=utf-8'], 'the printed address opens the dashboard')
    const q = await api(port, key, 'POST', '/v1/render', {
      timeline: { tracks: [{ clips: [{ asset: { type: 'title', text: 'e2e' }, start: 0, length: 2 }] }] },
      output: { format: 'mp4', size: { width: 320, height: 180 }, fps: 25 },
    })
    assert.is(q.status, 201)
    const done = await waitStatus(port, key, q.body.jobId, ['COMPLETE', 'FAILED'])
    assert.is(done.status, 'COMPLETE', done.error)
    assert.match(done.url, new RegExp(`^http://127\\.0\\.0\\.1:${port}/v1/files/`))
    const file = join(data, 'download.mp4')
    writeFileSync(file, Buffer.from(await (await fetch(done.url)).arrayBuffer()))
    const v = (await probe(file, { countFrames: true })).streams[0]!
    assert.equal([v.codec, v.width, v.height, v.frames], ['h264', 320, 180, 50])
  } finally {
    await stop(server)
  }
})
e2e('kill -9 during a render: after a restart the job completes, exactly once', async () => {
  const data = tempDir('reelforge-crash-')
  const key = createKey(data)
  const port = await freePort()
  let server = await serve(data, port)
  const long = {
    timeline: { tracks: [{ clips: [{ asset: { type: 'title', text: 'crash test' }, start: 0, length: 8, transition: { in: 'fade', out: 'fade' } }] }] },
    output: { format: 'mp4', size: { width: 640, height: 360 }, fps: 25 },
  }
  const q = await api(port, key, 'POST', '/v1/render', long)
  await waitStatus(port, key, q.body.jobId, ['PROCESSING'])
  await new Promise((r) => setTimeout(r, 300))
  // Everything the server started for the render: its render process, and that process's encoder and Xvfb.
  const [child] = await until('the render process', () => pgrep('render-child', server.pid))
  const left = await until('the encoder', async () => ((await groupPids(child!)).length > 1 ? groupPids(child!) : undefined))
  await stop(server, 'SIGKILL')
  await sleep(5000)
  assert.equal(left.filter(running), [], 'no process of the killed server is left after 5 s')
  server = await serve(data, port)
  try {
    const done = await waitStatus(port, key, q.body.jobId, ['COMPLETE', 'FAILED'])
    assert.is(done.status, 'COMPLETE', done.error)
    const wallet = (await api(port, key, 'GET', '/v1/wallet')).body
    assert.is(wallet.balance, 500 - done.credits_used, 'charged once')
    const db = new Database(join(data, 'reelforge.db'), { readonly: true })
    const row = db.prepare('SELECT attempts, completed_at FROM jobs WHERE id = ?').get(q.body.jobId) as { attempts: number; completed_at: string }
    db.close()
    assert.is(row.attempts, 2, 'one interrupted attempt, one that completed')
    const file = join(data, 'files', q.body.jobId, `${q.body.jobId}.mp4`)
    assert.is((await probe(file, { countFrames: true })).streams[0]!.frames, 200)
  } finally {
    await stop(server)
  }
})
e2e('SIGTERM with a render and a frame in flight → the frame ends at once, the render gets the grace, then goes back to the queue', async () => {
  const data = tempDir('reelforge-sigterm-')
  const key = createKey(data)
  const port = await freePort()
  const runaway = runnable(new URL('../helpers/runaway-plugin.ts', import.meta.url).pathname)
  const env = { REELFORGE_STOP_GRACE_S: '2', REELFORGE_PLUGINS: runaway, REELFORGE_ALLOW_NETWORKS: '127.0.0.0/8' }
  let server = await serve(data, port, env)
  const long = {
    timeline: { tracks: [{ clips: [{ asset: { type: 'title', text: 'stop test' }, start: 0, length: 300 }] }] },
    output: { format: 'mp4', size: { width: 640, height: 360 }, fps: 25 },
  }
  const q = await api(port, key, 'POST', '/v1/render', long)
  await until('rendering progress', async () => (await api(port, key, 'GET', `/v1/render/${q.body.jobId}`)).body.progress > 0.05)
  const frame = fetch(`http://127.0.0.1:${port}/v1/render/frame`, {
    method: 'POST',
    headers: { authorization: `Bearer ${key}`, 'content-type': 'application/json' },
    body: JSON.stringify({ timeline: { tracks: [{ clips: [{ asset: { type: 'busy-loop' }, start: 0, length: 1 }] }] }, output: long.output, time: 0.5 }),
  }).then(
    (r) => r.status,
    () => 'closed',
  )
  await until('the frame to be drawing', () => (pgrep('render-child', server.pid).length >= 2 ? true : undefined))
  const kids = pgrep('render-child', server.pid)
  const t0 = Date.now()
  await stop(server, 'SIGTERM')
  const took = Date.now() - t0
  assert.ok(took < 2000 + 3000, `exited ${took} ms after SIGTERM (grace 2 s)`)
  assert.ok(took >= 1500, 'the render had its grace')
  assert.ok(['closed', 503, 409].includes((await frame) as never), 'the frame was not drawn on')
  await sleep(500)
  assert.equal(kids.filter(running), [], 'no render process is left')
  const db = new Database(join(data, 'reelforge.db'), { readonly: true })
  const row = db.prepare('SELECT status, attempts FROM jobs WHERE id = ?').get(q.body.jobId) as { status: string; attempts: number }
  db.close()
  assert.equal(row, { status: 'QUEUED', attempts: 0 }, 'back in the queue, the stop not counted as a failed attempt')
  server = await serve(data, port, env)
  try {
    // The restarted server takes it up again (no need to watch all 300 s of it: cancelled once it runs).
    await waitStatus(port, key, q.body.jobId, ['PROCESSING'])
    assert.is((await api(port, key, 'DELETE', `/v1/render/${q.body.jobId}`)).body.error, 'cancelled')
  } finally {
    await stop(server)
  }
})
e2e.run()
