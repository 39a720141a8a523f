// Runs one uvu test file as uvu's own CLI would (`tsx scripts/uvu-file.mjs test/x.test.ts`): suites are queued
// while the file loads and run one after another once it has loaded. Run directly (`tsx test/x.test.ts`), uvu
// starts on a timer and a file with a top-level `await` between its suites would run them at the same time.
import { resolve } from 'node:path'
import { pathToFileURL } from 'node:url'

const file = process.argv[2]
globalThis.UVU_DEFER = 1
const uvu = await import('uvu')
globalThis.UVU_INDEX = 0
globalThis.UVU_QUEUE.push([file])
await import(pathToFileURL(resolve(file)).href)
await uvu.exec(false)
