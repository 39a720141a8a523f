import { extname, join } from 'node:path'
import type { AI_TASKS, AiProviderPlugin, AiRunContext, UpscaleRequest } from '../../core/index.js'
import { probe, RenderError, unreadableReason } from '../../core/index.js'
import { toSrt, toVtt } from '../../plugins/lib/text/subtitle-writer.js'
import type { ServiceConfig } from '../config.js'
import type { Storage } from '../storage/storage.js'
import { writeFile } from 'node:fs/promises'
import { localInput } from './inputs.js'
import { videoSize } from './requests.js'
import type { AiJob, AiOutcome } from './store.js'

type Deps = { config: ServiceConfig; storage: Storage }
// biome-ignore lint/suspicious/noExplicitAny: each kind's request, checked by its own schema at submit
type Req = Record<string, any>

/**
 * Runs one job's request on its provider and stores what it made under `<job id>/…`: the request fields
 * become the task's (core/ai.ts), input URLs become local copies, result files go to storage.
 */
export async function runKind(d: Deps, job: AiJob, provider: AiProviderPlugin, ctx: AiRunContext): Promise<AiOutcome> {
  const r = job.request as Req
  const put = async (path: string, name: string) => d.storage.put(`${job.id}/${name}`, path)
  // /v1's own kinds: avatars and images are Create API assets, run by service/create/.
  switch (job.kind as (typeof AI_TASKS)[number]) {
    case 'text': {
      const out = await (provider as AiProviderPlugin<'text'>).run({ prompt: r.prompt, system: r.system, maxTokens: r.max_tokens, model: job.model }, ctx)
      return { text: out.text }
    }
    case 'speech': {
      const req = { text: r.text, voice: r.voice, speed: r.speed, format: r.format ?? 'mp3', model: job.model }
      const out = await (provider as AiProviderPlugin<'speech'>).run(req, ctx)
      return { key: await put(out.path, `${job.id}.${req.format}`), words: out.words, duration: out.duration }
    }
    case 'transcription': {
      const path = await localInput(d, r.src, ctx.workDir, 'input')
      const out = await (provider as AiProviderPlugin<'transcription'>).run({ path, language: r.language, model: job.model }, ctx)
      const files: Record<string, string> = {}
      for (const [ext, text] of [
        ['srt', toSrt(out.words)],
        ['vtt', toVtt(out.words)],
      ] as const) {
        const file = join(ctx.workDir, `${job.id}.${ext}`)
        await writeFile(file, text)
        files[ext] = await put(file, `${job.id}.${ext}`)
      }
      return { files, text: out.text, words: out.words }
    }
    case 'video': {
      const image = r.image ? await localInput(d, r.image, ctx.workDir, 'image') : undefined
      const size = videoSize(r.resolution ?? 'hd', r.aspectRatio ?? '16:9')
      const out = await (provider as AiProviderPlugin<'video'>).run({ prompt: r.prompt, image, duration: r.duration ?? 5, ...size, model: job.model }, ctx)
      return { key: await put(out.path, `${job.id}.mp4`), duration: out.duration }
    }
    case 'upscale': {
      const path = await localInput(d, r.src, ctx.workDir, 'input')
      const req: UpscaleRequest = { path, ...(await upscaleSize(path, r)), model: job.model }
      const out = await (provider as AiProviderPlugin<'upscale'>).run(req, ctx)
      return { key: await put(out.path, `${job.id}${extname(out.path) || '.bin'}`) }
    }
  }
}

/** `target` 4k / 1080 (16:9 boxes, turned for portrait sources) or `scale` × the source's size; default 4k. */
async function upscaleSize(path: string, r: Req): Promise<{ width: number; height: number }> {
  const info = await probe(path).catch((e: Error) => {
    // Named by the src the client gave, not the scratch copy ffprobe read.
    throw new RenderError('E_ASSET_UNREADABLE', `src: ${r.src} is neither an image nor a video (${unreadableReason(e, path)})`, { path: 'src' })
  })
  const video = info.streams.find((s) => s.width && s.height)
  const w = Number(video?.width ?? 0),
    h = Number(video?.height ?? 0)
  if (r.scale) return { width: Math.round((w * r.scale) / 2) * 2, height: Math.round((h * r.scale) / 2) * 2 }
  const [long, short] = r.target === '1080' ? [1920, 1080] : [3840, 2160]
  return h > w ? { width: short, height: long } : { width: long, height: short }
}
