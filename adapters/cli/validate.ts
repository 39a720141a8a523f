import { parseArgs } from 'node:util'
import { UsageError } from './edit-options.js'
import { loadEdits, OUTPUT_OPTIONS } from './render.js'
import { reportError } from './report.js'

/**
 * `reelforge validate edit.json`: checks the edit as a render would (schema, asset types, names, merge fields,
 * overrides) without fetching or drawing anything. Exit 0 with its warnings, or 2 with every issue and its path.
 */
export async function validateCommand(argv: string[]): Promise<number> {
  const { values, positionals } = parseArgs({ args: argv, allowPositionals: true, options: { ...OUTPUT_OPTIONS, help: { type: 'boolean', short: 'h' } } })
  if (values.help || positionals.length !== 1) {
    console.error('usage: reelforge validate <edit.json> [--merge KEY=VALUE]… [--resolution R] …   exit 0: valid; 2: every issue with its path')
    return values.help ? 0 : 64
  }
  try {
    const { renderer, edits } = await loadEdits(positionals[0]!, values, '')
    let warned = 0
    for (const { edit } of edits) {
      const { edit: valid, warnings } = renderer.validate(edit)
      for (const w of warnings) console.error(`warning: ${w.path}: ${w.message}`), warned++
      const clips = valid.timeline.tracks.reduce((n, t) => n + t.clips.length, 0)
      console.log(`valid: ${valid.timeline.tracks.length} tracks, ${clips} clips, ${valid.output.format}${warned ? `, ${warned} warnings` : ''}`)
    }
    return 0
  } catch (e) {
    if (e instanceof UsageError) return (console.error(`error: ${e.message}`), e.exitCode)
    return reportError(e)
  }
}
