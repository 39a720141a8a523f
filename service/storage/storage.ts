import { createReadStream, createWriteStream } from 'node:fs'
import { access, constants, copyFile, mkdir, rename, rm, rmdir, stat } from 'node:fs/promises'
import { dirname, join } from 'node:path'
import type { Readable } from 'node:stream'
import { pipeline } from 'node:stream/promises'
import { storageCall, transientStorageError } from './storage-retry.js'

/** Where finished files live. Local directory by default; object storage can replace it. */
export interface Storage {
  /** Stores a local file under `key` (moving it when possible) and returns the key. */
  put(key: string, file: string): Promise<string>
  /** Size and a reader for a byte range (inclusive end), or undefined when missing. */
  open(key: string): Promise<{ size: number; mtime: Date; read(range?: { start: number; end: number }): Readable } | undefined>
  /** The local path of a stored file when the storage is local (renderers read it directly). */
  localPath(key: string): string | undefined
  remove(key: string): Promise<void>
  /** Object storage only: a URL the client PUTs a file to for `key` directly, valid `seconds` (uploads). */
  presignPut?(key: string, seconds: number): Promise<string>
  /** Resolves when files can be stored (the bucket answers these credentials; the folder is writable); throws why not. */
  check(signal?: AbortSignal): Promise<void>
}

/** Content types of the files renders, image generation and source imports store, by extension. */
export const CONTENT_TYPES: Record<string, string> = {
  mp4: 'video/mp4',
  webm: 'video/webm',
  mov: 'video/quicktime',
  gif: 'image/gif',
  jpg: 'image/jpeg',
  jpeg: 'image/jpeg',
  png: 'image/png',
  bmp: 'image/bmp',
  mp3: 'audio/mpeg',
  // Hosted sources (service/sources/sniff.ts names them by their content).
  webp: 'image/webp',
  svg: 'image/svg+xml',
  tiff: 'image/tiff',
  m4a: 'audio/mp4',
  wav: 'audio/wav',
  ogg: 'audio/ogg',
  ogv: 'video/ogg',
  flac: 'audio/flac',
  aac: 'audio/aac',
  ttf: 'font/ttf',
  otf: 'font/otf',
  woff: 'font/woff',
  woff2: 'font/woff2',
}
export const contentType = (name: string) => CONTENT_TYPES[name.split('.').pop()!.toLowerCase()] ?? 'application/octet-stream'

/** Output plugins' own files are served with the type each declares (a custom format's extension is new here). */
export function learnContentTypes(outputs: readonly { extension: string; mime: string }[]): void {
  for (const o of outputs) CONTENT_TYPES[o.extension.toLowerCase()] ??= o.mime
}

/** Keys are `<job id>/<file name>` (never `..` in the name): nothing else may reach the filesystem. */
export const STORAGE_KEY = /^[0-9a-f-]{36}\/(?!.*\.\.)[A-Za-z0-9._-]{1,100}$/

/** Files under `<root>/<job id>/<name>`; a disk that fails for a moment (a busy network mount) is tried again (`storageCall`). */
export class LocalStorage implements Storage {
  constructor(private readonly root: string) {}

  private pathOf(key: string): string {
    if (!STORAGE_KEY.test(key)) throw new Error(`invalid storage key ${key}`)
    return join(this.root, key)
  }

  async put(key: string, file: string): Promise<string> {
    const target = this.pathOf(key)
    await storageCall(async () => {
      await mkdir(dirname(target), { recursive: true })
      try {
        // Once more if the folder went in between: a neighbour's remove takes an emptied id folder with it.
        await rename(file, target).catch(async () => (await mkdir(dirname(target), { recursive: true }), await rename(file, target)))
      } catch {
        await copyFile(file, target) // another filesystem
        await rm(file, { force: true })
      }
    })
    return key
  }

  async open(key: string) {
    if (!STORAGE_KEY.test(key)) return undefined
    const path = this.pathOf(key)
    // Missing (or unreadable) is no file; a disk failing for a moment is asked again.
    const info = await storageCall(() => stat(path).catch((e) => (transientStorageError(e) ? Promise.reject(e) : undefined)))
    if (!info?.isFile()) return undefined
    return { size: info.size, mtime: info.mtime, read: (range?: { start: number; end: number }) => createReadStream(path, range) }
  }

  localPath(key: string): string | undefined {
    return STORAGE_KEY.test(key) ? this.pathOf(key) : undefined
  }

  async check(): Promise<void> {
    try {
      await mkdir(this.root, { recursive: true })
      await access(this.root, constants.W_OK)
    } catch (e) {
      throw new Error(`cannot write to ${this.root} (${(e as NodeJS.ErrnoException).code ?? (e as Error).message})`)
    }
  }

  async remove(key: string): Promise<void> {
    const path = this.pathOf(key)
    await storageCall(() => rm(path, { force: true }))
    // Keys are `<id>/<name>`: the id's folder goes with its last file, so a deleted source or render leaves
    // nothing behind; a folder still holding files stays (rmdir refuses it).
    await rmdir(dirname(path)).catch(() => {})
  }
}

/**
 * A stored file as a local path, for the renderer: the file itself for local storage, else a copy downloaded
 * once into `cacheDir` (stored files never change under a key).
 */
export async function materialize(storage: Storage, key: string, cacheDir: string): Promise<string | undefined> {
  const local = storage.localPath(key)
  if (local) return (await stat(local).catch(() => undefined))?.isFile() ? local : undefined
  if (!STORAGE_KEY.test(key)) return undefined
  const target = join(cacheDir, 'stored', key)
  if ((await stat(target).catch(() => undefined))?.isFile()) return target
  const file = await storage.open(key)
  if (!file) return undefined
  await mkdir(dirname(target), { recursive: true })
  const partial = `${target}.${process.pid}.part`
  await pipeline(file.read(), createWriteStream(partial))
  await rename(partial, target)
  return target
}

/** Drops this process's cached copy of a deleted object-storage file (`materialize`), if it has one. */
export async function forgetMaterialized(cacheDir: string, key: string): Promise<void> {
  if (STORAGE_KEY.test(key)) await rm(join(cacheDir, 'stored', key), { force: true })
}
