import { spawn } from 'node:child_process'
import { symlinkSync, writeFileSync } from 'node:fs'
import { join } from 'node:path'
import { tempDir } from './media.js'
import type { Runnable } from './runnable.js'
import { root } from './serve-child.js'

/**
 * What the compiler says of the TypeScript examples, type-checked as an app's code against reelforge's own types
 * with the checkout's compiler options: `''` when they compile. One program for all of them, for speed, so a
 * name one example declares (`declare module 'reelforge'`) is known to the others too.
 */
export async function typeErrors(blocks: Runnable[]): Promise<string> {
  const dir = tempDir('reelforge-docs-types-')
  symlinkSync(join(root, 'node_modules'), join(dir, 'node_modules'))
  writeFileSync(join(dir, 'package.json'), JSON.stringify({ type: 'module' }))
  const files = blocks.map((b, i) => (writeFileSync(join(dir, `example-${i}.ts`), b.code), `example-${i}.ts`))
  const paths = { reelforge: [join(root, 'index.ts')], 'reelforge/kit': [join(root, 'kit.ts')] }
  writeFileSync(
    join(dir, 'tsconfig.json'),
    JSON.stringify({ extends: join(root, 'tsconfig.json'), compilerOptions: { rootDir: '/', paths }, include: files, exclude: [] }),
  )
  const tsc = spawn(process.execPath, [join(root, 'node_modules/typescript/bin/tsc'), '-p', dir], { cwd: dir, stdio: ['ignore', 'pipe', 'pipe'] })
  let output = ''
  tsc.stdout!.on('data', (d) => (output += d))
  tsc.stderr!.on('data', (d) => (output += d))
  await new Promise((resolve) => tsc.on('close', resolve))
  // Each error at its line in the document: a block's first line is the one after its fence.
  const atDocument = (i: string, line: string, col: string) => {
    const [file, fence] = blocks[Number(i)]!.where.split(':')
    return `${file}:${Number(fence) + Number(line)}:${col}`
  }
  return output.replace(/example-(\d+)\.ts\((\d+),(\d+)\)/g, (_, i, line, col) => atDocument(i, line, col)).trim()
}
