import { writeFileSync } from 'node:fs'
import { resolve } from 'node:path'
import { parseArgs } from 'node:util'
import { runCompat, type CompatResult } from '../compat/runner.js'

const USAGE = `usage: reelforge compat <dir> [--full] [--only a.json,b.json] [--out DIR] [--json report.json]

Renders every Shotstack edit in <dir> offline (remote media replaced by generated stand-ins served on
loopback) and prints, per file: accepted, rendered, expected vs actual duration, and warnings.
--full renders at each edit's own size (default: preview, at most 512 px on the long side).`

/** One line per file, its warnings indented below. */
function line(r: CompatResult): string {
  const mark = r.accepted && r.rendered && (r.frameError ?? 0) <= 1 ? 'ok  ' : 'FAIL'
  const time =
    r.expected === undefined
      ? 'still'
      : `expected ${r.expected.toFixed(3)} s, actual ${r.actual?.toFixed(3) ?? '-'} s${r.frameError !== undefined ? ` (${r.frameError.toFixed(1)} frames off)` : ''}`
  const head = `${mark} ${r.file}: ${r.accepted ? 'accepted' : 'REJECTED'}, ${r.rendered ? 'rendered' : 'NOT rendered'}, ${r.rendered ? time : ''} [${(r.ms / 1000).toFixed(1)} s]`
  const notes = [
    ...(r.error ? [`  error: ${r.error.split('\n').join('\n    ')}`] : []),
    ...r.warnings.map((w) => `  warning${w.cause ? ` (${w.cause})` : ' (UNEXPLAINED)'}: ${w.path}: ${w.message}`),
  ]
  return [head, ...notes].join('\n')
}

/** Totals, as README quotes them. */
export function summary(results: CompatResult[]): string {
  const n = results.length
  const exact = results.filter((r) => r.rendered && (r.expected === undefined || (r.frameError ?? Infinity) <= 1)).length
  const warned = results.filter((r) => r.warnings.length).length
  return [
    `${results.filter((r) => r.accepted).length}/${n} accepted, ${results.filter((r) => r.rendered).length}/${n} rendered, ${exact}/${n} durations within one frame`,
    `${results.reduce((s, r) => s + r.warnings.length, 0)} warnings on ${warned} files, ${results.reduce((s, r) => s + r.warnings.filter((w) => !w.cause).length, 0)} unexplained; ${results.reduce((s, r) => s + r.replaced, 0)} sources replaced by stand-ins`,
  ].join('\n')
}

/** `reelforge compat <dir>`: exit 0 only when every file was accepted, rendered and timed to a frame. */
export async function compatCommand(argv: string[]): Promise<number> {
  const { values, positionals } = parseArgs({
    args: argv,
    allowPositionals: true,
    options: { full: { type: 'boolean' }, only: { type: 'string' }, out: { type: 'string' }, json: { type: 'string' }, help: { type: 'boolean', short: 'h' } },
  })
  if (values.help || positionals.length !== 1) {
    console.error(USAGE)
    return values.help ? 0 : 64
  }
  const results = await runCompat({
    dir: resolve(positionals[0]!),
    files: values.only
      ?.split(',')
      .map((s) => s.trim())
      .filter(Boolean),
    scale: values.full ? 'full' : 'preview',
    outDir: values.out ? resolve(values.out) : undefined,
    onResult: (r) => console.log(line(r)),
  })
  console.log(`\n${summary(results)}`)
  if (values.json) writeFileSync(values.json, JSON.stringify(results, null, 2))
  return results.every((r) => r.accepted && r.rendered && (r.expected === undefined || (r.frameError ?? Infinity) <= 1)) ? 0 : 1
}
