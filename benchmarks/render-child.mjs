// Renders one edit file with the built library (dist/) and prints the result as JSON. It runs as a child
// under plain `node`, the production path, so its whole process tree is measured without tsx overhead.
import { readFileSync } from 'node:fs'
import { dirname } from 'node:path'
import { keepMallocSettingToSelf } from '../dist/core/index.js'
import { createRenderer } from '../dist/index.js'

// Run as `serve`'s render processes run (benchmarks/lib/timed.ts): glibc's threshold for this process, not its decoders.
keepMallocSettingToSelf()

const [file, out, baseDir] = process.argv.slice(2)
const edit = JSON.parse(readFileSync(file, 'utf8'))
const result = await createRenderer().render(edit, { out, baseDir: baseDir ?? dirname(file) })
console.log(JSON.stringify(result))
