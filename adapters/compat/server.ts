import { createReadStream } from 'node:fs'
import { createServer, type Server } from 'node:http'
import { basename } from 'node:path'
import { fontFor, type ServeStandIn } from './rewrite.js'
import { standIn } from './standins.js'

/** A loopback server for the stand-ins; `serve` names one and returns its URL. */
export async function standInServer(dir: string): Promise<{ server: Server; serve: ServeStandIn }> {
  const files = new Map<string, () => Promise<string>>()
  const server = createServer((req, res) => {
    const make = files.get(req.url ?? '')
    if (!make) return res.writeHead(404).end()
    make().then(
      (path) => {
        res.writeHead(200, { 'content-type': 'application/octet-stream' })
        createReadStream(path).pipe(res)
      },
      (e: Error) => res.writeHead(500).end(e.message),
    )
  })
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve))
  const port = (server.address() as { port: number }).port
  const serve: ServeStandIn = (kind, ext, from) => {
    const path = kind === 'font' ? `/standin/font/${basename(fontFor(from))}` : `/standin/${kind}.${ext}`
    if (!files.has(path)) {
      let pending: Promise<string> | undefined
      files.set(path, () => (pending ??= kind === 'font' ? Promise.resolve(fontFor(from)) : standIn(dir, kind, ext)))
    }
    return `http://127.0.0.1:${port}${path}`
  }
  return { server, serve }
}
