import { spawn } from 'node:child_process'
import { treeProcesses } from './process-tree.js'

export interface Measured {
  wallMs: number
  peakRss: number
  /** Peak of the tree's summed PSS (shared library pages counted once), sampled once a second. */
  peakPss: number
  /** Peak resident memory of each kind of process in the tree (one process of that kind at a time). */
  peakByRole: Map<string, number>
  /** The processes alive at the moment of the tree's peak. */
  atPeak: { role: string; rss: number }[]
  /** CPU seconds each kind of process used, all its processes together (as last sampled). */
  cpuByRole: Map<string, number>
  stdout: string
}

/** Runs a command, sampling the peak RSS of its whole process tree every 50 ms. */
export function measure(cmd: string, args: string[], opts: { cwd?: string; env?: NodeJS.ProcessEnv } = {}): Promise<Measured> {
  return new Promise((resolve, reject) => {
    const started = performance.now()
    const child = spawn(cmd, args, { cwd: opts.cwd, env: opts.env ?? process.env, stdio: ['ignore', 'pipe', 'pipe'] })
    let peakRss = 0
    let peakPss = 0
    let atPeak: { role: string; rss: number }[] = []
    const peakByRole = new Map<string, number>()
    const cpuByPid = new Map<number, { role: string; cpu: number }>()
    let stdout = ''
    let stderr = ''
    let samples = 0
    const sample = () => {
      const pss = samples++ % 20 === 0
      const procs = treeProcesses(child.pid!, { pss })
      const total = procs.reduce((sum, p) => sum + p.rss, 0)
      if (pss)
        peakPss = Math.max(
          peakPss,
          procs.reduce((sum, p) => sum + p.pss, 0),
        )
      if (total > peakRss) (peakRss = total), (atPeak = procs.map(({ role, rss }) => ({ role, rss })))
      for (const p of procs) {
        peakByRole.set(p.role, Math.max(peakByRole.get(p.role) ?? 0, p.rss))
        cpuByPid.set(p.pid, { role: p.role, cpu: p.cpu })
      }
    }
    const timer = setInterval(sample, 50)
    child.stdout.on('data', (d) => (stdout += d))
    child.stderr.on('data', (d) => (stderr = (stderr + d).slice(-4000)))
    child.on('close', (code) => {
      clearInterval(timer)
      const wallMs = performance.now() - started
      const cpuByRole = new Map<string, number>()
      for (const { role, cpu } of cpuByPid.values()) cpuByRole.set(role, (cpuByRole.get(role) ?? 0) + cpu)
      if (code !== 0) reject(new Error(`${cmd} exited ${code}: ${stderr}`))
      else resolve({ wallMs, peakRss, peakPss, peakByRole, atPeak, cpuByRole, stdout })
    })
  })
}
