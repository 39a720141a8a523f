import { copyFile } from 'node:fs/promises'
import { extname, join } from 'node:path'
import { uuidv7 } from '../lib/ids.js'
import { fileUrl, type ServiceConfig } from '../config.js'
import type { Storage } from '../storage/storage.js'
import { inWorkDir } from '../lib/work-dir.js'

/**
 * How a video vendor gets a start image it must fetch itself (Luma; Runway for images past its inline size):
 * the file stored as `<new id>/start.<ext>` and its public `/v1/files` URL — reachable by the vendor only when
 * the service's base URL is public (`REELFORGE_BASE_URL`).
 */
export const publishToStorage =
  (storage: Storage, config: ServiceConfig) =>
  (path: string): Promise<string> =>
    inWorkDir(config, 'publish-', async (dir) => {
      const key = `${uuidv7()}/start${extname(path) || '.png'}`
      const copy = join(dir, 'start')
      await copyFile(path, copy) // put moves its file: the job keeps its own
      await storage.put(key, copy)
      return fileUrl(config, key)
    })
