import { readdirSync, readFileSync } from 'node:fs'

/**
 * The command lines of the processes this one starts while `during` runs, sampled from /proc every 5 ms: what
 * really ran (the encoder's and decoders' arguments), not what a function says it would run.
 */
export async function childCommands(during: Promise<unknown>): Promise<string[][]> {
  return sampleWhile(during, (pid) => statField(pid, 1) === process.pid)
}

/**
 * The command line and environment of each process this one starts while `during` runs, read once it has
 * exec'd (a child caught between fork and exec still shows this process's own).
 */
export async function childProcesses(during: Promise<unknown>): Promise<Started[]> {
  return sampleWhile(during, (pid) => statField(pid, 1) === process.pid, startedAs(readFileSync('/proc/self/cmdline', 'utf8')))
}

/** As `childProcesses`, for the processes that start in process group `pgid` (a render process's) meanwhile. */
export async function groupProcesses(pgid: number, during: Promise<unknown>): Promise<Started[]> {
  const inGroup = (pid: string) => statField(pid, 2) === pgid
  const before = new Set(pids().filter(inGroup))
  return sampleWhile(during, (pid) => !before.has(pid) && inGroup(pid), startedAs(readFileSync(`/proc/${pgid}/cmdline`, 'utf8')))
}

type Started = { cmd: string[]; env: string[] }

/**
 * Reads a process's command line and environment once it has exec'd: not its parent's (`parentCmd`) any more, and
 * not empty (it reads empty for a moment during exec).
 */
const startedAs = (parentCmd: string) => (pid: string) => {
  const cmd = readFileSync(`/proc/${pid}/cmdline`, 'utf8')
  return cmd === parentCmd || cmd === '' ? undefined : { cmd: cmd.split('\0'), env: readFileSync(`/proc/${pid}/environ`, 'latin1').split('\0') }
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

const commandLine = (pid: string) => readFileSync(`/proc/${pid}/cmdline`, 'utf8').split('\0')

/**
 * What `read` says of each process `wanted` picks (its command line by default), sampled from /proc every 5 ms
 * while `during` runs; a process `read` has nothing for yet is asked again at the next sample.
 */
async function sampleWhile<T = string[]>(
  during: Promise<unknown>,
  wanted: (pid: string) => boolean,
  read: (pid: string) => T | undefined = commandLine as never,
): Promise<T[]> {
  const seen = new Map<string, T>()
  const scan = () => {
    for (const pid of pids()) {
      if (seen.has(pid) || !wanted(pid)) continue
      try {
        const value = read(pid)
        if (value !== undefined) seen.set(pid, value)
      } catch {} // gone between the read of its stat and of the rest
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
