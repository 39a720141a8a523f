import { createServer, type Server } from 'node:http'
import { toNodeHandler } from 'h3'
import type { ServiceConfig } from '../../service/config.js'
import { createService, type Service } from './container.js'

/** Starts the `/v1` service on `config.host:config.port` (0 = any free port). */
export async function startServer(config: ServiceConfig): Promise<{ service: Service; server: Server; url: string; close(): Promise<void> }> {
  const service = await createService(config)
  const server = createServer(toNodeHandler(service.app))
  server.keepAliveTimeout = 65_000
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
    async close() {
      await new Promise<void>((r) => server.close(() => r()))
      server.closeAllConnections?.()
      await service.close()
    },
  }
}
