import { readFileSync } from 'node:fs'
import type { ProviderPlugin } from '../../core/index.js'
import { automatic1111Provider, type Automatic1111Options } from './automatic1111.js'
import { bflProvider, type BflOptions } from './bfl.js'
import { openaiProvider, type OpenAIOptions } from './openai.js'
import { stabilityProvider, type StabilityOptions } from './stability.js'

/** Provider settings, from a JSON config file (`REELFORGE_CONFIG`) and/or the environment. */
export interface ProvidersConfig {
  openai?: OpenAIOptions
  bfl?: BflOptions
  stability?: StabilityOptions
  automatic1111?: Automatic1111Options
}

/**
 * The configured providers. Environment: `OPENAI_API_KEY` (+ `OPENAI_BASE_URL`, `REELFORGE_DALLE_MODEL`),
 * `BFL_API_KEY` (+ `BFL_BASE_URL`, `REELFORGE_FLUX_MODEL`), `STABILITY_API_KEY` (+ `STABILITY_BASE_URL`,
 * `STABILITY_API` v1|v2beta, `REELFORGE_SD_ENGINE`) or `A1111_BASE_URL` for stable-diffusion on your own
 * server. A file named by `REELFORGE_CONFIG` (`{ "providers": { "openai": {…}, … } }`) takes precedence.
 */
export function providersFromConfig(env: NodeJS.ProcessEnv = process.env): ProviderPlugin[] {
  const file: ProvidersConfig = env.REELFORGE_CONFIG
    ? ((JSON.parse(readFileSync(env.REELFORGE_CONFIG, 'utf8')) as { providers?: ProvidersConfig }).providers ?? {})
    : {}
  const out: ProviderPlugin[] = []
  const openai =
    file.openai ?? (env.OPENAI_API_KEY ? { apiKey: env.OPENAI_API_KEY, baseUrl: env.OPENAI_BASE_URL, model: env.REELFORGE_DALLE_MODEL } : undefined)
  if (openai) out.push(openaiProvider(openai))
  const bfl = file.bfl ?? (env.BFL_API_KEY ? { apiKey: env.BFL_API_KEY, baseUrl: env.BFL_BASE_URL, model: env.REELFORGE_FLUX_MODEL } : undefined)
  if (bfl) out.push(bflProvider(bfl))
  const stability =
    file.stability ??
    (env.STABILITY_API_KEY
      ? {
          apiKey: env.STABILITY_API_KEY,
          baseUrl: env.STABILITY_BASE_URL,
          api: env.STABILITY_API as 'v1' | 'v2beta' | undefined,
          engine: env.REELFORGE_SD_ENGINE,
        }
      : undefined)
  const a1111 = file.automatic1111 ?? (env.A1111_BASE_URL ? { baseUrl: env.A1111_BASE_URL, auth: env.A1111_AUTH } : undefined)
  if (stability) out.push(stabilityProvider(stability))
  else if (a1111) out.push(automatic1111Provider(a1111))
  return out
}
