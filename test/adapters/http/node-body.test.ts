// Bodies read straight from Node's request stream (the path a real server takes; app.request takes the web
// stream path, which the other suites cover): a real socket, the service's own handler.
import { createServer, request, type Server } from 'node:http'
import { toNodeHandler } from 'h3'
import { suite } from 'uvu'
import * as assert from 'uvu/assert'
import { defaultConfig } from '../../../service/config.js'
import { testService, titleEdit, type TestService } from '../../helpers/service.js'

let svc: TestService
let server: Server
let port = 0
const LIMIT = 64 * 1024

/** A raw POST; `chunks` are written with a pause between them and no content-length (chunked). */
function post(path: string, headers: Record<string, string>, chunks: string[]): Promise<{ status: number; body: any; closed: boolean }> {
  return new Promise((resolve, reject) => {
    const req = request({ host: '127.0.0.1', port, path, method: 'POST', headers: { 'content-type': 'application/json', ...headers } }, (res) => {
      let text = ''
      res.on('data', (d) => (text += d))
      res.on('end', () => resolve({ status: res.statusCode!, body: JSON.parse(text), closed: res.headers.connection === 'close' }))
    })
    req.on('error', reject)
    let i = 0
    const next = () => {
      if (i === chunks.length) return void req.end()
      if (!req.write(chunks[i++]!)) req.once('drain', next)
      else setTimeout(next, 2)
    }
    next()
  })
}

const body = suite('JSON bodies from the Node request stream')
body.before(async () => {
  const limits = defaultConfig({ dataDir: '/nonexistent' }).limits
  svc = await testService({ config: { limits: { ...limits, bodyBytes: LIMIT } } })
  server = createServer(toNodeHandler(svc.app))
  await new Promise<void>((r) => server.listen(0, '127.0.0.1', () => r()))
  port = (server.address() as { port: number }).port
})
body.after(async () => {
  server.closeAllConnections()
  await new Promise<void>((r) => server.close(() => r()))
  await svc.close()
})

body('a submission sent in pieces is read whole and stored', async () => {
  const json = JSON.stringify(titleEdit())
  const pieces = [json.slice(0, 10), json.slice(10, 40), json.slice(40)]
  const r = await post('/v1/render', { authorization: `Bearer ${svc.live}` }, pieces)
  assert.is(r.status, 201, JSON.stringify(r.body))
  assert.is((await svc.jobs.get(r.body.jobId))?.status, 'QUEUED')
})

body('a chunked body past the limit: 413 naming it, the rest left unread and the connection closed', async () => {
  const piece = 'x'.repeat(16 * 1024)
  const r = await post('/v1/render', { authorization: `Bearer ${svc.live}` }, ['{"padding":"', ...Array(40).fill(piece)])
  assert.is(r.status, 413)
  assert.is(r.body.error.code, 'E_PAYLOAD_TOO_LARGE')
  assert.match(r.body.error.message, new RegExp(`exceeds ${LIMIT} bytes`))
  assert.ok(r.closed, 'connection: close')
})

body('malformed JSON over the socket is the same 400', async () => {
  const r = await post('/v1/render', { authorization: `Bearer ${svc.live}` }, ['{"timeline": '])
  assert.is(r.status, 400)
  assert.match(r.body.error.message, /malformed JSON/)
})

body.run()
