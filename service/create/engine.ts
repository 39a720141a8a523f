import type { AiProviderPlugin, AiTask, ProviderPlugin } from '../../core/index.js'
import { sandboxProvider } from '../../plugins/index.js'
import type { Principal } from '../accounts/keys.js'
import { chooseProvider } from '../ai/choose.js'
import type { AiJobDeps } from '../ai/jobs.js'
import type { AiJobKind } from '../ai/store.js'
import { ServiceError } from '../errors.js'
import type { CreateRequest } from './request.js'

/** What the Create API runs on, beside the AI jobs' own collaborators: the image providers. */
export type CreateDeps = AiJobDeps & { imageProviders: readonly ProviderPlugin[] }

/** The engine one asset runs on: an AI task's provider, or an image provider; its model and its price. */
export type Engine =
  | { kind: AiTask; ai: AiProviderPlugin; model: string; price: number }
  | { kind: 'image'; image: ProviderPlugin; model: string; price: number }

/** Each (provider, type) as the task it is, and for live keys the vendor plugin and the variable that configures it. */
const ROUTES: Record<string, { kind: AiJobKind; vendor?: { plugin: string; env: string } }> = {
  'shotstack/text-to-speech': { kind: 'speech' },
  'shotstack/text-to-image': { kind: 'image' },
  'shotstack/image-to-video': { kind: 'video' },
  'shotstack/text-generator': { kind: 'text' },
  'elevenlabs/text-to-speech': { kind: 'speech', vendor: { plugin: 'elevenlabs-speech', env: 'ELEVENLABS_API_KEY' } },
  'openai/text-generator': { kind: 'text', vendor: { plugin: 'openai-text', env: 'OPENAI_API_KEY' } },
  'stability-ai/text-to-image': { kind: 'image', vendor: { plugin: 'stability', env: 'STABILITY_API_KEY' } },
  'd-id/text-to-avatar': { kind: 'avatar', vendor: { plugin: 'did-avatar', env: 'DID_API_KEY' } },
  'heygen/text-to-avatar': { kind: 'avatar', vendor: { plugin: 'heygen-avatar', env: 'HEYGEN_API_KEY' } },
}

/**
 * The engine for an asset. Sandbox keys: the local engines, free (espeak speech, the sandbox text, picture, video
 * and avatar). Live keys: the vendor the request names, as configured here (a 422 saying which variable to set
 * when it is not), or for Shotstack's own services what `/v1`'s AI jobs choose with no model named — and for its
 * pictures, the first configured image vendor, else the sandbox picture (free, as `/v1/ai/image` does). Live work
 * costs what `/v1` charges: the price table's `ai` entry for the task, `images` for the picture's model.
 */
export function chooseEngine(d: CreateDeps, p: Principal, req: CreateRequest): Engine {
  const route = ROUTES[`${req.provider}/${req.type}`]!
  if (route.kind === 'image') {
    const vendor = p.sandbox ? undefined : route.vendor ? named(d.imageProviders, route.vendor, req.provider) : d.imageProviders[0]
    const image = vendor ?? sandboxProvider
    const model = vendor ? vendor.models[0]! : 'sandbox'
    return { kind: 'image', image, model, price: vendor ? (d.pricing.images[model] ?? 0) : 0 }
  }
  const kind = route.kind
  const price = p.sandbox ? 0 : (d.pricing.ai[kind] ?? 0)
  if (p.sandbox || !route.vendor) {
    const { provider, model } = chooseProvider(d.providers, p, kind, undefined, { standIn: p.sandbox })
    return { kind, ai: provider, model, price }
  }
  const ai = named(d.providers, route.vendor, req.provider)
  const model = req.provider === 'openai' ? req.options.model : ai.models[0]!
  return { kind, ai, model, price }
}

/** The configured plugin of that name, or a 422 saying what to set. */
function named<T extends { name: string }>(plugins: readonly T[], vendor: { plugin: string; env: string }, provider: string): T {
  const found = plugins.find((x) => x.name === vendor.plugin)
  if (!found)
    throw new ServiceError('E_LIMIT_EXCEEDED', `provider ${provider} is not configured on this server; set ${vendor.env}`, {
      issues: [{ path: 'provider', message: `is not configured on this server; set ${vendor.env}` }],
    })
  return found
}
