import { createServer, type Socket } from 'node:net'
import { brotliCompressSync, constants, deflateSync, gzipSync } from 'node:zlib'

/** One route per way an ordinary HTTP/1.x host ends, frames or delays a body (`GET /<behaviour>/<file>`). */
export const BEHAVIOURS = [
  'close-delimited',
  'chunked',
  'length-keep-alive',
  'length-close',
  'slow-first-byte',
  'trickle',
  'redirect-chain',
  'partial-whole',
  'gzip',
] as const

export interface WebHost {
  url: string
  close(): Promise<void>
}

const sleep = (ms: number) => new Promise((r) => setTimeout(r, ms))
const ENCODE = { gzip: gzipSync, deflate: deflateSync, br: (b: Buffer) => brotliCompressSync(b, { params: { [constants.BROTLI_PARAM_QUALITY]: 1 } }) }

/**
 * A loopback host written on raw sockets, so each response is framed exactly as its route says (node:http's
 * server would pick its own framing). Besides `BEHAVIOURS`: `redirect/<n>/` (n hops: every 3xx code, absolute,
 * path-absolute and dot-relative locations), `partial-part`, `truncated` (closed mid-body), `stall` (silent
 * mid-body), `br`, `deflate`.
 */
export async function startWebHost(files: Record<string, Buffer>): Promise<WebHost> {
  const encoded = new Map<string, Buffer>()
  const sockets = new Set<Socket>()
  let url = ''
  // Writes respect the socket's backpressure, as a real server's do.
  const send = async (socket: Socket, data: string | Buffer) => {
    if (!socket.write(data)) await new Promise((r) => socket.once('drain', r))
  }
  const head = (status: string, headers: Record<string, string | number>) =>
    `HTTP/1.1 ${status}\r\n${Object.entries(headers)
      .map(([k, v]) => `${k}: ${v}\r\n`)
      .join('')}\r\n`

  /** Answers one request; resolves true when the connection stays open for the next one. */
  async function answer(socket: Socket, path: string): Promise<boolean> {
    const [, route = '', ...rest] = path.split('/')
    const name = rest.at(-1) ?? ''
    const body = files[name]
    if (!body) {
      await send(socket, head('404 Not Found', { 'content-length': 0 }))
      return true
    }
    const len = body.length
    switch (route) {
      case 'close-delimited':
        // HTTP/1.0 style: no length at all; the end of the body is the end of the connection.
        await send(socket, `HTTP/1.0 200 OK\r\ncontent-type: application/octet-stream\r\nconnection: close\r\n\r\n`)
        await send(socket, body)
        return false
      case 'chunked':
        await send(socket, head('200 OK', { 'transfer-encoding': 'chunked' }))
        for (let at = 0, size = 1000; at < len; at += size, size = size * 3 > 300_000 ? 7_777 : size * 3) {
          const part = body.subarray(at, at + size)
          await send(socket, `${part.length.toString(16)}\r\n`), await send(socket, part), await send(socket, '\r\n')
        }
        await send(socket, '0\r\n\r\n')
        return true
      case 'length-keep-alive':
        await send(socket, head('200 OK', { 'content-length': len, connection: 'keep-alive', 'keep-alive': 'timeout=30' }))
        await send(socket, body)
        return true
      case 'length-close':
        await send(socket, head('200 OK', { 'content-length': len, connection: 'close' }))
        await send(socket, body)
        return false
      case 'slow-first-byte':
        await sleep(400)
        await send(socket, head('200 OK', { 'content-length': len }))
        await sleep(200)
        await send(socket, body)
        return true
      case 'trickle':
        await send(socket, head('200 OK', { 'content-length': len }))
        for (let at = 0; at < 2048; at += 64) await send(socket, body.subarray(at, at + 64)), await sleep(1)
        for (let at = 2048; at < len; at += 128 * 1024) await send(socket, body.subarray(at, at + 128 * 1024)), await sleep(5)
        return true
      case 'redirect-chain':
        // Five hops in all (the most a download follows): this 301, then 308, 307, 303 and 302 below.
        await send(socket, head('301 Moved Permanently', { location: `/redirect/4/${name}`, 'content-length': 0 }))
        return true
      case 'redirect': {
        const left = Number(rest[0])
        if (left === 0) return answer(socket, `/length-keep-alive/${name}`)
        const location = [`${url}/redirect/${left - 1}/${name}`, `/redirect/${left - 1}/${name}`, `../${left - 1}/${name}`][left % 3]!
        const code = ['301 Moved Permanently', '302 Found', '303 See Other', '307 Temporary Redirect', '308 Permanent Redirect'][left % 5]!
        await send(socket, head(code, { location, 'content-length': 0 }))
        return true
      }
      case 'partial-whole':
        await send(socket, head('206 Partial Content', { 'content-length': len, 'content-range': `bytes 0-${len - 1}/${len}` }))
        await send(socket, body)
        return true
      case 'partial-part':
        await send(socket, head('206 Partial Content', { 'content-length': 1000, 'content-range': `bytes 0-999/${len}` }))
        await send(socket, body.subarray(0, 1000))
        return true
      case 'truncated':
        await send(socket, head('200 OK', { 'content-length': len }))
        await send(socket, body.subarray(0, len >> 1))
        return false
      case 'stall':
        // Half the body, then silence until the client gives up.
        await send(socket, head('200 OK', { 'content-length': len }))
        await send(socket, body.subarray(0, len >> 1))
        await new Promise((r) => socket.once('close', r))
        return false
      case 'gzip':
      case 'deflate':
      case 'br': {
        const key = `${route}/${name}`
        if (!encoded.has(key)) encoded.set(key, ENCODE[route](body))
        const packed = encoded.get(key)!
        await send(socket, head('200 OK', { 'content-encoding': route, 'content-length': packed.length }))
        await send(socket, packed)
        return true
      }
    }
    await send(socket, head('404 Not Found', { 'content-length': 0 }))
    return true
  }

  const server = createServer((socket) => {
    sockets.add(socket)
    socket.on('close', () => sockets.delete(socket))
    socket.on('error', () => socket.destroy())
    let pending = Buffer.alloc(0)
    let queue = Promise.resolve(true)
    socket.on('data', (data) => {
      pending = Buffer.concat([pending, data])
      for (let end = pending.indexOf('\r\n\r\n'); end >= 0; end = pending.indexOf('\r\n\r\n')) {
        const path = pending.subarray(0, end).toString('latin1').split(' ')[1] ?? '/'
        pending = pending.subarray(end + 4)
        // One request at a time per connection, in order (GETs have no body to skip).
        queue = queue
          .then(async (open) => {
            if (!open) return false
            const stays = await answer(socket, path)
            if (!stays) socket.end()
            return stays
          })
          .catch(() => (socket.destroy(), false))
      }
    })
  })
  await new Promise<void>((r) => server.listen(0, '127.0.0.1', r))
  url = `http://127.0.0.1:${(server.address() as { port: number }).port}`
  return {
    url,
    close: () => new Promise<void>((r) => (server.close(() => r()), sockets.forEach((s) => s.destroy()))),
  }
}
