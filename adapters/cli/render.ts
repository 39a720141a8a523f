import { readFile } from 'node:fs/promises'
import { basename, dirname, extname, join, resolve } from 'node:path'
import type { parseArgs, ParseArgsConfig } from 'node:util'
import { createRenderer, renderSegmented, type RendererOptions } from '../../index.js'
import { crashSite, describeCrashSite, RenderError, type Compositor, type Edit } from '../../core/index.js'
import { mergeRows, parseMerges, rowOutput, UsageError, withMerges, withOutput } from './edit-options.js'
import { parseCommand } from './args.js'
import { parseJson } from './json.js'
import { createProgressPrinter } from './progress.js'
import { reportError } from './report.js'

export { reportError }

const USAGE = `usage: reelforge render <edit.json> [-o <out.mp4>] [--resolution R] [--fps N] [--quality Q] [--format F]
                        [--merge KEY=VALUE]… [--merge-file data.csv|data.json] [--y-axis down|up]
                        [--segments auto|N] [--quiet] [--debug]

-o names the file (its extension must be the format's); without it, out/<edit name>.<format> in this folder.
--resolution, --fps, --quality, --format override the edit's output. --merge fills {{ KEY }} merge fields;
--merge-file renders once per CSV row (or JSON array item): -o may hold {n} or {{ FIELD }}, else -1, -2… are added.
--segments N renders an mp4, webm or mov as N time segments in N processes at once and joins them without
re-encoding; auto (the default) does so on machines with 8 cores or more, one piece per two cores.
--debug prints the stack of an error as well as its message.`

export const OUTPUT_OPTIONS = {
  resolution: { type: 'string' },
  fps: { type: 'string' },
  quality: { type: 'string' },
  format: { type: 'string' },
  merge: { type: 'string', multiple: true },
  'merge-file': { type: 'string' },
  'y-axis': { type: 'string' },
} as const

/** What every command that writes a file takes beside the output overrides. */
const WRITE_OPTIONS = {
  out: { type: 'string', short: 'o' },
  debug: { type: 'boolean' },
  help: { type: 'boolean', short: 'h' },
} as const

type Options = NonNullable<ParseArgsConfig['options']>
type Parsed<O extends Options> = ReturnType<
  typeof parseArgs<{ args: string[]; allowPositionals: true; options: typeof OUTPUT_OPTIONS & typeof WRITE_OPTIONS & O }>
>

/** `<edit.json> [-o <file>]` with the output overrides, `--debug`, `--help` and a command's own `extra` options. */
export function parseWriteCommand<O extends Options>(command: string, argv: string[], extra: O): Parsed<O> {
  return parseCommand(command, { args: argv, allowPositionals: true, options: { ...OUTPUT_OPTIONS, ...WRITE_OPTIONS, ...extra } }) as Parsed<O>
}

/** `reelforge render`: renders an edit file (or one per row of merge data); a bad edit exits 2 naming each issue. */
export async function renderCommand(argv: string[]): Promise<number> {
  const { values, positionals } = parseWriteCommand('render', argv, {
    segments: { type: 'string' },
    quiet: { type: 'boolean', short: 'q' },
  } as const)
  if (values.help || positionals.length !== 1) return (console.error(USAGE), values.help ? 0 : 64)
  const segments = values.segments === undefined || values.segments === 'auto' ? 'auto' : Number(values.segments)
  try {
    if (segments !== 'auto' && !(Number.isInteger(segments) && segments >= 1 && segments <= 64))
      throw new UsageError(`--segments must be auto or a whole number 1–64, not ${values.segments}`)
    const { renderer, edits, file, defaulted } = await loadEdits(positionals[0]!, values, values.out)
    if (defaulted) console.error(`no -o given: writing ${edits.length > 1 ? `${edits[0]!.out} … ${edits.at(-1)!.out}` : defaulted}`)
    const debug = !!values.debug
    for (const { edit, out } of edits) {
      const code = await renderOne(renderer, edit, { out, baseDir: dirname(file), segments, quiet: !!values.quiet, debug })
      if (code !== 0) return code
    }
    return 0
  } catch (e) {
    if (e instanceof UsageError) return (console.error(`error: ${e.message}`), e.exitCode)
    return reportError(e, !!values.debug)
  }
}

/** The output overrides an edit file is read with (`--resolution`, `--merge`…). */
type LoadOptions = { [K in keyof typeof OUTPUT_OPTIONS]?: K extends 'merge' ? string[] : string }

/**
 * The edit file with the command line's overrides, once or once per merge row, each with its output path — which
 * must name the format the edit renders (an mp4 written into `x.png` helps no one). Without `out`, the file is
 * `out/<edit name><suffix>.<format>` in the working folder (`defaulted` then says so, for the command to tell).
 */
export async function loadEdits(path: string, values: LoadOptions, out: string | undefined, o: { suffix?: string; renderer?: RendererOptions } = {}) {
  const file = resolve(path)
  const text = await readFile(file, 'utf8').catch((e: Error) => {
    throw new UsageError(`cannot read ${file}: ${e.message}`, 66)
  })
  let edit = parseJson(text, file) as Edit
  const yAxis = values['y-axis'] ?? 'down'
  if (yAxis !== 'down' && yAxis !== 'up') throw new UsageError(`--y-axis must be down or up, not ${yAxis}`)
  // Your own edit on your own machine: no SSRF guard.
  const renderer = createRenderer({ yAxis, network: { allow: ['*'] }, ...o.renderer })
  edit = withMerges(withOutput(edit, values), parseMerges(values.merge ?? []))
  const format = String((edit.output as { format?: string }).format ?? 'mp4')
  const ext = renderer.registry.find('output', format)?.extension
  const target = out ?? join('out', `${basename(file, extname(file))}${o.suffix ?? ''}.${ext ?? format}`)
  const given = extname(target).slice(1).toLowerCase()
  if (ext && given && given !== ext && !(ext === 'jpg' && given === 'jpeg')) {
    // --format only where it could help: the extension names a format there is.
    const choose = renderer.registry.find('output', given === 'jpeg' ? 'jpg' : given) ? `, or choose the format with --format ${given}` : ''
    throw new UsageError(`-o ${target}: the edit renders ${format}, not ${given} (name the file .${ext}${choose})`)
  }
  const rows = values['merge-file'] ? await mergeRows(values['merge-file']) : undefined
  const edits = rows ? rows.map((row, i) => ({ edit: withMerges(edit, row), out: rowOutput(target, i + 1, row) })) : [{ edit, out: target }]
  return { renderer, edits, file, defaulted: out === undefined ? target : undefined }
}

/** What the render made, as its kind of output says it: a picture has no fps, a sound no frames. */
function made(r: { width: number; height: number; fps: number; duration: number; frames: number; bytes: number }, takes: 'video' | 'still' | 'audio') {
  const mb = `${(r.bytes / 1e6).toFixed(2)} MB`
  if (takes === 'still') return `${r.width}x${r.height} picture, ${mb}`
  if (takes === 'audio') return `${r.duration.toFixed(2)} s of sound, ${mb}`
  return `${r.width}x${r.height} @ ${r.fps} fps, ${r.duration.toFixed(2)} s, ${r.frames} frame${r.frames === 1 ? '' : 's'}, ${mb}`
}

async function renderOne(renderer: Compositor, edit: Edit, o: { out: string; baseDir: string; segments: number | 'auto'; quiet: boolean; debug: boolean }) {
  const controller = new AbortController()
  const onSigint = () => controller.abort()
  process.once('SIGINT', onSigint)
  const progress = createProgressPrinter()
  // An exception thrown from a callback a plugin scheduled, outside any promise: say where and why, not Node's dump.
  const onCrash = (e: unknown) => {
    progress.done()
    const why = e instanceof Error ? e.message : String(e)
    process.exit(
      reportError(new RenderError('E_RENDERER_CRASHED', `the render crashed ${describeCrashSite(crashSite())}: ${why}`, undefined, { cause: e }), o.debug),
    )
  }
  process.on('uncaughtException', onCrash)
  try {
    const common = { out: o.out, baseDir: o.baseDir, signal: controller.signal, onProgress: o.quiet ? undefined : progress.update }
    const result =
      o.segments === 1
        ? await renderer.render(edit, common)
        : await renderSegmented(renderer, edit, { ...common, segments: o.segments, network: { allow: ['*'] } })
    progress.done()
    for (const w of result.warnings) console.error(`warning: ${w.path}: ${w.message}`)
    const speed = result.duration / (result.renderMs / 1000)
    console.log(`${result.path}`)
    console.log(`  ${made(result, renderer.registry.find('output', String(edit.output?.format ?? 'mp4'))?.takes ?? 'video')}`)
    console.log(
      `  rendered in ${(result.renderMs / 1000).toFixed(2)} s (${speed.toFixed(2)}x realtime, ${((result.frames * 1000) / result.renderMs).toFixed(1)} frames/s)`,
    )
    return 0
  } catch (e) {
    progress.done()
    return reportError(e, o.debug)
  } finally {
    process.off('SIGINT', onSigint)
    process.off('uncaughtException', onCrash)
  }
}
