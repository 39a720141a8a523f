import { readdirSync, readFileSync } from 'node:fs'

/**
 * The command lines of the processes this one starts while `during` runs, sampled from /proc every 5 ms: what
 * really ran (the encoder's and decoders' arguments), not what a function says it would run.
 */
export async function childCommands(during: Promise<unknown>): Promise<string[][]> {
  const seen = new Map<string, string[]>()
  const scan = () => {
    for (const pid of readdirSync('/proc').filter((d) => /^\d+$/.test(d) && !seen.has(d))) {
      try {
        const stat = readFileSync(`/proc/${pid}/stat`, 'utf8')
        const ppid = Number(stat.slice(stat.lastIndexOf(')') + 2).split(' ')[1])
        if (ppid === process.pid) seen.set(pid, readFileSync(`/proc/${pid}/cmdline`, 'utf8').split('\0'))
      } catch {} // gone between the listing and the read
    }
  }
  const timer = setInterval(scan, 5)
  try {
    await during
  } finally {
    clearInterval(timer)
  }
  return [...seen.values()]
}

/** The value after `flag` in a command line, or 'none'. */
export const argOf = (cmd: string[], flag: string): string => (cmd.includes(flag) ? cmd[cmd.indexOf(flag) + 1]! : 'none')

/**
 * The command lines of the processes that start in process group `pgid` — a render process and everything it
 * starts (its decoders, ffprobes) — while `during` runs, sampled from /proc every 5 ms. Those already running
 * when it starts do not count.
 */
export async function groupCommands(pgid: number, during: Promise<unknown>): Promise<string[][]> {
  const members = () =>
    readdirSync('/proc').filter((d) => {
      if (!/^\d+$/.test(d)) return false
      try {
        const stat = readFileSync(`/proc/${d}/stat`, 'utf8')
        return Number(stat.slice(stat.lastIndexOf(')') + 2).split(' ')[2]) === pgid
      } catch {
        return false // gone between the listing and the read
      }
    })
  const before = new Set(members())
  const seen = new Map<string, string[]>()
  const scan = () => {
    for (const pid of members()) {
      if (before.has(pid) || seen.has(pid)) continue
      try {
        seen.set(pid, readFileSync(`/proc/${pid}/cmdline`, 'utf8').split('\0'))
      } catch {}
    }
  }
  const timer = setInterval(scan, 5)
  try {
    await during
  } finally {
    clearInterval(timer)
  }
  return [...seen.values()]
}
