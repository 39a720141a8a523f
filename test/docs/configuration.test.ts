import { readdirSync, readFileSync } from 'node:fs'
import { join } from 'node:path'
import { test } from 'uvu'
import * as assert from 'uvu/assert'
import { root } from '../helpers/serve-child.js'

// docs/configuration.md lists every setting reelforge reads from the environment: a variable added to the code
// and not to the list, or left in the list after the code stopped reading it, fails here.

const sources = (dir: string): string[] =>
  readdirSync(join(root, dir), { withFileTypes: true }).flatMap((e) =>
    e.isDirectory() ? sources(join(dir, e.name)) : e.name.endsWith('.ts') ? [join(dir, e.name)] : [],
  )
/** `REELFORGE_…` names in `text`; a name ending in `_` is a prefix (`REELFORGE_S3_${…}`), not a variable. */
const variables = (text: string) => [...text.matchAll(/REELFORGE_[A-Z0-9_]*[A-Z0-9]\b/g)].map((m) => m[0])

const code = new Set(
  ['core', 'plugins', 'service', 'adapters']
    .flatMap(sources)
    .concat(['index.ts', 'kit.ts'])
    .flatMap((f) => variables(readFileSync(join(root, f), 'utf8'))),
)
const documented = new Set(variables(readFileSync(join(root, 'docs/configuration.md'), 'utf8')))

test('every REELFORGE_ variable the code reads is in docs/configuration.md', () => {
  assert.equal([...code].filter((v) => !documented.has(v)).sort(), [])
})

test('docs/configuration.md lists no variable the code does not read', () => {
  assert.equal([...documented].filter((v) => !code.has(v)).sort(), [])
  assert.ok(documented.size >= 40, `${documented.size} variables`)
})

test.run()
