import { fakeServer, type Recorded, type Scripted } from '../fake-vendors.js'
import { openaiAnswers, openaiError, openaiGate } from './openai-common.js'

// OpenAI's wire shapes for Chat Completions, as the API answers them (non-streaming), so the real client is
// tested against what it will meet: the same answer and error bodies, the same statuses and headers.

/** A `chat.completion` body holding one choice. */
export function chatCompletion(content: string | null, opts: { model?: string; finishReason?: string; refusal?: string | null } = {}) {
  const words = (s: string | null) => (s ? s.split(/\s+/).filter(Boolean).length : 0)
  return {
    id: 'chatcmpl-fake0001',
    object: 'chat.completion',
    created: 1700000000,
    model: opts.model ?? 'gpt-4o-mini-2024-07-18',
    choices: [
      {
        index: 0,
        message: { role: 'assistant', content, refusal: opts.refusal ?? null, annotations: [] },
        logprobs: null,
        finish_reason: opts.finishReason ?? 'stop',
      },
    ],
    usage: { prompt_tokens: 12, completion_tokens: words(content), total_tokens: 12 + words(content) },
    system_fingerprint: 'fp_fake',
  }
}

/** Scripted answers for `fake.push(...)`: the failures the client must handle. */
export const chatAnswers = {
  ...openaiAnswers('gpt-4o-mini'),
  /** An answer stopped by the content filter: HTTP 200, no text, `finish_reason: content_filter`. */
  contentFilter: (): Scripted => ({ status: 200, json: chatCompletion(null, { finishReason: 'content_filter' }) }),
  /** A correct answer that arrives after `ms`. */
  slow: (ms: number, content = 'late'): Scripted => ({ status: 200, json: chatCompletion(content), delayMs: ms }),
}

/**
 * A fake `POST /v1/chat/completions` on 127.0.0.1. Checks the Bearer key (401 `invalid_api_key` with the key
 * masked the way OpenAI masks it) and the body (400 naming the field); answers `reply(body)` (default: the
 * user message echoed back). Requests are recorded in `requests`; `push` scripts the next answers.
 */
export async function fakeOpenAIChat(opts: { apiKey?: string | null; reply?: (body: any) => string } = {}) {
  const key = opts.apiKey === undefined ? 'sk-test' : opts.apiKey
  return fakeServer((req: Recorded) => {
    const refused = openaiGate(req, '/v1/chat/completions', key)
    if (refused) return refused
    const body = req.json
    if (typeof body?.model !== 'string') return openaiError(400, 'you must provide a model parameter', 'invalid_request_error', null)
    if (!Array.isArray(body.messages) || body.messages.length === 0)
      return openaiError(400, "Invalid 'messages': empty array. Expected an array with minimum length 1.", 'invalid_request_error', 'empty_array')
    const user = body.messages.findLast((m: { role: string }) => m.role === 'user')?.content ?? ''
    return { status: 200, json: chatCompletion(opts.reply ? opts.reply(body) : `echo: ${user}`, { model: body.model }) }
  })
}
