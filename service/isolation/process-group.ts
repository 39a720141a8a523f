import { readdirSync, readFileSync } from 'node:fs'
import { readdir, readFile } from 'node:fs/promises'

// A render process leads its own process group (it is forked `detached`): every ffmpeg, ffprobe and Xvfb it starts
// joins the group, so the group is the unit that is measured and killed.

/** Kills a process group with SIGKILL — the process and everything it started (never asked: a stuck one cannot listen). */
export function killGroup(pid: number | undefined): void {
  if (!pid) return
  try {
    process.kill(-pid, 'SIGKILL')
  } catch {
    try {
      process.kill(pid, 'SIGKILL') // not a group leader (an old process): the process alone
    } catch {}
  }
}

/**
 * True while any process of the group is alive. A killed process whose parent died first is a zombie until
 * init reaps it (some container inits never do): it holds nothing and runs nothing, so it does not count.
 */
export function groupAlive(pid: number): boolean {
  try {
    process.kill(-pid, 0)
  } catch (e) {
    return (e as NodeJS.ErrnoException).code === 'EPERM'
  }
  return groupMembers(pid).some((m) => m.state !== 'Z')
}

/** Members of group `pgid` with their state letter (R, S, D, Z…), read from /proc (Linux). */
function groupMembers(pgid: number): { pid: number; state: string }[] {
  let names: string[]
  try {
    names = readdirSync('/proc')
  } catch {
    return [{ pid: pgid, state: '?' }] // no /proc: only kill(0) can tell, and it said yes
  }
  const members: { pid: number; state: string }[] = []
  for (const name of names) {
    if (!/^\d+$/.test(name)) continue
    try {
      const stat = readFileSync(`/proc/${name}/stat`, 'latin1')
      const f = stat.slice(stat.lastIndexOf(')') + 2).split(' ')
      if (Number(f[2]) === pgid) members.push({ pid: Number(name), state: f[0]! })
    } catch {} // it ended while we looked
  }
  return members
}

const PAGE = 4096

/**
 * Resident memory of every process in group `pgid`, in bytes, read from /proc (Linux). Undefined where there is
 * no /proc: the ceiling is not enforced there.
 */
export async function groupRssBytes(pgid: number): Promise<number | undefined> {
  let names: string[]
  try {
    names = await readdir('/proc')
  } catch {
    return undefined
  }
  const sizes = await Promise.all(
    names.map(async (name) => {
      if (!/^\d+$/.test(name)) return 0
      try {
        const stat = await readFile(`/proc/${name}/stat`, 'latin1')
        // "pid (comm) state ppid pgrp … rss": comm may hold spaces and parentheses, so count from its last ')'.
        const f = stat.slice(stat.lastIndexOf(')') + 2).split(' ')
        return Number(f[2]) === pgid ? Number(f[21]) * PAGE : 0
      } catch {
        return 0 // it ended while we looked
      }
    }),
  )
  return sizes.reduce((a, b) => a + b, 0)
}

/** The pids of group `pgid` that are alive (not zombies): tests, and a service looking for what a render left. */
export async function groupPids(pgid: number): Promise<number[]> {
  return groupMembers(pgid)
    .filter((m) => m.state !== 'Z')
    .map((m) => m.pid)
}
