import { mkdir } from 'node:fs/promises'
import { join } from 'node:path'
import type { AiAnswer, AiRunner, AiTask, AiTasks } from './ai.js'
import { RenderError } from './errors.js'
import type { AiProviderPlugin } from './plugin.js'
import { callHook } from './plugin-driver.js'
import type { Registry } from './registry.js'

/**
 * The library's runner: the registered `ai` engine of the task serving the model asked for, else the one
 * the user registered (a vendor), else a real local engine (espeak), else a free stand-in (the sandbox video
 * clip) — whose answer says so, and the asset warns. Result files go to the render's `tmpDir`.
 */
export function registryAiRunner(registry: Registry): AiRunner {
  return async <T extends AiTask>(task: T, ask: Parameters<AiRunner>[1], ctx: Parameters<AiRunner>[2]) => {
    const engines = registry.list('ai').filter((p) => p.task === task) as AiProviderPlugin<T>[]
    const real = engines.filter((p) => !p.standIn)
    const engine = ask.model ? engines.find((p) => p.models.includes(ask.model!)) : (real.find((p) => !p.local) ?? real.find((p) => p.local) ?? engines[0])
    if (!engine)
      throw new RenderError(
        'E_PLUGIN_NOT_FOUND',
        `${ctx.path}: no ${task} engine ${ask.model ? `serves model "${ask.model}"` : 'is registered'}; engines: ${engines.map((p) => p.name).join(', ') || '(none)'}`,
        { path: ctx.path },
      )
    const workDir = join(ctx.tmpDir, `ai-${task}`)
    await mkdir(workDir, { recursive: true })
    const request = { ...ask, model: ask.model ?? engine.models[0]! } as AiTasks[T][0]
    const result = await callHook(engine, 'run', ctx.path, () => engine.run(request, { signal: ctx.signal, workDir }))
    return { ...result, standIn: engine.standIn === true } as AiAnswer<T>
  }
}

/** One answer per distinct ask within a render: a caption of a voice-over reuses the voice's words, paid once. */
export function memoAiRunner(runner: AiRunner): AiRunner {
  const asked = new Map<string, Promise<unknown>>()
  return ((task, ask, ctx) => {
    const key = JSON.stringify([task, ask])
    let answer = asked.get(key)
    if (!answer) {
      answer = runner(task, ask, ctx)
      asked.set(key, answer)
      answer.catch(() => asked.delete(key))
    }
    return answer
  }) as AiRunner
}
