import { spawnSync } from 'node:child_process'
import { test } from 'uvu'
import * as assert from 'uvu/assert'
import { defaultConfig } from '../../service/config.js'
import { tempDir } from '../helpers/media.js'
import { cliArgs, createKey, freePort, root, startCli, stop } from '../helpers/serve-child.js'

// `reelforge serve --shotstack --y-axis up` as typed: the flags (not the environment, emptied here) turn
// Shotstack's surface on and set /v1's offset convention; a bad value stops the start before it listens.

const noEnv = { REELFORGE_SHOTSTACK: '', REELFORGE_Y_AXIS: '' }

test('--shotstack serves the Edit API with x-api-key; --y-axis up is the /v1 convention /v1/me reports', async () => {
  const data = tempDir('reelforge-serve-flags-')
  const key = createKey(data)
  const port = await freePort()
  const args = ['serve', '--port', String(port), '--data', data, '--shotstack', '--y-axis', 'up']
  const { child } = await startCli(args, noEnv, /listening on http:\/\/127\.0\.0\.1:\d+/, 20_000)
  try {
    const base = `http://127.0.0.1:${port}`
    const me = (await (await fetch(`${base}/v1/me`, { headers: { authorization: `Bearer ${key}` } })).json()) as any
    assert.is(me.y_axis, 'up')
    const templates = await fetch(`${base}/edit/v1/templates`, { headers: { 'x-api-key': key } })
    assert.is(templates.status, 200)
    assert.equal(((await templates.json()) as any).response.templates, [])
  } finally {
    await stop(child)
  }
})

test('a bad --y-axis exits 64 with the usage; a bad REELFORGE_Y_AXIS exits 1 naming it (nothing listens)', () => {
  const run = (args: string[], env: Record<string, string>) =>
    // The timeout turns a server that wrongly starts into a failure rather than a hang.
    spawnSync(process.execPath, cliArgs('serve', '--port', '0', '--data', tempDir('reelforge-serve-bad-'), ...args), {
      cwd: root,
      encoding: 'utf8',
      env: { ...process.env, ...noEnv, ...env },
      timeout: 20_000,
    })
  const flag = run(['--y-axis', 'sideways'], {})
  assert.is(flag.status, 64, flag.stderr)
  assert.match(flag.stderr, /--y-axis must be down or up, not sideways/)
  assert.match(flag.stderr, /usage: reelforge serve/)
  const env = run([], { REELFORGE_Y_AXIS: 'sideways' })
  assert.is(env.status, 1, env.stderr)
  assert.match(env.stderr, /REELFORGE_Y_AXIS must be down or up \(got "sideways"\)/)
})

test('REELFORGE_Y_AXIS and REELFORGE_SHOTSTACK are what the service config reads when no flag is given', () => {
  const saved = { y: process.env.REELFORGE_Y_AXIS, s: process.env.REELFORGE_SHOTSTACK }
  try {
    Object.assign(process.env, { REELFORGE_Y_AXIS: 'up', REELFORGE_SHOTSTACK: '1' })
    assert.equal([defaultConfig().yAxis, defaultConfig().shotstack], ['up', true])
    Object.assign(process.env, { REELFORGE_Y_AXIS: '', REELFORGE_SHOTSTACK: '' })
    assert.equal([defaultConfig().yAxis, defaultConfig().shotstack], ['down', false], "the seed's defaults")
  } finally {
    for (const [name, value] of [
      ['REELFORGE_Y_AXIS', saved.y],
      ['REELFORGE_SHOTSTACK', saved.s],
    ] as const)
      if (value === undefined) delete process.env[name]
      else process.env[name] = value
  }
})

test.run()
