import { readdirSync, readFileSync } from 'node:fs'

/** Resident memory (bytes) of a process and all its descendants, read from /proc. */
export function treeRss(root: number): number {
  const children = new Map<number, number[]>()
  for (const name of readdirSync('/proc')) {
    if (!/^\d+$/.test(name)) continue
    try {
      const stat = readFileSync(`/proc/${name}/stat`, 'utf8')
      const ppid = Number(stat.slice(stat.lastIndexOf(')') + 2).split(' ')[1])
      const list = children.get(ppid) ?? []
      list.push(Number(name))
      children.set(ppid, list)
    } catch {
      // The process ended while we looked.
    }
  }
  let total = 0
  const stack = [root]
  while (stack.length) {
    const pid = stack.pop()!
    try {
      const m = /VmRSS:\s+(\d+) kB/.exec(readFileSync(`/proc/${pid}/status`, 'utf8'))
      if (m) total += Number(m[1]) * 1024
    } catch {
      continue
    }
    stack.push(...(children.get(pid) ?? []))
  }
  return total
}
