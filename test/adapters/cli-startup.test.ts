import { spawnSync } from 'node:child_process'
import { readFileSync, writeFileSync } from 'node:fs'
import { join } from 'node:path'
import { test } from 'uvu'
import * as assert from 'uvu/assert'
import { tempDir } from '../helpers/media.js'
import { cliArgs } from '../helpers/serve-child.js'

// A command that draws nothing starts without the renderer: headless-gl and the canvas (with the modules around
// them, ~0.5 CPU-s of imports) cost `reelforge --version`, `keys` and `wallet` as much as their own work. What a
// command loaded is read from require's cache at its exit (test/helpers/loaded-packages.cjs).

const root = new URL('../..', import.meta.url).pathname
const home = tempDir()
const RENDERER = ['@napi-rs/canvas', 'gl']
// tsx (from the sources) looks for tsconfig.json in the working folder; the service's decorators need this checkout's.
const env = { ...process.env, TSX_TSCONFIG_PATH: join(root, 'tsconfig.json') }

/** The packages `reelforge <args>` loaded, after checking it exited as `status` says. */
function loadedBy(args: string[], status = 0): string[] {
  const file = join(home, 'loaded.json')
  writeFileSync(file, '[]')
  const preload = ['--require', join(root, 'test/helpers/loaded-packages.cjs')]
  const res = spawnSync(process.execPath, [...preload, ...cliArgs(...args)], { cwd: home, env: { ...env, REELFORGE_LOADED_FILE: file }, encoding: 'utf8' })
  assert.is(res.status, status, `${args.join(' ')}: ${res.stderr}`)
  return JSON.parse(readFileSync(file, 'utf8'))
}

test('--version, --help, an unknown command, keys and wallet start without the renderer; render loads it', () => {
  const data = join(home, 'data')
  const key = /rf_\S+/.exec(spawnSync(process.execPath, cliArgs('keys', 'create', '--data', data), { cwd: home, env, encoding: 'utf8' }).stdout)?.[0]
  assert.ok(key, 'keys create printed a key')
  for (const [args, status] of [
    [['--version'], 0],
    [['--help'], 0],
    [['rendr'], 64],
    [['keys', 'list', '--data', data], 0],
    [['wallet', 'deposit', '5', '--key', key!, '--data', data], 0],
  ] as [string[], number][])
    assert.equal(
      loadedBy(args, status).filter((p) => RENDERER.includes(p)),
      [],
      args.join(' '),
    )
  const edit = {
    timeline: { tracks: [{ clips: [{ asset: { type: 'title', text: 'x' }, start: 0, length: 1 }] }] },
    output: { format: 'mp4', size: { width: 160, height: 90 }, fps: 12 },
  }
  writeFileSync(join(home, 'edit.json'), JSON.stringify(edit))
  assert.equal(
    loadedBy(['render', 'edit.json', '-o', 'edit.mp4', '-q']).filter((p) => RENDERER.includes(p)),
    RENDERER,
    'the probe can tell: render loads both',
  )
})

test.run()
