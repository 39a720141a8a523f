import { dirname } from 'node:path'
import { parseCommand } from './args.js'
import { UsageError } from './edit-options.js'
import { probeEdit } from './probe.js'
import { loadEdits, OUTPUT_OPTIONS } from './render.js'
import { reportError } from './report.js'

const USAGE = `usage: reelforge validate <edit.json> [--probe] [--merge KEY=VALUE]… [--resolution R] …

Checks the edit as a render would (schema, asset types, names, merge fields, overrides) without fetching or drawing
anything. --probe also loads every source, decodes its first frame or second of sound, and looks up every font
family (a render would quietly use Open Sans for an unknown one); AI assets are made by the free sandbox engines.
Exit 0: valid; 2: every issue with its path.`

/**
 * `reelforge validate edit.json`: the edit's form and names, and with `--probe` what a render would meet before
 * its first frame. Exit 0 with its warnings, or 2 with every issue and its path.
 */
export async function validateCommand(argv: string[]): Promise<number> {
  const { values, positionals } = parseCommand('validate', {
    args: argv,
    allowPositionals: true,
    options: { ...OUTPUT_OPTIONS, probe: { type: 'boolean' }, help: { type: 'boolean', short: 'h' } },
  })
  if (values.help || positionals.length !== 1) return (console.error(USAGE), values.help ? 0 : 64)
  try {
    // The probe makes AI assets with the sandbox's stand-ins: checking an edit costs no vendor's credits.
    const { renderer, edits, file } = await loadEdits(positionals[0]!, values, undefined, { renderer: values.probe ? { providers: [] } : {} })
    let warned = 0
    for (const { edit } of edits) {
      const { edit: valid, warnings } = renderer.validate(edit)
      for (const w of warnings) console.error(`warning: ${w.path}: ${w.message}`), warned++
      const clips = valid.timeline.tracks.reduce((n, t) => n + t.clips.length, 0)
      const n = (count: number, what: string) => `${count} ${what}${count === 1 ? '' : 's'}`
      const line = `valid: ${n(valid.timeline.tracks.length, 'track')}, ${n(clips, 'clip')}, ${valid.output.format}${warned ? `, ${n(warned, 'warning')}` : ''}`
      if (!values.probe) {
        console.log(line)
        continue
      }
      const { issues, sources, fonts } = await probeEdit(renderer, edit, dirname(file))
      if (issues.length) {
        console.error(`error: the edit does not probe clean (${issues.length} issue${issues.length === 1 ? '' : 's'}):`)
        for (const issue of issues) console.error(`  ${issue.path || '(root)'}: ${issue.message}`)
        return 2
      }
      console.log(`${line}; probed: ${sources} source${sources === 1 ? '' : 's'} read and decoded, ${fonts} font${fonts === 1 ? '' : 's'} found`)
    }
    return 0
  } catch (e) {
    if (e instanceof UsageError) return (console.error(`error: ${e.message}`), e.exitCode)
    return reportError(e)
  }
}
