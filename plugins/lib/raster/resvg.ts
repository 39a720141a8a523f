import { fork, type ChildProcess } from 'node:child_process'
import { existsSync } from 'node:fs'
import { fileURLToPath } from 'node:url'

/** Thrown when the rasteriser process died on an input (the renderer itself carries on). */
export class RasteriserCrash extends Error {}

interface Pending {
  resolve(value: { width: number; height: number; pixels?: Uint8Array }): void
  reject(error: Error): void
}

let child: ChildProcess | undefined
/** Resolves once the child listens; requests wait for it. */
let ready: Promise<void> = Promise.resolve()
let stderr = ''
let nextId = 0
const pending = new Map<number, Pending>()
/** Idle this long, the child exits: it holds ~70 MB, and a render rasterises its titles once, near the start. */
const IDLE_EXIT_MS = 1000
let idleTimer: NodeJS.Timeout | undefined

/** The rasteriser process, started on first use and restarted after a crash. Idle, it never holds the process open. */
function rasteriser(): ChildProcess {
  if (child) return child
  const js = fileURLToPath(new URL('./resvg-child.js', import.meta.url))
  // From source (tsx) there is only the .ts file; fork inherits the TypeScript loader from execArgv.
  const entry = existsSync(js) ? js : js.replace(/\.js$/, '.ts')
  const started = fork(entry, [], { serialization: 'advanced', stdio: ['ignore', 'ignore', 'pipe', 'ipc'] })
  stderr = ''
  started.stderr!.on('data', (d: Buffer) => (stderr = (stderr + d.toString()).slice(-2000)))
  let listening!: () => void
  ready = new Promise<void>((resolve) => (listening = resolve))
  started.on('message', (m: { ready?: true; id: number; error?: string; width: number; height: number; pixels?: Uint8Array }) => {
    if (m.ready) return listening()
    const p = pending.get(m.id)
    if (!p) return
    pending.delete(m.id)
    if (m.error) p.reject(new Error(m.error))
    else p.resolve(m)
    idle()
  })
  started.on('exit', (code, signal) => {
    listening()
    // Retired while idle: whatever is pending now was sent to its successor.
    if (child !== started) return
    child = undefined
    const reason = /panicked at [^\n]*\n([^\n]*)/.exec(stderr)?.[1]?.trim() ?? `exit ${signal ?? code}`
    for (const [id, p] of pending) {
      pending.delete(id)
      p.reject(new RasteriserCrash(`the SVG rasteriser crashed on this input (${reason})`))
    }
  })
  child = started
  idle()
  return started
}

/** Lets the process exit while nothing is being rasterised, and stops the child after a while idle. */
function idle() {
  clearTimeout(idleTimer)
  if (!child) return
  // The IPC channel and the stderr pipe are handles of their own: each must follow the child.
  const handles = [child.channel, child.stderr] as ({ ref?(): void; unref?(): void } | null | undefined)[]
  if (pending.size) {
    child.ref()
    handles.forEach((h) => h?.ref?.())
  } else {
    child.unref()
    handles.forEach((h) => h?.unref?.())
    const idleChild = child
    idleTimer = setTimeout(() => {
      if (child === idleChild && !pending.size) (child = undefined), idleChild.kill()
    }, IDLE_EXIT_MS).unref()
  }
}

/** The rasteriser child's pid while it runs (tests). */
export const rasteriserPid = (): number | undefined => child?.pid

function ask(svg: string, width?: number): Promise<{ width: number; height: number; pixels?: Uint8Array }> {
  const proc = rasteriser()
  const id = nextId++
  return new Promise((resolve, reject) => {
    pending.set(id, { resolve, reject })
    idle()
    ready.then(() => (proc.connected ? proc.send({ id, svg, width }) : undefined))
  })
}

/** The SVG's intrinsic size (width/height, else its viewBox); rejects with the parser's message. */
export async function svgSize(svg: string): Promise<{ width: number; height: number }> {
  const { width, height } = await ask(svg)
  return { width, height }
}

/**
 * Rasterises `svg` to exactly `need` pixels (premultiplied RGBA). resvg keeps the aspect ratio at
 * `need.width`; a non-uniform `need` (a `cover` fit stretches) is met by nearest-row resampling.
 */
export async function rasteriseSvg(svg: string, need: { width: number; height: number }): Promise<Uint8Array> {
  const r = await ask(svg, need.width)
  return r.height === need.height ? r.pixels! : resizeRows(r.pixels!, r.width, r.height, need)
}

function resizeRows(src: Uint8Array, width: number, height: number, need: { width: number; height: number }): Uint8Array {
  const out = new Uint8Array(need.width * need.height * 4)
  for (let y = 0; y < need.height; y++) {
    const sy = Math.min(height - 1, Math.floor((y * height) / need.height))
    out.set(src.subarray(sy * width * 4, sy * width * 4 + Math.min(width, need.width) * 4), y * need.width * 4)
  }
  return out
}
