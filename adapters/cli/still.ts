import { dirname, extname } from 'node:path'
import { frameEdit } from '../../core/index.js'
import { UsageError } from './edit-options.js'
import { loadEdits, parseWriteCommand } from './render.js'
import { reportError } from './report.js'

const USAGE = `usage: reelforge still <edit.json> -t <seconds> -o <frame.png|jpg|bmp> [--resolution R] [--merge KEY=VALUE]…

One frame of any edit (an mp4 edit too) at time -t, as the file's extension says (png by default): quick to
check a layout before rendering the whole video.`

const STILLS = ['png', 'jpg', 'bmp']

/** `reelforge still`: one frame of an edit at a time, as a picture. */
export async function stillCommand(argv: string[]): Promise<number> {
  const { values, positionals } = parseWriteCommand(argv, { time: { type: 'string', short: 't' } } as const)
  if (values.help || positionals.length !== 1 || !values.out) return (console.error(USAGE), values.help ? 0 : 64)
  try {
    const time = Number(values.time ?? 0)
    if (!(time >= 0)) throw new UsageError(`-t must be seconds from the start, not ${values.time}`)
    const ext = extname(values.out).slice(1).toLowerCase().replace('jpeg', 'jpg')
    const format = values.format ?? (STILLS.includes(ext) ? ext : 'png')
    if (!STILLS.includes(format)) throw new UsageError(`a still is png, jpg or bmp, not ${format}`)
    const { renderer, edits, file } = await loadEdits(positionals[0]!, { ...values, format }, values.out)
    const { edit, out } = edits[0]!
    const result = await renderer.render(frameEdit(edit, time, format), { out, baseDir: dirname(file) })
    for (const w of result.warnings) console.error(`warning: ${w.path}: ${w.message}`)
    console.log(`${result.path}\n  ${result.width}x${result.height}, the frame at ${time} s`)
    return 0
  } catch (e) {
    if (e instanceof UsageError) return (console.error(`error: ${e.message}`), e.exitCode)
    return reportError(e, !!values.debug)
  }
}
