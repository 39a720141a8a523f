import { dirname, extname } from 'node:path'
import { frameEdit } from '../../core/index.js'
import { parseCommand } from './args.js'
import { UsageError } from './edit-options.js'
import { loadEdits } from './render.js'
import { reportError } from './report.js'

const USAGE = `usage: reelforge still <edit.json> [-t <seconds>] [-o <frame.png|jpg|bmp>] [--resolution R] [--merge KEY=VALUE]…
                       [--y-axis down|up] [--debug]

One frame of any edit (an mp4 edit too) at time -t (default 0), as the file's extension says: png, jpg or bmp.
Without -o, out/<edit name>-<t>s.png in this folder. Quick to check a layout before rendering the whole video.`

const STILLS = ['png', 'jpg', 'bmp']

/** What `still` takes: the overrides that change a frame (not the encoder's: fps, quality, format). */
const OPTIONS = {
  time: { type: 'string', short: 't' },
  out: { type: 'string', short: 'o' },
  resolution: { type: 'string' },
  merge: { type: 'string', multiple: true },
  'y-axis': { type: 'string' },
  debug: { type: 'boolean' },
  help: { type: 'boolean', short: 'h' },
} as const

/** `reelforge still`: one frame of an edit at a time, as a picture. */
export async function stillCommand(argv: string[]): Promise<number> {
  const { values, positionals } = parseCommand('still', { args: argv, allowPositionals: true, options: OPTIONS })
  if (values.help || positionals.length !== 1) return (console.error(USAGE), values.help ? 0 : 64)
  try {
    const time = Number(values.time ?? 0)
    if (!(time >= 0)) throw new UsageError(`-t must be seconds from the start, not ${values.time}`)
    const ext = values.out === undefined ? 'png' : extname(values.out).slice(1).toLowerCase().replace('jpeg', 'jpg')
    if (!STILLS.includes(ext)) throw new UsageError(`-o ${values.out}: a still is a png, jpg or bmp picture (name the file .png, .jpg or .bmp)`)
    const { renderer, edits, file, defaulted } = await loadEdits(positionals[0]!, { ...values, format: ext }, values.out, { suffix: `-${time}s` })
    const { edit, out } = edits[0]!
    // The planner would draw the last frame for any later time: a time past the end is a slip to say.
    const onPlanned = ({ timelineDuration, fps }: { timelineDuration: number; fps: number }) => {
      const frames = Math.max(1, Math.round(timelineDuration * fps))
      if (Math.round(time * fps) > frames - 1)
        throw new UsageError(
          `-t ${values.time} is past the end of the edit: it lasts ${+timelineDuration.toFixed(3)} s, so its last frame is at -t ${+((frames - 1) / fps).toFixed(3)}`,
        )
    }
    const result = await renderer.render(frameEdit(edit, time, ext), { out, baseDir: dirname(file), onPlanned })
    for (const w of result.warnings) console.error(`warning: ${w.path}: ${w.message}`)
    // Said once the frame is there (a time past the end writes nothing).
    if (defaulted) console.error(`no -o given: writing ${defaulted}`)
    console.log(`${result.path}\n  ${result.width}x${result.height}, the frame at ${time} s`)
    return 0
  } catch (e) {
    if (e instanceof UsageError) return (console.error(`error: ${e.message}`), e.exitCode)
    return reportError(e, !!values.debug)
  }
}
