import { writeFileSync } from 'node:fs'
import { resolve } from 'node:path'
import { passed, runCompat, type CompatResult } from '../compat/runner.js'
import { parseCommand } from './args.js'

const USAGE = `usage: reelforge compat <dir> [--full] [--only a.json,b.json] [--out DIR] [--json report.json]
                        [--y-axis up|down] [--skip-layout]

Renders every Shotstack edit in <dir> offline (remote media replaced by generated stand-ins served on
loopback) and prints, per file: accepted, rendered, expected vs actual duration, the layout check (every
clip with an offset drawn on the side it says), and warnings.
--full renders at each edit's own size and encodes as a real render (default: preview, at most 512 px on the long side, draft encoding).
--y-axis sets the sign of offset.y (default up, Shotstack's; down flips it, and the layout check fails).
--skip-layout leaves out the layout check (a sixth of the run's time or less).`

/** One line per file, its warnings indented below. */
function line(r: CompatResult): string {
  const mark = passed(r) ? 'ok  ' : 'FAIL'
  const time =
    r.expected === undefined
      ? 'still'
      : `expected ${r.expected.toFixed(3)} s, actual ${r.actual?.toFixed(3) ?? '-'} s${r.frameError !== undefined ? ` (${r.frameError.toFixed(1)} frames off)` : ''}`
  const layout = r.layout ? `, layout ${r.layout.checked - r.layout.failed.length}/${r.layout.checked} on their side` : ''
  const head = `${mark} ${r.file}: ${r.accepted ? 'accepted' : 'REJECTED'}, ${r.rendered ? 'rendered' : 'NOT rendered'}, ${r.rendered ? time : ''}${layout} [${(r.ms / 1000).toFixed(1)} s]`
  const point = (p: { x: number; y: number }) => `(${p.x.toFixed(3)}, ${p.y.toFixed(3)})`
  const notes = [
    ...(r.error ? [`  error: ${r.error.split('\n').join('\n    ')}`] : []),
    ...(r.layout?.failed ?? []).map(
      (f) => `  layout: ${f.clip}: offset ${point(f.offset)} but drawn at ${point(f.centroid)}, ${point(f.reference)} without it (+y up)`,
    ),
    ...r.warnings.map((w) => `  warning${w.cause ? ` (${w.cause})` : ' (UNEXPLAINED)'}: ${w.path}: ${w.message}`),
  ]
  return [head, ...notes].join('\n')
}

/** Totals, as docs/shotstack.md quotes them. */
export function summary(results: CompatResult[]): string {
  const n = results.length
  const exact = results.filter((r) => r.rendered && (r.expected === undefined || (r.frameError ?? Infinity) <= 1)).length
  const warned = results.filter((r) => r.warnings.length).length
  const layouts = results.flatMap((r) => (r.layout ? [r.layout] : []))
  const clips = (f: (l: NonNullable<CompatResult['layout']>) => number) => layouts.reduce((s, l) => s + f(l), 0)
  return [
    `${results.filter((r) => r.accepted).length}/${n} accepted, ${results.filter((r) => r.rendered).length}/${n} rendered, ${exact}/${n} durations within one frame`,
    layouts.length
      ? `layout: ${layouts.filter((l) => !l.failed.length).length}/${n} files right; ${clips((l) => l.checked - l.failed.length)}/${clips((l) => l.checked)} offset clips on their side, ${clips((l) => l.skipped.length)} not verifiable`
      : 'layout: not checked',
    `${results.filter(passed).length}/${n} passed`,
    `${results.reduce((s, r) => s + r.warnings.length, 0)} warnings on ${warned} files, ${results.reduce((s, r) => s + r.warnings.filter((w) => !w.cause).length, 0)} unexplained; ${results.reduce((s, r) => s + r.replaced, 0)} sources replaced by stand-ins`,
  ].join('\n')
}

/** `reelforge compat <dir>`: exit 0 only when every file passed (accepted, rendered, timed to a frame, laid out). */
export async function compatCommand(argv: string[]): Promise<number> {
  const { values, positionals } = parseCommand('compat', {
    args: argv,
    allowPositionals: true,
    options: {
      full: { type: 'boolean' },
      only: { type: 'string' },
      out: { type: 'string' },
      json: { type: 'string' },
      'y-axis': { type: 'string' },
      'skip-layout': { type: 'boolean' },
      help: { type: 'boolean', short: 'h' },
    },
  })
  const yAxis = values['y-axis'] ?? 'up'
  if (values.help || positionals.length !== 1 || (yAxis !== 'up' && yAxis !== 'down')) {
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
    yAxis,
    layout: !values['skip-layout'],
    onResult: (r) => console.log(line(r)),
  })
  console.log(`\n${summary(results)}`)
  if (values.json) writeFileSync(values.json, JSON.stringify(results, null, 2))
  return results.every(passed) ? 0 : 1
}
