import { readdirSync, readFileSync } from 'node:fs'

export interface ProcessMemory {
  pid: number
  /** What the process is: its command name, and for ffmpeg its role (encoder reads frames from stdin). */
  role: string
  rss: number
  /** Proportional set size: shared pages (libraries mapped by several processes) divided among their users. */
  pss: number
  /** CPU seconds used so far (user + system). */
  cpu: number
}

/**
 * Every process of the tree under `root` with its resident memory. `pss` also reads smaps_rollup, which walks
 * every mapping under the process's memory lock: sampled every 50 ms it slowed a render by ~14 %, so callers
 * ask for it rarely; otherwise `pss` is 0.
 */
export function treeProcesses(root: number, opts: { pss?: boolean } = {}): ProcessMemory[] {
  const children = new Map<number, number[]>()
  // /proc/PID/stat after the command name: state, ppid, …, utime (12th), stime (13th). Read once per process.
  const stats = new Map<number, string[]>()
  for (const name of readdirSync('/proc')) {
    if (!/^\d+$/.test(name)) continue
    try {
      const stat = readFileSync(`/proc/${name}/stat`, 'utf8')
      const fields = stat.slice(stat.lastIndexOf(')') + 2).split(' ')
      stats.set(Number(name), fields)
      const ppid = Number(fields[1])
      const list = children.get(ppid) ?? []
      list.push(Number(name))
      children.set(ppid, list)
    } catch {
      // The process ended while we looked.
    }
  }
  const found: ProcessMemory[] = []
  const stack = [root]
  while (stack.length) {
    const pid = stack.pop()!
    try {
      const status = readFileSync(`/proc/${pid}/status`, 'utf8')
      const m = /VmRSS:\s+(\d+) kB/.exec(status)
      if (m)
        found.push({
          pid,
          role: role(pid, /Name:\s+(\S+)/.exec(status)?.[1] ?? '?'),
          rss: Number(m[1]) * 1024,
          pss: opts.pss ? pssBytes(pid) : 0,
          cpu: cpuSeconds(stats.get(pid)),
        })
    } catch {
      continue
    }
    stack.push(...(children.get(pid) ?? []))
  }
  return found
}

function role(pid: number, name: string): string {
  if (name !== 'ffmpeg') return name
  const args = readFileSync(`/proc/${pid}/cmdline`, 'utf8').split('\0')
  if (args.includes('pipe:0')) return 'ffmpeg encoder'
  if (args.includes('pipe:1') || args.some((a) => a.startsWith('unix:'))) return 'ffmpeg decoder'
  return 'ffmpeg'
}

/** utime + stime in seconds (the kernel counts in USER_HZ = 100 ticks a second on Linux). */
function cpuSeconds(fields: string[] | undefined): number {
  return fields ? (Number(fields[11]) + Number(fields[12])) / 100 : 0
}

function pssBytes(pid: number): number {
  const m = /^Pss:\s+(\d+) kB/m.exec(readFileSync(`/proc/${pid}/smaps_rollup`, 'utf8'))
  return m ? Number(m[1]) * 1024 : 0
}
