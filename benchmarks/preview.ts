// `npm run bench:preview`: latency per frame of a typical 6-clip edit at preview resolution, through
// `POST /v1/render/frame` (each frame planned and drawn from scratch) and through a preview session
// (`/v1/previews`: sources prepared and decoders warm between frames), in the same run: the frame endpoint's pass
// first, then the session's, each asking for the next frame as soon as the last arrived (no idle time for the
// session to read ahead in). A real server child (dist/) renders in its render processes.
import { spawn } from 'node:child_process'
import { mkdtempSync, rmSync } from 'node:fs'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { previewEdit } from './lib/preview-edit.js'

const here = import.meta.dirname
const media = join(here, '.media')
const data = mkdtempSync(join(tmpdir(), 'reelforge-bench-preview-'))
// `BENCH_EDITOR=1`: the edit as the dashboard's editor asks for an HD edit's frames — laid out and drawn at
// 1280×720, scaled to preview size (`output.scaleTo`) — instead of one made at preview resolution.
const made = await previewEdit(media)
const edit = process.env.BENCH_EDITOR ? { ...made, output: { ...made.output, resolution: 'hd', scaleTo: 'preview' } } : made
const server = spawn(process.execPath, [join(here, 'preview-server.mjs'), data, media], { stdio: ['ignore', 'pipe', 'inherit'] })
const { url, key } = await new Promise<{ url: string; key: string }>((resolve) =>
  server.stdout!.on('data', (d) => {
    const line = String(d)
      .split('\n')
      .find((l) => l.startsWith('{"url"'))
    if (line) resolve(JSON.parse(line))
  }),
)
const headers = { authorization: `Bearer ${key}`, 'content-type': 'application/json' }

/** Milliseconds `ask` takes; it must answer a PNG. */
async function timed(what: string, ask: () => Promise<Response>): Promise<number> {
  const started = performance.now()
  const res = await ask()
  const body = new Uint8Array(await res.arrayBuffer())
  const ms = performance.now() - started
  if (res.status !== 200 || body[1] !== 0x50) throw new Error(`${what}: ${res.status} ${new TextDecoder().decode(body).slice(0, 300)}`)
  return ms
}

/** The scrub pattern, seeded: steps forward a frame at a time over the video, then 0.2 s steps, random jumps, and jumps into the video. */
function pattern(): number[] {
  let seed = 36
  const random = () => (seed = (seed * 1103515245 + 12345) % 2 ** 31) / 2 ** 31
  const times: number[] = []
  for (let i = 1; i <= 15; i++) times.push(1 + i * 0.04) // one frame at a time, inside the video
  for (let i = 0; i < 10; i++) times.push(5 + i * 0.2) // across the cut from the video to the photos
  for (let i = 0; i < 20; i++) times.push(Math.round(random() * 12 * 25) / 25) // anywhere
  for (let i = 0; i < 15; i++) times.push(Math.round(random() * 6.4 * 25) / 25) // anywhere in the video
  return times
}
const overVideo = (t: number) => t < 6.5

const stats = (xs: number[]) => {
  const s = [...xs].sort((a, b) => a - b)
  const at = (q: number) => s[Math.min(s.length - 1, Math.ceil(q * s.length) - 1)]!
  return { median: at(0.5), p95: at(0.95), max: s.at(-1)! }
}
const show = (xs: number[]) => {
  const { median, p95, max } = stats(xs)
  return `median ${median.toFixed(0)} ms, p95 ${p95.toFixed(0)} ms, max ${max.toFixed(0)} ms (${xs.length} frames)`
}

try {
  const frame = (time: number) => () => fetch(`${url}/v1/render/frame`, { method: 'POST', headers, body: JSON.stringify({ ...edit, time }) })
  const times = pattern()
  const results = { frame: [] as number[], session: [] as number[] }
  const firstFrame = await timed('first /v1/render/frame', frame(0))
  for (const t of times) results.frame.push(await timed(`/v1/render/frame at ${t}`, frame(t)))
  // The session's pass: opened, then the same frames.
  const opened = performance.now()
  const created = await fetch(`${url}/v1/previews`, { method: 'POST', headers, body: JSON.stringify(edit) })
  const session = created.status === 201 ? ((await created.json()) as { id: string }).id : undefined
  if (!session) console.log(`no preview sessions on this server (${created.status}): measuring /v1/render/frame only`)
  const sessionFrame = (time: number) => () => fetch(`${url}/v1/previews/${session}/frame?t=${time}`, { headers })
  const createMs = performance.now() - opened
  const firstSession = session ? await timed('first session frame', sessionFrame(0)) : 0
  if (session) for (const t of times) results.session.push(await timed(`session frame at ${t}`, sessionFrame(t)))
  const video = (xs: number[]) => xs.filter((_, i) => overVideo(times[i]!))
  // `BENCH_VERBOSE=1`: every frame's time, to see which ones are slow.
  if (process.env.BENCH_VERBOSE)
    times.forEach((t, i) => console.log(`  t ${t.toFixed(2)}: frame endpoint ${results.frame[i]!.toFixed(0)} ms, session ${results.session[i]?.toFixed(0)} ms`))
  const size = process.env.BENCH_EDITOR ? 'drawn at 1280×720, scaled to 512×288' : 'at 512×288'
  console.log(`\nA 6-clip edit ${size}, 25 fps (camera clip 1080p30, two photos, a logo, a title, a text); ${times.length} frames after the first`)
  console.log(
    `\nPOST /v1/render/frame\n  first frame ${firstFrame.toFixed(0)} ms\n  all: ${show(results.frame)}\n  over the video: ${show(video(results.frame))}`,
  )
  if (session) {
    console.log(
      `\npreview session\n  POST /v1/previews ${createMs.toFixed(0)} ms, then the first frame ${firstSession.toFixed(0)} ms\n  all: ${show(results.session)}\n  over the video: ${show(video(results.session))}`,
    )
    const a = stats(results.frame)
    const b = stats(results.session)
    console.log(`\nsession ÷ frame endpoint: median ${(b.median / a.median).toFixed(2)}×, p95 ${(b.p95 / a.p95).toFixed(2)}×`)
    console.log(`goal median ≤ 120 ms and p95 ≤ 250 ms: ${b.median <= 120 && b.p95 <= 250 ? 'met' : 'NOT met'} on this machine now`)
  }
} finally {
  server.kill('SIGTERM')
  await new Promise((r) => server.once('exit', r))
  rmSync(data, { recursive: true, force: true })
}
