import { readdirSync, readFileSync } from 'node:fs'

/**
 * The command lines of the processes this one starts while `during` runs, sampled from /proc every 5 ms: what
 * really ran (the encoder's and decoders' arguments), not what a function says it would run.
 */
export async function childCommands(during: Promise<unknown>): Promise<string[][]> {
  return sampleWhile(during, (pid) => statField(pid, 1) === process.pid)
}

/** The value after `flag` in a command line, or 'none'. */
export const argOf = (cmd: string[], flag: string): string => (cmd.includes(flag) ? cmd[cmd.indexOf(flag) + 1]! : 'none')

/**
 * The command lines of the processes that start in process group `pgid` — a render process and everything it
 * starts (its decoders, ffprobes) — while `during` runs, sampled from /proc every 5 ms. Those already running
 * when it starts do not count.
 */
export async function groupCommands(pgid: number, during: Promise<unknown>): Promise<string[][]> {
  const inGroup = (pid: string) => statField(pid, 2) === pgid
  const before = new Set(pids().filter(inGroup))
  return sampleWhile(during, (pid) => !before.has(pid) && inGroup(pid))
}

const pids = () => readdirSync('/proc').filter((d) => /^\d+$/.test(d))

/** Field `i` after the command name in /proc/<pid>/stat (0 state, 1 ppid, 2 pgid); undefined once the process is gone. */
function statField(pid: string, i: number): number | undefined {
  try {
    const stat = readFileSync(`/proc/${pid}/stat`, 'utf8')
    return Number(stat.slice(stat.lastIndexOf(')') + 2).split(' ')[i])
  } catch {
    return undefined // gone between the listing and the read
  }
}

/** The command lines of the processes `wanted` picks, sampled from /proc every 5 ms while `during` runs. */
async function sampleWhile(during: Promise<unknown>, wanted: (pid: string) => boolean): Promise<string[][]> {
  const seen = new Map<string, string[]>()
  const scan = () => {
    for (const pid of pids()) {
      if (seen.has(pid) || !wanted(pid)) continue
      try {
        seen.set(pid, readFileSync(`/proc/${pid}/cmdline`, 'utf8').split('\0'))
      } catch {} // gone between the read of its stat and of its command line
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
