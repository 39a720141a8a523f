// A `reelforge serve` whose first credit settlement kills the process with SIGKILL — inside the completing
// transaction, after the render finished — to prove the charge happens exactly once after a restart.
import { startServer } from '../../adapters/http/serve.js'
import { defaultConfig } from '../../service/config.js'

const [data, port] = process.argv.slice(2)
const running = await startServer(defaultConfig({ dataDir: data!, port: Number(port), leaseMs: 1500 }))
const wallet = running.service.wallet
wallet.settleRender = async () => {
  process.kill(process.pid, 'SIGKILL')
  return 0
}
console.log(`listening on ${running.url}`)
