import { createReadStream, watch } from 'node:fs'
import { rmSync } from 'node:fs'
import { mkdtemp, readFile, rm, stat } from 'node:fs/promises'
import { createServer, type ServerResponse } from 'node:http'
import { tmpdir } from 'node:os'
import { basename, dirname, join } from 'node:path'
import { type Compositor, type Edit, frameEdit } from '../../core/index.js'
import { UsageError } from './edit-options.js'
import { PREVIEW_PAGE } from './preview-page.js'
import { loadEdits, OUTPUT_OPTIONS } from './render.js'
import { parseCommand } from './args.js'

const USAGE = `usage: reelforge preview <edit.json> [--port 3210] [--resolution preview] [--merge KEY=VALUE]…

Serves a page on this machine that plays the edit as rendered (at preview size unless --resolution says) and shows
any frame at once from a scrubber; every save of the file renders it again.`

/** `reelforge preview`: the edit rendered, re-rendered on save, with a frame scrubber, on a local page. */
export async function previewCommand(argv: string[]): Promise<number> {
  const { values, positionals } = parseCommand('preview', {
    args: argv,
    allowPositionals: true,
    options: { ...OUTPUT_OPTIONS, port: { type: 'string' }, help: { type: 'boolean', short: 'h' } },
  })
  if (values.help || positionals.length !== 1) return (console.error(USAGE), values.help ? 0 : 64)
  const port = Number(values.port ?? 3210)
  if (!Number.isInteger(port) || port < 0 || port > 65535) return (console.error(`error: --port must be a port number, not ${values.port}`), 64)
  const work = await mkdtemp(join(tmpdir(), 'reelforge-preview-'))
  process.once('exit', () => rmSync(work, { recursive: true, force: true }))
  process.once('SIGINT', () => process.exit(130))
  process.once('SIGTERM', () => process.exit(143))
  const options = { ...values, resolution: values.resolution ?? 'preview' }
  const clients = new Set<ServerResponse>()
  const send = (event: string, data: object) => {
    for (const c of clients) c.write(`event: ${event}\ndata: ${JSON.stringify(data)}\n\n`)
  }
  let last: { event: string; data: object } | undefined
  // The edit last loaded (frames draw from it at once, even while its video renders) and the last video made.
  let loaded: { edit: Edit; baseDir: string; renderer: Compositor } | undefined
  let video: string | undefined
  let version = 0
  let running: AbortController | undefined

  const render = async () => {
    running?.abort()
    const controller = (running = new AbortController())
    const v = ++version
    try {
      const { renderer, edits, file } = await loadEdits(positionals[0]!, options, 'preview.mp4')
      const edit = { ...edits[0]!.edit, output: { ...(edits[0]!.edit.output as object), format: 'mp4' } } as Edit
      if (v === version) loaded = { edit, baseDir: dirname(file), renderer }
      const out = join(work, `render-${v}.mp4`)
      const onProgress = (p: { progress: number }) => send('rendering', { progress: p.progress })
      const result = await renderer.render(edit, { out, baseDir: dirname(file), signal: controller.signal, onProgress })
      video = out
      last = { event: 'rendered', data: { version: v, name: basename(file), duration: result.duration, renderMs: result.renderMs } }
    } catch (e) {
      if (controller.signal.aborted) return
      last = { event: 'failed', data: { message: e instanceof Error ? e.message : String(e) } }
    }
    send(last.event, last.data)
    console.error(last.event === 'rendered' ? `rendered version ${v}` : `render failed: ${(last.data as { message: string }).message}`)
  }

  const server = createServer(async (req, res) => {
    const url = new URL(req.url ?? '/', 'http://localhost')
    try {
      if (url.pathname === '/') return void res.writeHead(200, { 'content-type': 'text/html; charset=utf-8' }).end(PREVIEW_PAGE)
      if (url.pathname === '/events') {
        res.writeHead(200, { 'content-type': 'text/event-stream', 'cache-control': 'no-store' })
        clients.add(res)
        req.on('close', () => clients.delete(res))
        if (last) res.write(`event: ${last.event}\ndata: ${JSON.stringify(last.data)}\n\n`)
        return
      }
      if (url.pathname === '/video') {
        if (!video) return void res.writeHead(503, { 'content-type': 'text/plain' }).end('not rendered yet')
        const { size } = await stat(video)
        res.writeHead(200, { 'content-type': 'video/mp4', 'content-length': size, 'cache-control': 'no-store' })
        return void createReadStream(video).pipe(res)
      }
      // A frame is its own still render: it needs the edit loaded, not the video (scrubbing works while it renders).
      if (url.pathname === '/frame') {
        if (!loaded) return void res.writeHead(503, { 'content-type': 'text/plain' }).end('no edit loaded yet')
        return void res
          .writeHead(200, { 'content-type': 'image/png', 'cache-control': 'no-store' })
          .end(await frameAt(loaded, Number(url.searchParams.get('t') ?? 0)))
      }
      res.writeHead(404, { 'content-type': 'text/plain' }).end('not found')
    } catch (e) {
      res.writeHead(422, { 'content-type': 'text/plain' }).end(e instanceof Error ? e.message : String(e))
    }
  })
  await new Promise<void>((resolve) => server.listen(port, '127.0.0.1', resolve))
  const address = server.address() as { port: number }
  console.log(`preview: http://127.0.0.1:${address.port}/  (Ctrl-C to stop)`)
  // Editors save by replacing the file: watch the folder, and wait for the writes to settle.
  let timer: NodeJS.Timeout | undefined
  const name = basename(positionals[0]!)
  watch(dirname(positionals[0]!), (_e, changed) => {
    if (changed !== name) return
    clearTimeout(timer)
    timer = setTimeout(() => void render(), 150)
  })
  await render()
  return new Promise<number>(() => {}) // serves until the process is stopped

  async function frameAt(c: NonNullable<typeof loaded>, t: number): Promise<Buffer> {
    if (!(t >= 0)) throw new UsageError(`t must be seconds, not ${t}`)
    const out = join(work, `frame-${Date.now()}-${Math.random().toString(36).slice(2)}.png`)
    await c.renderer.render(frameEdit(c.edit, t), { out, baseDir: c.baseDir })
    try {
      return await readFile(out)
    } finally {
      await rm(out, { force: true })
    }
  }
}
