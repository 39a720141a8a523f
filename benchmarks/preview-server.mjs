// The server `npm run bench:preview` measures: the built service (dist/) under plain `node`, rendering in child
// processes as in production, reading the benchmark's media from disk (--allow-files), with no frame rate limit.
// Prints `{ url, key }` once listening.
import { startServer } from '../dist/adapters/http/serve.js'
import { defaultConfig } from '../dist/service/config.js'

const [dataDir, mediaDir] = process.argv.slice(2)
const server = await startServer(
  defaultConfig({ dataDir, port: 0, host: '127.0.0.1', concurrency: 0, files: { allow: [mediaDir] }, rateLimits: { 'frame-preview': 0 } }),
)
const key = (await server.service.keys.create()).key
console.log(JSON.stringify({ url: server.url, key }))
process.on('SIGTERM', () => void server.close(1000).then(() => process.exit(0)))
