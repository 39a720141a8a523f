import { unlinkSync } from 'node:fs'

/**
 * Removes a Unix socket (or FIFO) by name without a stat of it, and says whether it went.
 *
 * Why not `rmSync` (nor `fs.promises.rm`, nor callback `fs.stat`/`lstat`/`rm` — all of them, on a socket or a
 * folder holding one): they stat the path first, and Node keeps that result in a process-wide array which
 * `fs.realpathSync` — both module loaders' — reads back as the mode of any folder it has cached. After a socket's
 * stat, the walk stops at the first such folder and returns the path as given: a later `import()` through a
 * symlinked folder (pnpm's layout, `npm link`) keeps the link's name, and a CommonJS package imported that way can
 * load twice under two names, one of them empty (satori's line breaker once found its base64 decoder so).
 * `unlink` takes the name away without a stat.
 */
export function removeSocket(path: string): boolean {
  try {
    unlinkSync(path)
    return true
  } catch (e) {
    return (e as NodeJS.ErrnoException).code === 'ENOENT'
  }
}
