import { spawn } from 'node:child_process'
import { treeRss } from './tree-rss.js'

export interface Measured {
  wallMs: number
  peakRss: number
  stdout: string
}

/** Runs a command, sampling the peak RSS of its whole process tree every 50 ms. */
export function measure(cmd: string, args: string[], opts: { cwd?: string; env?: NodeJS.ProcessEnv } = {}): Promise<Measured> {
  return new Promise((resolve, reject) => {
    const started = performance.now()
    const child = spawn(cmd, args, { cwd: opts.cwd, env: opts.env ?? process.env, stdio: ['ignore', 'pipe', 'pipe'] })
    let peakRss = 0
    let stdout = ''
    let stderr = ''
    const sample = () => (peakRss = Math.max(peakRss, treeRss(child.pid!)))
    const timer = setInterval(sample, 50)
    child.stdout.on('data', (d) => (stdout += d))
    child.stderr.on('data', (d) => (stderr = (stderr + d).slice(-4000)))
    child.on('close', (code) => {
      clearInterval(timer)
      const wallMs = performance.now() - started
      if (code !== 0) reject(new Error(`${cmd} exited ${code}: ${stderr}`))
      else resolve({ wallMs, peakRss, stdout })
    })
  })
}
