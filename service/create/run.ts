import { writeFile } from 'node:fs/promises'
import { extname, join } from 'node:path'
import { type AiProviderPlugin, type AiRunContext, probe } from '../../core/index.js'
import { localInput } from '../ai/inputs.js'
import type { AiOutcome } from '../ai/store.js'
import type { CreateDeps, Engine } from './engine.js'
import type { CreateRequest } from './request.js'

/** Shotstack's image-to-video sizes: a landscape, portrait or square start image gives that clip. */
const VIDEO_SIZES = { landscape: { width: 1024, height: 576 }, portrait: { width: 576, height: 1024 }, square: { width: 768, height: 768 } }
/** Shotstack's image-to-video makes a 4-second clip. */
const VIDEO_SECONDS = 4

/**
 * Makes one asset on its engine and stores the file at `<id>/<id>.<ext>`: speech as mp3, text as a UTF-8 .txt
 * (Shotstack's text generator answers a file too), a picture as png, video and avatars as mp4.
 */
export async function makeAsset(d: CreateDeps, id: string, req: CreateRequest, engine: Engine, ctx: AiRunContext): Promise<AiOutcome> {
  const put = (path: string) => d.storage.put(`${id}/${id}${extname(path)}`, path)
  const { model } = engine
  if (engine.kind === 'image') {
    const o = req.options as { prompt: string; width: number; height: number; steps?: number; seed?: number; cfgScale?: number; stylePreset?: string }
    const vendor = req.provider === 'stability-ai' ? req.options : undefined
    const image = await engine.image.generate(
      {
        prompt: o.prompt,
        model,
        width: o.width,
        height: o.height,
        // Stability's seed 0 means "random", as no seed does.
        ...(vendor
          ? { steps: vendor.steps, seed: vendor.seed || undefined, guidance: vendor.cfgScale, preset: vendor.stylePreset, engine: vendor.engine }
          : {}),
      },
      { signal: ctx.signal },
    )
    const file = join(ctx.workDir, `${id}.png`)
    await writeFile(file, image.data)
    return { key: await put(file) }
  }
  const run = <R>(request: unknown) => (engine.ai as AiProviderPlugin).run(request as never, ctx) as Promise<R>
  switch (req.type) {
    case 'text-generator': {
      const system = req.provider === 'openai' ? req.options.systemPrompt : undefined
      const out = await run<{ text: string }>({ prompt: req.options.prompt, system, model })
      const file = join(ctx.workDir, `${id}.txt`)
      await writeFile(file, out.text)
      return { key: await put(file), text: out.text }
    }
    case 'text-to-speech': {
      const language = req.provider === 'shotstack' ? req.options.language : undefined
      const out = await run<{ path: string; words: AiOutcome['words']; duration: number }>({
        text: req.options.text,
        voice: req.options.voice,
        language,
        format: 'mp3',
        model,
      })
      return { key: await put(out.path), words: out.words, duration: out.duration }
    }
    case 'image-to-video': {
      const image = await localInput(d, req.options.imageUrl, ctx.workDir, 'image')
      const picture = (await probe(image, { signal: ctx.signal })).streams.find((s) => s.width && s.height)
      const w = picture?.width ?? 1,
        h = picture?.height ?? 1
      const size = VIDEO_SIZES[w > h ? 'landscape' : h > w ? 'portrait' : 'square']
      const out = await run<{ path: string; duration: number }>({ image, duration: VIDEO_SECONDS, ...size, model })
      return { key: await put(out.path), duration: out.duration }
    }
    case 'text-to-avatar': {
      const o = req.options as {
        text: string
        avatar: string
        voice?: string
        background?: string
        avatarStyle?: 'normal' | 'circle'
        ratio?: '16:9' | '9:16'
        test?: boolean
      }
      const out = await run<{ path: string; duration: number }>({
        text: o.text,
        avatar: o.avatar,
        voice: o.voice,
        background: o.background,
        style: o.avatarStyle,
        aspectRatio: o.ratio,
        test: o.test,
        model,
      })
      return { key: await put(out.path), duration: out.duration }
    }
  }
  throw new Error(`no engine runs ${req.provider}/${req.type}`)
}
