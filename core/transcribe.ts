import { createHash } from 'node:crypto'
import { createReadStream } from 'node:fs'
import { mkdir, readFile, rm, writeFile } from 'node:fs/promises'
import { join } from 'node:path'
import type { TimedWord } from './ai.js'
import { callHook } from './plugin-driver.js'
import type { Registry } from './registry.js'

/** The words spoken in a local media file; undefined when no transcription engine is registered. */
export type Transcriber = (path: string, ctx: { path: string; signal: AbortSignal; tmpDir: string }) => Promise<TimedWord[] | undefined>

const hashOf = (path: string) =>
  new Promise<string>((resolve, reject) => {
    const h = createHash('sha256')
    createReadStream(path)
      .on('data', (c) => h.update(c))
      .on('end', () => resolve(h.digest('hex')))
      .on('error', reject)
  })

/**
 * Transcription for captions of a clip's sound (`alias://` or a media `src`): the registered `ai` provider of
 * the `transcription` task, local engines first (free, offline), cached in `cacheDir` by the file's content
 * hash, so a re-render or the same clip twice transcribes once.
 */
export function registryTranscriber(registry: Registry, cacheDir: string): Transcriber {
  return async (path, ctx) => {
    const engines = registry.list('ai').filter((p) => p.task === 'transcription')
    const engine = engines.find((p) => p.local) ?? engines[0]
    if (!engine) return undefined
    const cached = join(cacheDir, 'transcripts', `${await hashOf(path)}-${engine.name}.json`)
    const hit = await readFile(cached, 'utf8').catch(() => undefined)
    if (hit) return JSON.parse(hit) as TimedWord[]
    const workDir = join(ctx.tmpDir, `transcribe-${Date.now()}`)
    await mkdir(workDir, { recursive: true })
    try {
      const out = await callHook(engine, 'run', ctx.path, () =>
        (engine.run as (r: unknown, c: unknown) => Promise<{ words: TimedWord[] }>)({ path, model: engine.models[0] }, { signal: ctx.signal, workDir }),
      )
      await mkdir(join(cacheDir, 'transcripts'), { recursive: true })
      await writeFile(cached, JSON.stringify(out.words))
      return out.words
    } finally {
      await rm(workDir, { recursive: true, force: true })
    }
  }
}
