import { mkdir, mkdtemp, rm } from 'node:fs/promises'
import { join } from 'node:path'
import { type ServiceConfig, workDir } from '../config.js'

/** A fresh folder under the service's work directory for `work`, removed after it whatever happens. */
export async function inWorkDir<T>(config: ServiceConfig, prefix: string, work: (dir: string) => Promise<T>): Promise<T> {
  await mkdir(workDir(config), { recursive: true })
  const dir = await mkdtemp(join(workDir(config), prefix))
  try {
    return await work(dir)
  } finally {
    await rm(dir, { recursive: true, force: true })
  }
}
