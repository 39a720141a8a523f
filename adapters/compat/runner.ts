import { readdirSync, readFileSync } from 'node:fs'
import { mkdir } from 'node:fs/promises'
import { homedir, tmpdir } from 'node:os'
import { basename, join } from 'node:path'
import { probe, RenderError, type Edit, type Warning } from '../../core/index.js'
import { createRenderer } from '../../index.js'
import { expectedDuration } from './expected.js'
import { checkLayout, type LayoutCheck } from './layout.js'
import { createProber } from './probe.js'
import { previewOutput, rewriteSources, unwrap } from './rewrite.js'
import { standInServer } from './server.js'
import { causeOf } from './warnings.js'

export interface CompatOptions {
  /** Folder of `.json` edits. */
  dir: string
  /** Only these file names (default: every `.json` in `dir`). */
  files?: string[]
  /**
   * `preview` (default) renders at most 512 px on the long side, encoded as a draft (`RenderOptions.draft`: the
   * encoder's fastest settings, a larger file of the same frames); `full` at the edit's own size, encoded as usual.
   */
  scale?: 'preview' | 'full'
  /** Frame rate of preview renders (default: the edit's own, else 25): fewer frames for a quicker pass. */
  fps?: number
  /** Where outputs go (default: a temp folder). */
  outDir?: string
  /** Where generated stand-in media are cached between runs. */
  standInDir?: string
  /**
   * Sign of `offset.y` the edits are rendered with. Default `up`: they are Shotstack edits, and Shotstack counts
   * y upwards. `down` (the seed's convention) exists to prove the layout check catches a flipped axis.
   */
  yAxis?: 'up' | 'down'
  /**
   * Probe every clip with an offset for the side it is drawn on (default true). On the 116 real edits it adds ~70–90
   * CPU-s to ~435 (2026-12-07): one still render per probe, two to four a clip.
   */
  layout?: boolean
  /** Write each layout probe's frame as a PNG under `<outDir>/probes/<file>/` (default false). */
  saveProbes?: boolean
  /** Called as each file finishes. */
  onResult?: (result: CompatResult) => void
}

/** A render warning, with why it is expected when the runner knows (undefined: unexplained). */
export interface CompatWarning extends Warning {
  cause?: string
}

export interface CompatResult {
  file: string
  /** The edit, exactly as written, passed validation. */
  accepted: boolean
  /** The edit (remote media replaced by stand-ins) rendered to a file. */
  rendered: boolean
  error?: string
  /** Seconds the output should last (undefined for still formats or when not accepted). */
  expected?: number
  /** Seconds the written file lasts, from ffprobe. */
  actual?: number
  fps?: number
  /** |actual − expected| in frames. */
  frameError?: number
  warnings: CompatWarning[]
  /** How many sources stand-ins replaced. */
  replaced: number
  output?: string
  /** The layout check (absent when it did not run: the option is off, or the edit did not render). */
  layout?: LayoutCheck
  ms: number
}

/** A file passes when it was accepted, rendered, timed to a frame and every offset clip landed on its side. */
export const passed = (r: CompatResult): boolean =>
  r.accepted && r.rendered && !r.error && (r.expected === undefined || (r.frameError ?? Infinity) <= 1) && !r.layout?.failed.length

/**
 * Renders every edit in a folder the way a user's existing Shotstack edits would be: the edit as written
 * is validated, its remote media are swapped for generated stand-ins served from a loopback server, it is
 * rendered, the file's duration is compared with the timeline's, and clips with an offset are probed for the
 * side they are drawn on (`layout.ts`).
 */
export async function runCompat(opts: CompatOptions): Promise<CompatResult[]> {
  const files = (opts.files ?? readdirSync(opts.dir).filter((f) => f.endsWith('.json'))).sort()
  const outDir = opts.outDir ?? join(tmpdir(), `reelforge-compat-${process.pid}`)
  const standIns = opts.standInDir ?? join(homedir(), '.cache', 'reelforge', 'compat-standins')
  await mkdir(outDir, { recursive: true })
  const { server, serve } = await standInServer(standIns)
  // The stand-in server is on loopback, so the SSRF guard lets loopback through for this run.
  const common = { yAxis: opts.yAxis ?? 'up', cacheDir: join(outDir, 'cache'), network: { allow: ['127.0.0.0/8', '::1'] } } as const
  const renderer = createRenderer(common)
  const prober = createProber({ ...common, save: opts.saveProbes })
  const results: CompatResult[] = []
  try {
    for (const file of files) {
      const result = await runOne(file)
      results.push(result)
      opts.onResult?.(result)
    }
  } finally {
    server.closeAllConnections()
    server.close()
  }
  return results

  async function runOne(file: string): Promise<CompatResult> {
    const started = performance.now()
    const result: CompatResult = { file, accepted: false, rendered: false, warnings: [], replaced: 0, ms: 0 }
    const done = () => ((result.ms = Math.round(performance.now() - started)), result)
    let edit: Record<string, unknown>
    try {
      edit = unwrap(JSON.parse(readFileSync(join(opts.dir, file), 'utf8'))) as Record<string, unknown>
      renderer.validate(edit)
      result.accepted = true
    } catch (e) {
      result.error = message(e)
      return done()
    }
    const { edit: offline, replaced } = rewriteSources(edit, serve)
    result.replaced = replaced.length
    if (opts.scale !== 'full') offline.output = previewOutput(offline.output as Record<string, unknown>)
    if (opts.fps) offline.output = { ...(offline.output as Record<string, unknown>), fps: opts.fps }
    try {
      const valid = renderer.validate(offline).edit
      result.expected = await expectedDuration(valid)
      result.fps = Number((valid.output as { fps?: number }).fps ?? 25)
      const out = join(outDir, `${basename(file, '.json')}.${String((valid.output as { format?: string }).format ?? 'mp4')}`)
      const render = await renderer.render(offline as Edit, { out, draft: opts.scale !== 'full' })
      result.rendered = true
      result.output = render.path
      result.warnings = render.warnings.map((w) => ({ ...w, cause: causeOf(w, replaced) }))
      result.actual = await fileDuration(render.path)
      if (result.expected !== undefined && result.actual !== undefined) result.frameError = Math.abs(result.actual - result.expected) * result.fps
      if (opts.layout !== false) result.layout = await checkLayout(prober, offline, valid, join(outDir, 'probes', basename(file, '.json')))
    } catch (e) {
      result.error = message(e)
    }
    return done()
  }
}

const message = (e: unknown) => (e instanceof RenderError ? `${e.code}: ${e.message}` : (e as Error).message)

/** Seconds a written file lasts: counted video packets (one a frame; nothing decoded) over the rate; a GIF's summed delays; audio's length. */
async function fileDuration(path: string): Promise<number | undefined> {
  const info = await probe(path, { countPackets: !path.endsWith('.gif') })
  const video = info.streams.find((s) => s.type === 'video')
  if (path.endsWith('.gif')) return info.duration
  if (video?.frames && video.fps) return video.frames / video.fps
  return info.streams.find((s) => s.type === 'audio')?.duration ?? info.duration
}
