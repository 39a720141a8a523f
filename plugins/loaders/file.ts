import { realpath, stat } from 'node:fs/promises'
import { isAbsolute, resolve, sep } from 'node:path'
import { fileURLToPath } from 'node:url'
import { defineLoaderPlugin, RenderError, type LoaderPlugin } from '../../core/index.js'

/**
 * Which local files sources may name. Absent (the library and the CLI): any file — your own edit on your own
 * machine. Set (the service): only files inside `allow`, and none when it is empty, since a timeline sent
 * over HTTP must never read the server's disk.
 */
export interface FilePolicy {
  allow: readonly string[]
}

/** A source no scheme claims (a plain path) or a `file://` URL. */
export const isLocalSource = (src: string) => src.startsWith('file://') || !/^[a-z][a-z0-9+.-]*:/i.test(src)

export const LOCAL_FILES_REFUSED = 'local files are not allowed over the API'

/** The file a local source names; relative paths resolve against the edit's folder. */
export function localPath(src: string, baseDir: string): string {
  if (!src.startsWith('file://')) return isAbsolute(src) ? src : resolve(baseDir, src)
  try {
    return fileURLToPath(src)
  } catch (e) {
    throw new RenderError('E_ASSET_UNREADABLE', `not a valid file URL: ${(e as Error).message}`)
  }
}

/**
 * Why `src` may not be read under `policy` (undefined when it may). Both sides go through realpath, so `..`,
 * symlinks and a symlinked allowed directory all judge the file actually opened. A missing file is judged by
 * its nearest existing folder, so the answer never tells whether a file outside the allow-list exists.
 */
export async function fileRefusal(src: string, policy: FilePolicy, baseDir: string): Promise<string | undefined> {
  if (!policy.allow.length) return LOCAL_FILES_REFUSED
  if (!src.startsWith('file://') && !isAbsolute(src)) return `${LOCAL_FILES_REFUSED} (except absolute paths inside the allowed directories)`
  return (await insideAllowed(await realExisting(localPath(src, baseDir)), policy)) ? undefined : `${LOCAL_FILES_REFUSED} (outside the allowed directories)`
}

async function insideAllowed(real: string, policy: FilePolicy): Promise<boolean> {
  for (const dir of policy.allow) {
    const root = await realpath(dir).catch(() => undefined)
    if (root && (real === root || real.startsWith(root.endsWith(sep) ? root : root + sep))) return true
  }
  return false
}

/** realpath of `path`, or of its nearest existing ancestor joined with the rest. */
async function realExisting(path: string): Promise<string> {
  const real = await realpath(path).catch(() => undefined)
  if (real) return real
  const parent = resolve(path, '..')
  return parent === path ? path : resolve(await realExisting(parent), path.slice(parent.length + 1))
}

/** `file://` URLs and plain paths; with a `policy`, only inside its allowed directories. */
export function fileLoader(policy?: FilePolicy): LoaderPlugin {
  return defineLoaderPlugin({
    kind: 'loader',
    name: 'file',
    priority: 0,
    test: isLocalSource,
    async load(src, ctx) {
      const refused = policy && (await fileRefusal(src, policy, ctx.baseDir))
      if (refused) throw new RenderError('E_ASSET_UNREADABLE', refused)
      let path = localPath(src, ctx.baseDir)
      const info = await stat(path).catch(() => undefined)
      if (!info?.isFile()) throw new RenderError('E_ASSET_UNREADABLE', `no such file: ${path}`)
      if (info.size > ctx.maxBytes) throw new RenderError('E_ASSET_TOO_LARGE', `${path} is ${info.size} bytes; the limit is ${ctx.maxBytes}`)
      if (policy) {
        // Hand on the real path, judged once more: a link swapped since the check above cannot redirect it.
        path = await realpath(path)
        if (!(await insideAllowed(path, policy))) throw new RenderError('E_ASSET_UNREADABLE', `${LOCAL_FILES_REFUSED} (outside the allowed directories)`)
      }
      return path
    },
  })
}
