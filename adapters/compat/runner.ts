import { readdirSync, readFileSync } from 'node:fs'
import { mkdir } from 'node:fs/promises'
import { createServer, type Server } from 'node:http'
import { createReadStream } from 'node:fs'
import { homedir, tmpdir } from 'node:os'
import { basename, join } from 'node:path'
import { familyKey, probe, RenderError, splitWeightName, type Edit, type Warning } from '../../core/index.js'
import { createRenderer } from '../../index.js'
import { expectedDuration } from './expected.js'
import { fontFor, previewOutput, rewriteSources, unwrap, type Replacement, type ServeStandIn } from './rewrite.js'
import { standIn } from './standins.js'

export interface CompatOptions {
  /** Folder of `.json` edits. */
  dir: string
  /** Only these file names (default: every `.json` in `dir`). */
  files?: string[]
  /** `preview` (default) renders at most 512 px on the long side; `full` at the edit's own size. */
  scale?: 'preview' | 'full'
  /** Where outputs go (default: a temp folder). */
  outDir?: string
  /** Where generated stand-in media are cached between runs. */
  standInDir?: string
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
  ms: number
}

/**
 * Renders every edit in a folder the way a user's existing Shotstack edits would be: the edit as written
 * is validated, its remote media are swapped for generated stand-ins served from a loopback server, it is
 * rendered, and the file's duration is compared with the timeline's.
 */
export async function runCompat(opts: CompatOptions): Promise<CompatResult[]> {
  const files = (opts.files ?? readdirSync(opts.dir).filter((f) => f.endsWith('.json'))).sort()
  const outDir = opts.outDir ?? join(tmpdir(), `reelforge-compat-${process.pid}`)
  const standIns = opts.standInDir ?? join(homedir(), '.cache', 'reelforge', 'compat-standins')
  await mkdir(outDir, { recursive: true })
  const { server, serve } = await standInServer(standIns)
  // The stand-in server is on loopback, so the SSRF guard lets loopback through for this run.
  const renderer = createRenderer({ cacheDir: join(outDir, 'cache'), network: { allow: ['127.0.0.0/8', '::1'] } })
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
    try {
      const valid = renderer.validate(offline).edit
      result.expected = await expectedDuration(valid)
      result.fps = Number((valid.output as { fps?: number }).fps ?? 25)
      const out = join(outDir, `${basename(file, '.json')}.${String((valid.output as { format?: string }).format ?? 'mp4')}`)
      const render = await renderer.render(offline as Edit, { out })
      result.rendered = true
      result.output = render.path
      result.warnings = render.warnings.map((w) => ({ ...w, cause: causeOf(w, replaced) }))
      result.actual = await fileDuration(render.path)
      if (result.expected !== undefined && result.actual !== undefined) result.frameError = Math.abs(result.actual - result.expected) * result.fps
    } catch (e) {
      result.error = message(e)
    }
    return done()
  }
}

/** Warnings the runner expects, by what causes them; anything else is unexplained. */
const LIMITS: [RegExp, string][] = [
  [/merge field .* has no value/, 'template placeholder the file leaves unfilled'],
  [/speech-to-text|music provider|AI video provider|video generation needs|rendered statically/, 'documented limitation: no such service offline'],
]

/** Families Shotstack supplies itself (SHOTSTACK.md §2): a missing one of these is our gap, never the edit's. */
const SHOTSTACK_FONTS = [
  'Arapey',
  'Clear Sans',
  'Didact Gothic',
  'Montserrat',
  'Movlette',
  'NotoEmoji',
  'Open Sans',
  'Permanent Marker',
  'Roboto',
  'Sue Ellen Francisco',
  'Uni Neue',
  'Work Sans',
].map(familyKey)

function causeOf(w: Warning, replaced: Replacement[]): string | undefined {
  const font = /^font "([^"]+)" is not available/.exec(w.message)?.[1]
  if (font) {
    // The edit brought this family as a font file, which the offline run replaced with a built-in one.
    const family = familyKey(splitWeightName(font).family)
    const brought = replaced.some((r) => r.kind === 'font' && familyKey(decodeURIComponent(r.from.split(/[?#]/)[0]!.split('/').pop() ?? '')).startsWith(family))
    if (brought) return "the edit's font file was replaced by a stand-in"
    // Neither the edit (no fonts[] entry) nor Shotstack supplies it: falling back is the right behaviour.
    return SHOTSTACK_FONTS.includes(family) ? undefined : 'the edit names a font that neither it nor Shotstack supplies'
  }
  return LIMITS.find(([re]) => re.test(w.message))?.[1]
}

const message = (e: unknown) => (e instanceof RenderError ? `${e.code}: ${e.message}` : (e as Error).message)

/** Seconds a written file lasts: counted video frames over the rate; a GIF's summed delays; audio's length. */
async function fileDuration(path: string): Promise<number | undefined> {
  const info = await probe(path, { countFrames: !path.endsWith('.gif') })
  const video = info.streams.find((s) => s.type === 'video')
  if (path.endsWith('.gif')) return info.duration
  if (video?.frames && video.fps) return video.frames / video.fps
  return info.streams.find((s) => s.type === 'audio')?.duration ?? info.duration
}

/** A loopback server for the stand-ins; `serve` names one and returns its URL. */
async function standInServer(dir: string): Promise<{ server: Server; serve: ServeStandIn }> {
  const files = new Map<string, () => Promise<string>>()
  const server = createServer((req, res) => {
    const make = files.get(req.url ?? '')
    if (!make) return res.writeHead(404).end()
    make().then(
      (path) => {
        res.writeHead(200, { 'content-type': 'application/octet-stream' })
        createReadStream(path).pipe(res)
      },
      (e: Error) => res.writeHead(500).end(e.message),
    )
  })
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve))
  const port = (server.address() as { port: number }).port
  const serve: ServeStandIn = (kind, ext, from) => {
    const path = kind === 'font' ? `/standin/font/${basename(fontFor(from))}` : `/standin/${kind}.${ext}`
    if (!files.has(path)) {
      let pending: Promise<string> | undefined
      files.set(path, () => (pending ??= kind === 'font' ? Promise.resolve(fontFor(from)) : standIn(dir, kind, ext)))
    }
    return `http://127.0.0.1:${port}${path}`
  }
  return { server, serve }
}
