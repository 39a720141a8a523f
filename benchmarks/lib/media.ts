import { existsSync, mkdirSync } from 'node:fs'
import { join } from 'node:path'
import { runFfmpeg } from '../../core/index.js'

/** Three distinct, detailed 1920x1080 JPEGs (generated once, kept in benchmarks/.media). */
export async function slideshowMedia(dir: string): Promise<string[]> {
  mkdirSync(dir, { recursive: true })
  const sources = ['testsrc2=s=1920x1080', 'mandelbrot=s=1920x1080', 'cellauto=s=1920x1080:rule=110,scale=1920x1080,hue=H=t']
  const files: string[] = []
  for (const [i, src] of sources.entries()) {
    const file = join(dir, `slide${i + 1}.jpg`)
    if (!existsSync(file)) await runFfmpeg(['-v', 'error', '-y', '-f', 'lavfi', '-i', src, '-frames:v', '1', '-q:v', '3', file])
    files.push(file)
  }
  return files
}
