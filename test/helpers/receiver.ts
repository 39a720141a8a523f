import { createServer, type IncomingHttpHeaders, type Server } from 'node:http'

export interface Received {
  path: string
  headers: IncomingHttpHeaders
  body: string
  json: any
}

/**
 * A webhook receiver on 127.0.0.1 that records every request (raw body and headers) and answers with a
 * status the test can switch at any time — also a redirect, an answer slower than the sender's time-out, or
 * none at all (`setHang(true)`: the request is read and recorded, then left open until the receiver closes).
 */
export async function startReceiver() {
  const received: Received[] = []
  let status = 200
  let delayMs = 0
  let hang = false
  const waiters: Array<() => void> = []
  const server: Server = createServer((req, res) => {
    const chunks: Buffer[] = []
    req.on('data', (c) => chunks.push(c))
    req.on('end', () => {
      const body = Buffer.concat(chunks).toString('utf8')
      let json: unknown
      try {
        json = JSON.parse(body)
      } catch {
        json = undefined
      }
      received.push({ path: req.url ?? '/', headers: req.headers, body, json })
      for (const w of waiters.splice(0)) w()
      const answer = () =>
        status >= 300 && status < 400 ? res.writeHead(status, { location: '/elsewhere' }).end() : res.writeHead(status).end(status < 300 ? 'ok' : 'no')
      if (hang) return
      if (delayMs) setTimeout(answer, delayMs)
      else answer()
    })
  })
  await new Promise<void>((r) => server.listen(0, '127.0.0.1', r))
  const url = `http://127.0.0.1:${(server.address() as { port: number }).port}`
  return {
    url,
    received,
    setStatus: (s: number) => void (status = s),
    setDelay: (ms: number) => void (delayMs = ms),
    setHang: (on: boolean) => void (hang = on),
    /** Resolves once `n` requests (in total) have arrived. */
    async waitFor(n: number, timeoutMs = 30_000) {
      const until = Date.now() + timeoutMs
      while (received.length < n) {
        if (Date.now() > until) throw new Error(`receiver got ${received.length} of ${n} requests`)
        await new Promise<void>((r) => {
          waiters.push(r)
          setTimeout(r, 200)
        })
      }
      return received
    },
    // Requests left hanging would keep `close` waiting: their connections are cut.
    close: () => new Promise<void>((r) => (server.close(() => r()), server.closeAllConnections())),
  }
}
