import { mkdir, writeFile } from 'node:fs/promises'
import { dirname, extname } from 'node:path'
import { createRenderer } from '../../index.js'
import type { AiAsk, AiProviderPlugin } from '../../core/index.js'
import { aiProvidersFromConfig } from '../../plugins/index.js'
import { storyboard, type StoryboardRequest } from '../../plugins/lib/story/storyboard.js'
import { createProgressPrinter } from './progress.js'
import { reportError } from './report.js'
import { parseCommand } from './args.js'

const USAGE = `usage: reelforge story "<prompt>" -o <out.mp4|.webm|.mov|.gif> [--duration 20] [--aspect 16:9|9:16|1:1|4:5]
                       [--voice NAME] [--style WORDS] [--resolution preview|mobile|sd|hd|1080] [--edit story.json]

Writes a script from the prompt, voices it, illustrates and captions every scene, and renders the video. With no
keys it is offline and free (the sandbox script, espeak-ng, sandbox pictures); OPENAI_API_KEY (or
OPENAI_TEXT_BASE_URL for a local model server) writes the script with a real model. --edit saves the edit.`

const ASPECTS = ['16:9', '9:16', '1:1', '4:5'] as const
const RESOLUTIONS = ['preview', 'mobile', 'sd', 'hd', '1080'] as const
/** What a story can be: a video format, chosen by -o's extension (mp4 without one). */
const FORMATS = ['mp4', 'webm', 'mov', 'gif'] as const

/** `reelforge story`: prompt to a narrated, captioned video. */
export async function storyCommand(argv: string[]): Promise<number> {
  const { values, positionals } = parseCommand('story', {
    args: argv,
    allowPositionals: true,
    options: {
      out: { type: 'string', short: 'o' },
      duration: { type: 'string' },
      aspect: { type: 'string' },
      voice: { type: 'string' },
      style: { type: 'string' },
      resolution: { type: 'string' },
      edit: { type: 'string' },
      quiet: { type: 'boolean', short: 'q' },
      help: { type: 'boolean', short: 'h' },
    },
  })
  if (values.help || positionals.length !== 1 || !values.out) return (console.error(USAGE), values.help ? 0 : 64)
  const duration = values.duration === undefined ? 20 : Number(values.duration)
  const format = extname(values.out).slice(1).toLowerCase() || 'mp4'
  const bad = [
    !positionals[0]!.trim() && 'the prompt must not be empty',
    !FORMATS.includes(format as never) && `-o ${values.out}: a story is a video: name the file .mp4, .webm, .mov or .gif`,
    !(duration >= 3 && duration <= 300) && `--duration must be 3–300 seconds, not ${values.duration}`,
    values.aspect && !ASPECTS.includes(values.aspect as never) && `--aspect must be one of ${ASPECTS.join(', ')}`,
    values.resolution && !RESOLUTIONS.includes(values.resolution as never) && `--resolution must be one of ${RESOLUTIONS.join(', ')}`,
  ].filter(Boolean)
  if (bad.length) return (bad.forEach((b) => console.error(`error: ${b}`)), 64)
  const request = {
    prompt: positionals[0]!,
    duration,
    aspectRatio: values.aspect,
    voice: values.voice,
    style: values.style,
    resolution: values.resolution,
  } as StoryboardRequest
  try {
    const board = await storyboard(request, scriptWriter())
    console.error(`${board.title}\n${board.scenes.map((s, i) => `  ${i + 1}. ${s}`).join('\n')}`)
    const edit = { ...board.edit, output: { ...board.edit.output, format: format as 'mp4' } }
    // Its folder made, as -o's is.
    if (values.edit) await mkdir(dirname(values.edit), { recursive: true }).then(() => writeFile(values.edit!, `${JSON.stringify(edit, null, 2)}\n`))
    const progress = createProgressPrinter()
    const result = await createRenderer().render(edit, { out: values.out, onProgress: values.quiet ? undefined : progress.update })
    progress.done()
    for (const w of result.warnings) if (!/sandbox/.test(w.message)) console.error(`warning: ${w.path}: ${w.message}`)
    console.log(`${result.path}\n  ${result.width}x${result.height}, ${result.duration.toFixed(2)} s, ${board.scenes.length} scenes`)
    return 0
  } catch (e) {
    return reportError(e)
  }
}

/** A configured text model (OPENAI_API_KEY, OPENAI_TEXT_BASE_URL), else the sandbox's deterministic script. */
function scriptWriter() {
  const engines = aiProvidersFromConfig(process.env).filter((p): p is AiProviderPlugin<'text'> => p.task === 'text')
  const engine = engines.find((p) => !p.standIn) ?? engines[0]!
  return async (ask: AiAsk<'text'>) => ({
    ...(await engine.run({ ...ask, model: engine.models[0]! }, { signal: new AbortController().signal, workDir: process.cwd() })),
    standIn: engine.standIn === true,
  })
}
