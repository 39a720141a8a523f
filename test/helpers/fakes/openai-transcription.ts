import { mkdtemp, rm, writeFile } from 'node:fs/promises'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { Response } from 'undici'
import { probe, type Probe, type TimedWord } from '../../../core/index.js'
import { fakeServer, type Recorded, type Scripted } from '../fake-vendors.js'
import { openaiAnswers, openaiError, openaiGate } from './openai-common.js'

// OpenAI's `POST /v1/audio/transcriptions` as it answers: a multipart form in; `verbose_json` (Whisper: words
// without punctuation, segments, `language` as an English name) or `json` (gpt-4o transcribe models, which
// refuse `verbose_json`); errors are `{error: {message, type, param, code}}`, an oversized body a 413.

/** One form field as it arrived: a text value, or a file part's name, type and bytes. */
export type FormField = [name: string, value: string | { filename: string; type: string; bytes: Buffer }]

/** The multipart form of a recorded request, fields in the order they arrived (undici's own parser; its types iterate, Node's global ones do not here). */
export async function formOf(req: Recorded): Promise<FormField[]> {
  const form = await new Response(new Uint8Array(req.body), { headers: { 'content-type': String(req.headers['content-type']) } }).formData()
  const out: FormField[] = []
  for (const [name, v] of form) out.push([name, typeof v === 'string' ? v : { filename: v.name, type: v.type, bytes: Buffer.from(await v.arrayBuffer()) }])
  return out
}

/** Scripted answers for `fake.push(...)`: the failures a client must handle. */
export const transcriptionAnswers = {
  ...openaiAnswers('whisper-1'),
  slow: (ms: number): Scripted => ({ status: 200, json: { text: '' }, delayMs: ms }),
}

const FORMATS = ['flac', 'm4a', 'mp3', 'mp4', 'mpeg', 'mpga', 'oga', 'ogg', 'wav', 'webm']
const unpunctuated = (w: string) => w.replace(/^[^\p{L}\p{N}]+|[^\p{L}\p{N}']+$/gu, '')

/**
 * A fake OpenAI transcription API on 127.0.0.1 that "hears" `speech` (the words the test's audio holds, with
 * their times): it checks the key (401 with the key masked as OpenAI masks it), the body size (413 over
 * `maxBytes`, OpenAI's 25 MB by default), the form as OpenAI validates it (400 naming the parameter), probes
 * the uploaded file (400 when it is not audio), and answers the transcript in the format asked for.
 */
export async function fakeOpenAITranscription(opts: { apiKey?: string; speech: { text: string; words: TimedWord[] }; maxBytes?: number }) {
  const key = opts.apiKey ?? 'sk-test'
  const maxBytes = opts.maxBytes ?? 26_214_400
  /** The uploaded file of each form that reached the transcriber, as ffprobe saw it. */
  const uploads: Probe[] = []
  const server = await fakeServer(async (req: Recorded) => {
    const refused = openaiGate(req, '/v1/audio/transcriptions', key)
    if (refused) return refused
    if (req.body.length > maxBytes)
      return openaiError(413, `Maximum content size limit (${maxBytes}) exceeded (${req.body.length} bytes read)`, 'server_error', null)
    const fields = await formOf(req)
    const one = (name: string) => fields.find(([n]) => n === name)?.[1]
    const file = one('file')
    if (!file || typeof file === 'string') return openaiError(400, "Missing required parameter: 'file'.", 'invalid_request_error', null, 'file')
    const model = one('model')
    if (!['whisper-1', 'gpt-4o-transcribe', 'gpt-4o-mini-transcribe'].includes(String(model)))
      return openaiError(400, `Invalid model: ${model}`, 'invalid_request_error', 'model_not_found', 'model')
    const format = String(one('response_format') ?? 'json')
    const granularities = fields.filter(([n]) => n === 'timestamp_granularities[]').map(([, v]) => v)
    if (model !== 'whisper-1' && format !== 'json' && format !== 'text')
      return openaiError(
        400,
        `response_format '${format}' is not compatible with model '${model}'. Use 'json' or 'text' instead.`,
        'invalid_request_error',
        'unsupported_value',
        'response_format',
      )
    if (granularities.length && format !== 'verbose_json')
      return openaiError(
        400,
        'timestamp_granularities is only supported with response_format verbose_json.',
        'invalid_request_error',
        'invalid_value',
        'timestamp_granularities',
      )
    const ext = /\.([a-z0-9]+)$/i.exec(file.filename)?.[1]?.toLowerCase() ?? ''
    if (!FORMATS.includes(ext))
      return openaiError(400, `Invalid file format. Supported formats: ${JSON.stringify(FORMATS)}`, 'invalid_request_error', 'invalid_value', 'file')
    const info = await probeBytes(file.bytes, ext)
    if (!info?.streams.some((s) => s.type === 'audio'))
      return openaiError(400, 'Audio file might be corrupted or unsupported', 'invalid_request_error', 'invalid_value', 'file')
    uploads.push(info)
    const { text, words } = opts.speech
    if (format !== 'verbose_json')
      return { status: 200, json: { text, usage: { type: 'tokens', input_tokens: 50, output_tokens: words.length, total_tokens: 50 + words.length } } }
    return {
      status: 200,
      json: {
        task: 'transcribe',
        language: 'english',
        duration: info.duration,
        text,
        ...(granularities.includes('word') ? { words: words.map((w) => ({ word: unpunctuated(w.text), start: w.start, end: w.end })) } : {}),
        segments: [
          {
            id: 0,
            seek: 0,
            start: words[0]?.start ?? 0,
            end: words.at(-1)?.end ?? 0,
            text: ` ${text}`,
            tokens: [50364],
            temperature: 0,
            avg_logprob: -0.2,
            compression_ratio: 1.2,
            no_speech_prob: 0.01,
          },
        ],
        usage: { type: 'duration', seconds: Math.ceil(info.duration ?? 0) },
      },
    }
  })
  return Object.assign(server, { uploads })
}

/** ffprobe of uploaded bytes (written to a scratch file under the name's extension), or undefined when unreadable. */
async function probeBytes(bytes: Buffer, ext: string): Promise<Probe | undefined> {
  const dir = await mkdtemp(join(tmpdir(), 'fake-transcription-'))
  try {
    await writeFile(join(dir, `upload.${ext}`), bytes)
    return await probe(join(dir, `upload.${ext}`)).catch(() => undefined)
  } finally {
    await rm(dir, { recursive: true, force: true })
  }
}
