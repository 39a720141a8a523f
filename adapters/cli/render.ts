import { readFile } from 'node:fs/promises'
import { dirname, resolve } from 'node:path'
import { parseArgs } from 'node:util'
import { createRenderer, renderSegmented } from '../../index.js'
import { crashSite, describeCrashSite, RenderError, type Edit } from '../../core/index.js'
import { createProgressPrinter } from './progress.js'

const USAGE = `usage: reelforge render <edit.json> -o <out.mp4> [--y-axis down|up] [--segments auto|N] [--quiet] [--debug]

--segments N renders an mp4, webm or mov as N time segments in N processes at once and joins them without
re-encoding; auto (the default) does so on machines with 8 cores or more, one piece per two cores.
--debug prints the stack of an error as well as its message.`

/** `reelforge render`: renders an edit file; a bad edit exits 2 printing each issue with its path. */
export async function renderCommand(argv: string[]): Promise<number> {
  const { values, positionals } = parseArgs({
    args: argv,
    allowPositionals: true,
    options: {
      out: { type: 'string', short: 'o' },
      'y-axis': { type: 'string' },
      segments: { type: 'string' },
      quiet: { type: 'boolean', short: 'q' },
      debug: { type: 'boolean' },
      help: { type: 'boolean', short: 'h' },
    },
  })
  if (values.help || positionals.length !== 1 || !values.out) {
    console.error(USAGE)
    return values.help ? 0 : 64
  }
  const file = resolve(positionals[0]!)
  let edit: Edit
  try {
    edit = JSON.parse(await readFile(file, 'utf8'))
  } catch (e) {
    console.error(`cannot read ${file}: ${(e as Error).message}`)
    return 66
  }
  const segments = values.segments === undefined || values.segments === 'auto' ? 'auto' : Number(values.segments)
  if (segments !== 'auto' && !(Number.isInteger(segments) && segments >= 1 && segments <= 64)) {
    console.error(`error: --segments must be auto or a whole number 1–64, not ${values.segments}`)
    return 64
  }
  const yAxis = values['y-axis'] === 'up' ? 'up' : 'down'
  const renderer = createRenderer({ yAxis, network: { allow: ['*'] } }) // your own edit on your own machine: no SSRF guard
  const controller = new AbortController()
  const onSigint = () => controller.abort()
  process.once('SIGINT', onSigint)
  const progress = createProgressPrinter()
  const debug = !!values.debug
  // An exception thrown from a callback a plugin scheduled, outside any promise: say where and why, not Node's dump.
  const onCrash = (e: unknown) => {
    progress.done()
    const why = e instanceof Error ? e.message : String(e)
    process.exit(
      reportError(new RenderError('E_RENDERER_CRASHED', `the render crashed ${describeCrashSite(crashSite())}: ${why}`, undefined, { cause: e }), debug),
    )
  }
  process.on('uncaughtException', onCrash)
  try {
    const common = { out: values.out, baseDir: dirname(file), signal: controller.signal, onProgress: values.quiet ? undefined : progress.update }
    const result =
      segments === 1 ? await renderer.render(edit, common) : await renderSegmented(renderer, edit, { ...common, segments, network: { allow: ['*'] } })
    progress.done()
    for (const w of result.warnings) console.error(`warning: ${w.path}: ${w.message}`)
    const speed = result.duration / (result.renderMs / 1000)
    console.log(`${result.path}`)
    console.log(
      `  ${result.width}x${result.height} @ ${result.fps} fps, ${result.duration.toFixed(2)} s, ${result.frames} frames, ${(result.bytes / 1e6).toFixed(2)} MB`,
    )
    console.log(
      `  rendered in ${(result.renderMs / 1000).toFixed(2)} s (${speed.toFixed(2)}x realtime, ${((result.frames * 1000) / result.renderMs).toFixed(1)} frames/s)`,
    )
    return 0
  } catch (e) {
    progress.done()
    return reportError(e, debug)
  } finally {
    process.off('SIGINT', onSigint)
    process.off('uncaughtException', onCrash)
  }
}

/** Prints a failure the way a user can act on it — its message, and its stack only with `debug`; returns the exit code. */
export function reportError(e: unknown, debug = false): number {
  const stack = (err: unknown) => {
    if (!debug) return
    const cause = err instanceof Error ? (err.cause ?? err) : err
    if (cause instanceof Error && cause.stack) console.error(cause.stack)
  }
  if (e instanceof RenderError) {
    if (e.code === 'E_TIMELINE_INVALID' && e.data?.issues) {
      console.error(`error: the edit is invalid (${e.data.issues.length} issue${e.data.issues.length === 1 ? '' : 's'}):`)
      for (const issue of e.data.issues) console.error(`  ${issue.path || '(root)'}: ${issue.message}`)
      return 2
    }
    if (e.code === 'E_CANCELLED') {
      console.error('cancelled')
      return 130
    }
    console.error(`error ${e.code}: ${e.message}`)
    stack(e)
    return 1
  }
  console.error(`error: ${e instanceof Error ? e.message : String(e)}`)
  stack(e)
  return 1
}
