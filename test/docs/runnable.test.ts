import { readFileSync } from 'node:fs'
import { join } from 'node:path'
import { test } from 'uvu'
import * as assert from 'uvu/assert'
import { typeErrors } from '../helpers/example-types.js'
import { appFolder, documents, exampleEnv, missingLines, runBlock, runnableBlocks } from '../helpers/runnable.js'
import { freePort, root } from '../helpers/serve-child.js'

// Docs that run: every example README.md and docs/*.md mark `<!-- runnable -->` is run as a newcomer would run it —
// in a fresh folder where reelforge is installed, one example at a time — and must end with the exit status it is
// marked with (0 unless `exit=N`) and print every line of the `<!-- output -->` block after it. A document that
// drifts from the code fails here. The TypeScript examples must also compile against reelforge's types.

const found = documents().map((file) => runnableBlocks(file, readFileSync(join(root, file), 'utf8')))
const blocks = found.flatMap((f) => f.blocks)

test('the documents mark their examples well, and enough of them', () => {
  assert.equal(
    found.flatMap((f) => f.problems),
    [],
  )
  assert.ok(blocks.length >= 10, `only ${blocks.length} runnable blocks`)
  // README's three ways to use reelforge each run: the library, the command line, the service.
  const readme = blocks.filter((b) => b.where.startsWith('README.md:'))
  assert.ok(
    readme.some((b) => b.lang === 'ts' && /createRenderer/.test(b.code)),
    'README: a library example that runs',
  )
  assert.ok(
    readme.some((b) => b.lang === 'sh' && /reelforge render/.test(b.code)),
    'README: a command-line example that runs',
  )
  assert.ok(
    readme.some((b) => b.lang === 'sh' && /reelforge serve/.test(b.code) && /curl/.test(b.code)),
    'README: a service example that runs',
  )
})

test('the TypeScript examples compile, as an app that depends on reelforge compiles them', async () => {
  assert.is(await typeErrors(blocks.filter((b) => b.lang === 'ts')), '')
})

for (const block of blocks)
  test(`${block.where} (${block.lang}) runs as written`, async () => {
    const started = Date.now()
    const run = await runBlock(block, appFolder(), exampleEnv(await freePort()))
    const shown = `\n--- ${block.where}:\n${block.code}\n--- printed:\n${run.output}`
    assert.is(run.code, block.exit, `exit status ${run.code}, not ${block.exit}${shown}`)
    assert.equal(missingLines(block.expected, run.output), [], `lines it should print and did not${shown}`)
    console.log(`  ${block.where}: ${((Date.now() - started) / 1000).toFixed(1)} s`)
  })

test.run()
