import { createServer, type Server } from 'node:http'
import type { Duplex } from 'node:stream'
import { toNodeHandler } from 'h3'
import type { ServiceConfig } from '../../service/config.js'
import { createService, type Service } from './create-service.js'

/** Starts the `/v1` service on `config.host:config.port` (0 = any free port). */
export async function startServer(config: ServiceConfig): Promise<{ service: Service; server: Server; url: string; close(graceMs?: number): Promise<void> }> {
  const service = await createService(config)
  const server = createServer(toNodeHandler(service.app))
  server.keepAliveTimeout = 65_000
  server.on('clientError', answerClientError)
  await new Promise<void>((resolve, reject) => {
    server.once('error', reject)
    server.listen(config.port, config.host, () => resolve())
  })
  const address = server.address() as { port: number }
  // With port 0 the real port is known only now; links in job results must carry it.
  if (config.port === 0) config.port = address.port
  const url = `http://${config.host}:${address.port}`
  await service.start()
  return {
    service,
    server,
    url,
    async close(graceMs?: number) {
      // New connections are refused and idle keep-alive ones closed now; requests in flight get the service's
      // stop (a frame preview aborts at once, renders have `graceMs`), then every connection is closed.
      const closed = new Promise<void>((r) => server.close(() => r()))
      server.closeIdleConnections()
      await service.close(graceMs)
      server.closeAllConnections()
      await closed
    },
  }
}

/**
 * Requests Node's parser refuses (`content-length: -1`, control characters in a header, headers past 16 KB)
 * never reach the app; Node would answer an empty 400. They get the one error shape too.
 */
function answerClientError(error: NodeJS.ErrnoException & { reason?: string }, socket: Duplex): void {
  if (error.code === 'ECONNRESET' || !socket.writable) return void socket.destroy()
  const [status, phrase, message] =
    error.code === 'HPE_HEADER_OVERFLOW'
      ? [431, 'Request Header Fields Too Large', 'the request headers are too large']
      : error.code === 'ERR_HTTP_REQUEST_TIMEOUT'
        ? [408, 'Request Timeout', 'the request took too long to arrive']
        : [400, 'Bad Request', `malformed HTTP request${error.reason ? `: ${error.reason}` : ''}`]
  const body = JSON.stringify({ error: { code: 'E_BAD_REQUEST', message } })
  socket.end(
    `HTTP/1.1 ${status} ${phrase}\r\ncontent-type: application/json; charset=utf-8\r\ncontent-length: ${Buffer.byteLength(body)}\r\nconnection: close\r\n\r\n${body}`,
  )
}
