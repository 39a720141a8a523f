import type { AiProviderPlugin, AiTask } from '../../core/index.js'
import type { Principal } from '../accounts/keys.js'
import { ServiceError } from '../errors.js'

/** The model a kind uses when the request names none (a vendor's; a local engine stands in when none is configured). */
export const DEFAULT_AI_MODELS: Record<AiTask, string> = {
  text: 'gpt-4o-mini',
  speech: 'tts-1',
  transcription: 'whisper-1',
  video: 'gen4_turbo',
  upscale: 'lanczos',
  avatar: 'd-id-clips',
}

/** What to do for each kind, said when a live key asks for something nobody serves (the variables docs name). */
const CONFIGURE: Record<AiTask, string> = {
  text: 'configure OPENAI_API_KEY, or OPENAI_TEXT_BASE_URL for an OpenAI-compatible server such as Ollama',
  speech: 'configure OPENAI_API_KEY or ELEVENLABS_API_KEY',
  transcription: 'configure OPENAI_API_KEY, or OPENAI_TRANSCRIPTION_BASE_URL for a local Whisper server',
  video: 'configure RUNWAYML_API_SECRET or LUMAAI_API_KEY',
  // Upscaling needs no configuration (its local engine is always there): only a model name can miss.
  upscale: 'name a model it offers, or none',
  avatar: 'configure DID_API_KEY or HEYGEN_API_KEY',
}

/**
 * The provider and model for a request. Sandbox keys always get a local engine (one serving the model, else the
 * kind's first), free. Live keys get a real engine — never a stand-in — serving the model named, or for no
 * model the kind's default when configured, else the first real local engine of the kind; otherwise a 422 that
 * says what to configure — or, with `standIn` (a render's asset: one clip must not fail a whole render), the
 * kind's free stand-in.
 */
export function chooseProvider(
  providers: readonly AiProviderPlugin[],
  p: Principal,
  kind: AiTask,
  model?: string,
  opts: { standIn?: boolean } = {},
): { provider: AiProviderPlugin; model: string } {
  const ofKind = providers.filter((x) => x.task === kind)
  const serving = (m: string, list: readonly AiProviderPlugin[]) => list.find((x) => x.models.includes(m))
  if (p.sandbox) {
    const local = ofKind.filter((x) => x.local)
    const provider = (model && serving(model, local)) || local[0] || (opts.standIn ? ofKind.find((x) => x.standIn) : undefined)
    if (!provider) throw new ServiceError('E_LIMIT_EXCEEDED', `no local ${kind} engine is registered on this server`)
    return { provider, model: model ?? provider.models[0]! }
  }
  const real = ofKind.filter((x) => !x.standIn)
  if (model) {
    const provider = serving(model, real)
    if (provider) return { provider, model }
    const offered = [...new Set(real.flatMap((x) => x.models))]
    throw new ServiceError(
      'E_LIMIT_EXCEEDED',
      `no ${kind} provider serves model "${model}" here${offered.length ? ` (available: ${offered.join(', ')})` : ''}; ${CONFIGURE[kind]}`,
      { issues: [{ path: 'model', message: `is not served here; ${CONFIGURE[kind]}` }] },
    )
  }
  const byDefault = serving(DEFAULT_AI_MODELS[kind], real)
  if (byDefault) return { provider: byDefault, model: DEFAULT_AI_MODELS[kind] }
  const local = real.find((x) => x.local) ?? (opts.standIn ? ofKind.find((x) => x.standIn) : undefined)
  if (local) return { provider: local, model: local.models[0]! }
  throw new ServiceError('E_LIMIT_EXCEEDED', `no ${kind} provider is configured on this server; ${CONFIGURE[kind]}`)
}
