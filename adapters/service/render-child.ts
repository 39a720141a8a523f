// The render process of `IsolatedRenderer`: one renderer, jobs one at a time from the parent over IPC.
// Whatever kills it — Xlib exiting when the X server dies, a GL driver segfault, the OOM killer — costs the
// job it was rendering, never the HTTP service.
import { displayLost, RenderError, type RenderResult } from '../../core/index.js'
import { fromShape, toShape, type ChildConfig, type ToChild, type ToParent } from './isolated-renderer.js'
import { serviceRenderer } from './service-renderer.js'
import { S3Storage } from './s3-storage.js'
import { LocalStorage } from './storage.js'

const config = JSON.parse(process.argv[2]!) as ChildConfig
const send = (m: ToParent) => process.send!(m)
const generated = new Map<number, { resolve(path: string): void; reject(e: Error): void }>()
const controllers = new Map<string, AbortController>()
let nextAsk = 0

const storage = config.s3 ? new S3Storage(config.s3) : config.filesDir ? new LocalStorage(config.filesDir) : undefined
const renderer = serviceRenderer({
  cacheDir: config.cacheDir,
  network: config.network,
  files: config.files,
  baseUrl: () => config.baseUrl,
  storage,
  // AI assets are generated (and charged) by the parent, which owns the database.
  generateImage: (request, ctx) =>
    new Promise<string>((resolve, reject) => {
      const ask = nextAsk++
      generated.set(ask, { resolve, reject })
      send({ type: 'generate', ask, request, path: ctx.path, owner: ctx.owner })
    }),
})

process.on('message', async (m: ToChild) => {
  if (m.type === 'abort') return controllers.get(m.id)?.abort(new RenderError('E_CANCELLED', m.reason))
  if (m.type === 'generated') {
    const g = generated.get(m.ask)
    generated.delete(m.ask)
    if (m.error) g?.reject(fromShape(m.error))
    else g?.resolve(m.path!)
    return
  }
  const controller = new AbortController()
  controllers.set(m.id, controller)
  try {
    const result: RenderResult = await renderer.render(m.edit, { out: m.out, owner: m.owner, baseDir: m.baseDir, signal: controller.signal, onProgress: (p) => send({ type: 'progress', id: m.id, progress: p }) })
    send({ type: 'done', id: m.id, result, retiring: displayLost() })
  } catch (e) {
    send({ type: 'failed', id: m.id, error: toShape(e, 'E_INTERNAL'), retiring: displayLost() })
  } finally {
    controllers.delete(m.id)
    // Our X server died under us: leave before Xlib's next request ends this process mid-render.
    if (displayLost()) setImmediate(() => process.exit(0))
  }
})
send({ type: 'ready' })
