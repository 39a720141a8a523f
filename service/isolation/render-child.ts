// The render process of `IsolatedRenderer`: one renderer, jobs one at a time from the parent over IPC.
// Whatever kills it — Xlib exiting when the X server dies, a GL driver segfault, the OOM killer — costs the
// job it was rendering, never the HTTP service.
import {
  crashSite,
  describeCrashSite,
  displayLost,
  keepMallocSettingToSelf,
  RenderError,
  type AiAsk,
  type AiRunner,
  type AiTask,
  type RenderProgress,
  type RenderResult,
} from '../../core/index.js'
import { fromShape, toShape, type ChildConfig, type PreviewAnswer, type ToChild, type ToParent } from './protocol.js'
import { previewOp } from './preview-child.js'
import { watchParent } from './parent-watch.js'
import { loadPluginModules } from './plugin-modules.js'
import { serviceRenderer } from './service-renderer.js'
import { S3Storage } from '../storage/s3-storage.js'
import { LocalStorage } from '../storage/storage.js'

const config = JSON.parse(process.argv[2]!) as ChildConfig
// glibc's threshold the parent set is for this process (and the encoder, which sets it again): not its decoders.
keepMallocSettingToSelf()
// Killed with the service (even by SIGKILL), however busy the main thread is.
watchParent()
// The IPC channel closing is the service leaving normally: so do we, with whatever we started.
process.on('disconnect', () => process.kill(-process.pid, 'SIGKILL'))
const send = (m: ToParent) => process.send!(m)
/** Questions to the parent (AI assets) waiting for its answer. */
const asked = new Map<number, { resolve(value: never): void; reject(e: Error): void }>()
const controllers = new Map<string, AbortController>()
/** Renders waiting for the parent's answer to their plan (it holds credits for it). */
const plannedWaits = new Map<string, { resolve(): void; reject(e: Error): void }>()
/** The stage each render last reported, for a crash outside any known site. */
const stages = new Map<string, RenderProgress['stage']>()
let nextAsk = 0
const plugins = await loadPluginModules(config.pluginModules)

// S3Storage loads the AWS SDK when made (service/lib/aws-s3.ts): only where a bucket is configured.
const storage = config.s3 ? new S3Storage(config.s3) : config.filesDir ? new LocalStorage(config.filesDir) : undefined
const renderer = serviceRenderer({
  cacheDir: config.cacheDir,
  network: config.network,
  files: config.files,
  baseUrl: () => config.baseUrl,
  storage,
  plugins,
  // AI assets are generated (and charged) by the parent, which owns the database — a worker has none: made here.
  ...(config.ai === 'here'
    ? {}
    : {
        generateImage: (request, ctx) => askParent<string>({ type: 'generate', request, path: ctx.path, owner: ctx.owner }),
        runAi: ((task: AiTask, request: AiAsk<AiTask>, ctx: { path: string; owner?: unknown }) =>
          askParent({ type: 'ai', task, request, path: ctx.path, owner: ctx.owner })) as AiRunner,
      }),
})

function askParent<T>(question: DistributiveOmit<Extract<ToParent, { ask: number }>, 'ask'>): Promise<T> {
  return new Promise<T>((resolve, reject) => {
    const ask = nextAsk++
    asked.set(ask, { resolve: resolve as (v: never) => void, reject })
    send({ ...question, ask } as ToParent)
  })
}
type DistributiveOmit<T, K extends PropertyKey> = T extends unknown ? Omit<T, K> : never

process.on('message', async (m: ToChild) => {
  if (m.type === 'abort') return controllers.get(m.id)?.abort(new RenderError('E_CANCELLED', m.reason))
  if (m.type === 'planned') {
    const wait = plannedWaits.get(m.id)
    plannedWaits.delete(m.id)
    if (m.error) wait?.reject(fromShape(m.error))
    else wait?.resolve()
    return
  }
  if (m.type === 'generated' || m.type === 'ai-answer') {
    const waiting = asked.get(m.ask)
    asked.delete(m.ask)
    if (m.error) waiting?.reject(fromShape(m.error))
    else waiting?.resolve((m.type === 'generated' ? m.path : m.answer) as never)
    return
  }
  const controller = new AbortController()
  controllers.set(m.id, controller)
  try {
    // A preview session's exchange: no progress, no plan to approve; a stage so a crash says where it was.
    if (m.type === 'preview') stages.set(m.id, m.op.kind === 'frame' ? 'rendering' : 'fetching')
    const result: RenderResult | PreviewAnswer =
      m.type === 'preview'
        ? await previewOp(renderer, m.op, controller.signal)
        : await renderer.render(m.edit, {
            out: m.out,
            owner: m.owner,
            baseDir: m.baseDir,
            yAxis: m.yAxis,
            cores: m.cores,
            cpuEncoder: m.cpuEncoder,
            signal: controller.signal,
            onProgress: (p) => (stages.set(m.id, p.stage), send({ type: 'progress', id: m.id, progress: p })),
            // The parent decides whether the planned render goes on (it may refuse it: credits).
            onPlanned: m.planned
              ? (planned) => new Promise<void>((resolve, reject) => (plannedWaits.set(m.id, { resolve, reject }), send({ type: 'planned', id: m.id, planned })))
              : undefined,
          })
    send({ type: 'done', id: m.id, result, retiring: displayLost() })
  } catch (e) {
    send({ type: 'failed', id: m.id, error: toShape(e, 'E_INTERNAL'), retiring: displayLost() })
  } finally {
    controllers.delete(m.id)
    stages.delete(m.id)
    // Our X server died under us: leave before Xlib's next request ends this process mid-render.
    if (displayLost()) setImmediate(() => process.exit(0))
  }
})

// An exception nothing caught — thrown from a callback a plugin scheduled (a timer, a process or stream event),
// outside any promise — would end this process with only a stack on stderr ("Node.js v20…" its last line).
// Report it as the failure of the render in progress instead, saying where (stage, clip, plugin) and why, then
// leave: after it this process's state is unknown.
let crashed = false
process.on('uncaughtException', (e) => {
  console.error(e) // the stack, for the server's log
  if (crashed) return
  crashed = true
  const ids = [...controllers.keys()]
  if (!ids.length || !process.connected) return process.exit(1)
  ids.forEach((id, i) => {
    const message = `the render process crashed ${describeCrashSite(crashSite(), stages.get(id))}: ${e instanceof Error ? e.message : String(e)}`
    const failed: ToParent = { type: 'failed', id, error: { code: 'E_RENDERER_CRASHED', message }, retiring: true }
    process.send!(failed, undefined, undefined, i === ids.length - 1 ? () => process.exit(1) : undefined)
  })
})
send({ type: 'ready' })
