import { execFileSync } from 'node:child_process'
import { readFileSync } from 'node:fs'

/** Process ids matching `pattern` (pgrep -f), children of `parent` when given. */
export const pgrep = (pattern: string, parent?: number): number[] => {
  try {
    return execFileSync('pgrep', [...(parent ? ['-P', String(parent)] : []), '-f', pattern], { encoding: 'utf8' })
      .trim()
      .split('\n')
      .filter(Boolean)
      .map(Number)
  } catch {
    return []
  }
}

export const sleep = (ms: number) => new Promise((r) => setTimeout(r, ms))

/** Polls `get` every 50 ms until it gives something (not undefined, false or an empty list); throws after `timeoutMs`. */
export async function until<T>(what: string, get: () => T | undefined | Promise<T | undefined>, timeoutMs = 30_000): Promise<T> {
  for (const end = Date.now() + timeoutMs; Date.now() < end; await sleep(50)) {
    const v = await get()
    if (v !== undefined && v !== false && !(Array.isArray(v) && !v.length)) return v
  }
  throw new Error(`timed out after ${timeoutMs} ms waiting for ${what}`)
}

/** The render processes (`render-child`) this test process started. */
export const renderChildren = () => pgrep('render-child', process.pid)

/** True while process `pid` runs (a zombie, killed and waiting to be reaped, does not). */
export function running(pid: number): boolean {
  try {
    const stat = readFileSync(`/proc/${pid}/stat`, 'latin1')
    return stat.slice(stat.lastIndexOf(')') + 2)[0] !== 'Z'
  } catch {
    return false
  }
}

/** CPU ticks (user + system) process `pid` has used, or undefined once it is gone. */
export function cpuTicks(pid: number): number | undefined {
  try {
    const stat = readFileSync(`/proc/${pid}/stat`, 'latin1')
    const fields = stat.slice(stat.lastIndexOf(')') + 2).split(' ')
    return Number(fields[11]) + Number(fields[12])
  } catch {
    return undefined
  }
}
