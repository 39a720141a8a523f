import { mkdtempSync, rmSync, writeFileSync } from 'node:fs'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { createCanvas } from '@napi-rs/canvas'
import { runFfmpeg } from '../../core/index.js'

/** A temp folder removed at process exit. */
export function tempDir(prefix = 'reelforge-test-'): string {
  const dir = mkdtempSync(join(tmpdir(), prefix))
  process.once('exit', () => rmSync(dir, { recursive: true, force: true }))
  return dir
}

/** Writes a PNG of one colour (CSS colour string), optionally with a differently coloured top-left marker. */
export async function solidPng(path: string, width: number, height: number, color: string, marker?: { color: string; size: number }): Promise<string> {
  const canvas = createCanvas(width, height)
  const g = canvas.getContext('2d')
  g.fillStyle = color
  g.fillRect(0, 0, width, height)
  if (marker) {
    g.fillStyle = marker.color
    g.fillRect(0, 0, marker.size, marker.size)
  }
  writeFileSync(path, await canvas.encode('png'))
  return path
}

/** Runs an ffmpeg lavfi source into a file: `lavfi('testsrc2=s=320x240:d=2', out, ['-c:v','libx264'])`. */
export async function lavfi(source: string, out: string, extra: string[] = []): Promise<string> {
  await runFfmpeg(['-v', 'error', '-y', '-f', 'lavfi', '-i', source, ...extra, out])
  return out
}
