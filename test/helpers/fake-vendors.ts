import { createServer, type IncomingHttpHeaders, type Server } from 'node:http'
import { createCanvas } from '@napi-rs/canvas'

/** One recorded request to a fake vendor. */
export interface Recorded {
  method: string
  path: string
  headers: IncomingHttpHeaders
  body: Buffer
  json?: any
}

/** A scripted answer: status, JSON body (or raw bytes), headers, delay. */
export interface Scripted {
  status: number
  json?: unknown
  raw?: Buffer
  headers?: Record<string, string>
  delayMs?: number
}

/** A PNG of one colour, as vendors return (sizes vary: the client fits them). */
export async function pngOf(color: string, width: number, height: number): Promise<Buffer> {
  const c = createCanvas(width, height)
  const g = c.getContext('2d')
  g.fillStyle = color
  g.fillRect(0, 0, width, height)
  return Buffer.from(await c.encode('png'))
}

/**
 * A fake vendor API on 127.0.0.1: `route(method, path, request)` decides the answer; `script` answers
 * come first, in order (e.g. a 500 then the real answer), to exercise retries and failures.
 */
export async function fakeServer(route: (req: Recorded, server: FakeServer) => Scripted | Promise<Scripted>) {
  const requests: Recorded[] = []
  const script: Scripted[] = []
  const server: Server = createServer((req, res) => {
    const chunks: Buffer[] = []
    req.on('data', (c) => chunks.push(c))
    req.on('end', async () => {
      const body = Buffer.concat(chunks)
      let json: unknown
      try {
        json = JSON.parse(body.toString('utf8'))
      } catch {
        json = undefined
      }
      const rec: Recorded = { method: req.method!, path: req.url!, headers: req.headers, body, json }
      requests.push(rec)
      const answer = script.shift() ?? (await route(rec, self))
      const send = () => {
        res.writeHead(answer.status, { 'content-type': answer.raw ? 'image/png' : 'application/json', ...answer.headers })
        res.end(answer.raw ?? (answer.json === undefined ? '' : JSON.stringify(answer.json)))
      }
      if (answer.delayMs) setTimeout(send, answer.delayMs)
      else send()
    })
  })
  await new Promise<void>((r) => server.listen(0, '127.0.0.1', r))
  const self = {
    url: `http://127.0.0.1:${(server.address() as { port: number }).port}`,
    requests,
    /** Answers to give before the normal route, in order. */
    push: (...answers: Scripted[]) => void script.push(...answers),
    close: () => new Promise<void>((r) => server.close(() => r())),
  }
  return self
}
export type FakeServer = Awaited<ReturnType<typeof fakeServer>>

/** OpenAI Images: `POST /v1/images/generations` → `{ created, data: [{ b64_json, revised_prompt }] }`. */
export async function fakeOpenAI(color = '#ff0000') {
  return fakeServer(async (req) => {
    if (req.method !== 'POST' || req.path !== '/v1/images/generations')
      return { status: 404, json: { error: { message: 'not found', type: 'invalid_request_error', param: null, code: null } } }
    if (req.headers.authorization !== 'Bearer sk-test')
      return {
        status: 401,
        json: { error: { message: 'Incorrect API key provided: sk-te***', type: 'invalid_request_error', param: null, code: 'invalid_api_key' } },
      }
    const [w, h] = String(req.json.size).split('x').map(Number)
    return {
      status: 200,
      json: { created: 1700000000, data: [{ b64_json: (await pngOf(color, w!, h!)).toString('base64'), revised_prompt: `revised: ${req.json.prompt}` }] },
    }
  })
}

/** BFL: submit `POST /v1/<model>` (x-key) → `{id, polling_url}`; `GET /v1/get_result?id=` → Pending… Ready with `result.sample`. */
export async function fakeBFL(color = '#00ff00', opts: { pendingPolls?: number; final?: string } = {}) {
  const polls = new Map<string, number>()
  const server: FakeServer = await fakeServer(async (req) => {
    if (req.headers['x-key'] !== 'bfl-test' && !req.path.startsWith('/sample/')) return { status: 403, json: { detail: 'Not authenticated' } }
    if (req.method === 'POST' && req.path.startsWith('/v1/flux')) {
      if (!req.json?.prompt) return { status: 422, json: { detail: [{ loc: ['body', 'prompt'], msg: 'Field required', type: 'missing' }] } }
      const id = `task-${server.requests.length}`
      return { status: 200, json: { id, polling_url: `${server.url}/v1/get_result?id=${id}` } }
    }
    if (req.method === 'GET' && req.path.startsWith('/v1/get_result')) {
      const id = new URL(req.path, 'http://x').searchParams.get('id')!
      const n = (polls.get(id) ?? 0) + 1
      polls.set(id, n)
      if (n <= (opts.pendingPolls ?? 1)) return { status: 200, json: { id, status: 'Pending', progress: 0.5 } }
      if (opts.final && opts.final !== 'Ready') return { status: 200, json: { id, status: opts.final } }
      const submit = server.requests.find((r) => r.method === 'POST')!.json
      return {
        status: 200,
        json: {
          id,
          status: 'Ready',
          result: { sample: `${server.url}/sample/${id}.png?w=${submit.width}&h=${submit.height}`, prompt: submit.prompt, seed: 1 },
        },
      }
    }
    if (req.method === 'GET' && req.path.startsWith('/sample/')) {
      const q = new URL(req.path, 'http://x').searchParams
      return { status: 200, raw: await pngOf(color, Number(q.get('w')), Number(q.get('h'))) }
    }
    return { status: 404, json: { detail: 'Not Found' } }
  })
  return server
}

/** Stability v1 JSON (`/v1/generation/<engine>/text-to-image`) and v2beta multipart (`/v2beta/stable-image/generate/<service>`). */
export async function fakeStability(color = '#0000ff', opts: { finishReason?: string } = {}) {
  return fakeServer(async (req) => {
    if (req.headers.authorization !== 'Bearer sk-stab') return { status: 401, json: { id: 'x', name: 'unauthorized', message: 'missing or invalid API key' } }
    if (req.method === 'POST' && /^\/v1\/generation\/[^/]+\/text-to-image$/.test(req.path)) {
      if (req.headers.accept !== 'application/json') return { status: 400, json: { id: 'x', name: 'bad_request', message: 'accept must be application/json' } }
      const png = await pngOf(color, req.json.width, req.json.height)
      return { status: 200, json: { artifacts: [{ base64: png.toString('base64'), seed: 1, finishReason: opts.finishReason ?? 'SUCCESS' }] } }
    }
    if (req.method === 'POST' && req.path.startsWith('/v2beta/stable-image/generate/')) {
      if (!String(req.headers['content-type']).startsWith('multipart/form-data'))
        return { status: 400, json: { name: 'bad_request', errors: ['multipart/form-data required'] } }
      return { status: 200, raw: await pngOf(color, 1024, 1024), headers: { 'finish-reason': opts.finishReason ?? 'SUCCESS', seed: '1' } }
    }
    return { status: 404, json: { id: 'x', name: 'not_found', message: 'not found' } }
  })
}

/** AUTOMATIC1111 `POST /sdapi/v1/txt2img` → `{ images: [base64], parameters, info }`. */
export async function fakeA1111(color = '#ffff00') {
  return fakeServer(async (req) => {
    if (req.method === 'POST' && req.path === '/sdapi/v1/txt2img')
      return { status: 200, json: { images: [(await pngOf(color, req.json.width, req.json.height)).toString('base64')], parameters: req.json, info: '{}' } }
    return { status: 404, json: { detail: 'Not Found' } }
  })
}
