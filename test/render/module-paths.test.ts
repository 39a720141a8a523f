import { mkdirSync, realpathSync, symlinkSync, writeFileSync } from 'node:fs'
import { join } from 'node:path'
import { pathToFileURL } from 'node:url'
import { suite } from 'uvu'
import * as assert from 'uvu/assert'
import * as v from 'valibot'
import { defineAssetPlugin } from '../../core/index.js'
import { lavfi, tempDir } from '../helpers/media.js'
import { edit, renderAndDecode } from '../helpers/render.js'

// Node's `fs.realpathSync` (which both module loaders call) ends its walk early at a folder it has seen before when
// the process's last synchronous stat was of a socket or a FIFO: it reads that stale stat, not the folder's. A
// render that stats its frame socket synchronously then makes every later `import()` through a symlinked folder
// (pnpm's layout, `npm link`, the test tree) keep the link's path, and a CommonJS package imported that way can be
// loaded twice under two names — satori's line breaker once found its base64 decoder empty that way (html5 failed,
// one run in eight). Rendering must leave module resolution as Node documents it: real paths.
const paths = suite('module resolution after a render')
const dir = realpathSync(tempDir())

/** A package reached through a symlinked `node_modules` entry, as pnpm lays them out; returns its import specifier. */
function linkedPackage(name: string): { specifier: string; real: string } {
  const real = join(dir, 'store', name)
  mkdirSync(real, { recursive: true })
  writeFileSync(join(real, 'index.mjs'), 'export const url = import.meta.url\n')
  mkdirSync(join(dir, 'app', 'node_modules'), { recursive: true })
  symlinkSync(real, join(dir, 'app', 'node_modules', name))
  return { specifier: pathToFileURL(join(dir, 'app', 'node_modules', name, 'index.mjs')).href, real: pathToFileURL(join(real, 'index.mjs')).href }
}

/** An asset that imports a module when the render opens it — lazily, mid-render, as html5 loads satori. */
function importingAsset(specifier: string, found: string[]) {
  return defineAssetPlugin({
    kind: 'asset',
    name: 'imports-on-open',
    schema: v.looseObject({ type: v.literal('imports-on-open') }),
    async prepare() {
      return {
        size: { width: 16, height: 16 },
        static: true,
        async open() {
          found.push((await import(specifier)).url)
          return { frame: () => null, close() {} }
        },
      }
    },
  })
}

paths('a module a plugin imports through a symlink mid-render, after a video clip, resolves to its real path', async () => {
  const before = linkedPackage('before')
  assert.is((await import(before.specifier)).url, before.real, 'the control: resolved through the link before any render')
  const video = await lavfi('testsrc2=size=320x180:rate=25:duration=2', join(dir, 'clip.mp4'))
  const after = linkedPackage('after')
  const found: string[] = []
  const clips = [
    { asset: { type: 'video', src: video }, start: 0, length: 2 },
    { asset: { type: 'imports-on-open' }, start: 2, length: 0.2 },
  ]
  const { result } = await renderAndDecode(edit(clips), { plugins: [importingAsset(after.specifier, found)] })
  assert.is(result.frames, 55)
  assert.equal(found, [after.real])
})

paths.run()
