import { spawn } from 'node:child_process'
import type { WebHost } from './web-hosts.js'

/**
 * Python's own `http.server` serving `dir` on a free loopback port: HTTP/1.0, `connection: close`, the body
 * written as fast as the socket takes it — the host that crashed undici 7's parser.
 */
export async function startPythonServer(dir: string): Promise<WebHost> {
  // Port 0: Python picks a free port and prints it (unbuffered with -u), so no port can be taken in between.
  const child = spawn('python3', ['-u', '-m', 'http.server', '0', '--bind', '127.0.0.1', '--directory', dir], { stdio: ['ignore', 'pipe', 'ignore'] })
  const stop = () => child.kill()
  process.once('exit', stop)
  const port = await new Promise<string>((resolve, reject) => {
    let out = ''
    child.once('exit', (code) => reject(new Error(`python3 -m http.server exited (${code}): ${out}`)))
    child.stdout.on('data', (d) => {
      out += d
      const m = /port (\d+)/.exec(out)
      if (m) resolve(m[1]!)
    })
  })
  return {
    url: `http://127.0.0.1:${port}`,
    close: async () => {
      process.off('exit', stop)
      if (child.exitCode === null) await new Promise((r) => (child.once('exit', r), child.kill()))
    },
  }
}
