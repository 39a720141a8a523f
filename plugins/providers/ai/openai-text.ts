import { type AiProviderPlugin, defineAiProvider } from '../../../core/index.js'
import { type HttpOptions, moderated, upstreamError } from '../http.js'
import { safeJson } from '../openai.js'
import { openaiClient } from './openai-shared.js'

export interface OpenAITextOptions extends HttpOptions {
  /** Sent as `Authorization: Bearer`. Local servers (Ollama, llama.cpp) need none, so it may be left out. */
  apiKey?: string
  /**
   * Default `https://api.openai.com`. Any OpenAI-compatible server works: Ollama `http://localhost:11434`,
   * vLLM `http://localhost:8000`, llama.cpp `http://localhost:8080`. A trailing `/v1` is accepted too.
   */
  baseUrl?: string
  /** The upstream model sent for every request (e.g. `llama3.2` behind the public `gpt-4o-mini`); default: the public name asked for. */
  model?: string
  /** Public model names it serves (default `gpt-4o-mini`, `gpt-4o`). */
  models?: readonly string[]
}

// Codes vendors use for a prompt refused by moderation: OpenAI (`content_policy_violation`, o-series
// `invalid_prompt`) and Azure OpenAI (`content_filter`, which also answers 400 for a flagged prompt).

/**
 * `text` (script writing) through the Chat Completions API (`POST /v1/chat/completions`): the prompt as the
 * user message after an optional system message. Non-streaming, so one answer holds the whole text.
 */
export function openaiTextProvider(opts: OpenAITextOptions = {}): AiProviderPlugin<'text'> {
  const { post, redact } = openaiClient(opts)
  return defineAiProvider({
    kind: 'ai',
    name: 'openai-text',
    task: 'text',
    models: opts.models ?? ['gpt-4o-mini', 'gpt-4o'],
    async run(req, { signal }) {
      const model = opts.model ?? req.model
      const body = {
        model,
        messages: [...(req.system ? [{ role: 'system', content: req.system }] : []), { role: 'user', content: req.prompt }],
        // `max_tokens` is what Ollama, vLLM and llama.cpp read; OpenAI still accepts it for chat models.
        ...(req.maxTokens !== undefined ? { max_tokens: req.maxTokens } : {}),
      }
      const res = await post('/v1/chat/completions', body, signal)
      const json = safeJson(res.body)
      const choice = (json?.choices as Choice[] | undefined)?.[0]
      // A filtered answer is still HTTP 200: the reason is only in `finish_reason` (or a `refusal`).
      if (choice?.finish_reason === 'content_filter') throw moderated('openai', 'the answer was filtered')
      if (choice?.message?.refusal) throw moderated('openai', redact(choice.message.refusal))
      const text = choice?.message?.content
      if (typeof text !== 'string' || !text.trim()) throw upstreamError('openai', res, 'the answer holds no text')
      return { text: text.trim() }
    },
  })
}

interface Choice {
  finish_reason?: string | null
  message?: { content?: string | null; refusal?: string | null }
}
