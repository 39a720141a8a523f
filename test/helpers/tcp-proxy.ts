import { createConnection, createServer, type Server, type Socket } from 'node:net'

/**
 * A TCP proxy on loopback in front of a shared server (Redis, PostgreSQL, s3rver): `cut()` drops every
 * connection and refuses new ones (the port is closed, as when the server is down), `restore()` listens on
 * the same port again. A process pointed at the proxy sees an outage; other tests using the server itself
 * never notice.
 */
export async function tcpProxy(target: { host?: string; port: number }): Promise<{
  port: number
  /** `url` with its host and port replaced by the proxy's. */
  via(url: string): string
  cut(): Promise<void>
  restore(): Promise<void>
  close(): Promise<void>
}> {
  const sockets = new Set<Socket>()
  const track = (s: Socket) => (sockets.add(s), s.on('close', () => sockets.delete(s)))
  let server: Server
  const listen = (port: number) =>
    new Promise<number>((resolve, reject) => {
      server = createServer((client) => {
        track(client)
        const upstream = track(createConnection({ host: target.host ?? '127.0.0.1', port: target.port }))
        client.pipe(upstream).pipe(client)
        client.on('error', () => upstream.destroy())
        upstream.on('error', () => client.destroy())
        client.on('close', () => upstream.destroy())
        upstream.on('close', () => client.destroy())
      })
      server.once('error', reject)
      server.listen(port, '127.0.0.1', () => resolve((server.address() as { port: number }).port))
    })
  const port = await listen(0)
  const stop = () =>
    new Promise<void>((resolve) => {
      server.close(() => resolve())
      for (const s of sockets) s.destroy()
    })
  return {
    port,
    via: (url) => {
      const u = new URL(url)
      u.hostname = '127.0.0.1'
      u.port = String(port)
      return u.toString().replace(/\/$/, '')
    },
    cut: stop,
    restore: async () => void (await listen(port)),
    close: () => (server.listening ? stop() : Promise.resolve()),
  }
}
