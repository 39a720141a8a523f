// `npm run gen:types`: writes core/schema/edit-{type,assets,names}.ts (see edit-type-source.mts for why and how).
import { writeFileSync } from 'node:fs'
import { relative } from 'node:path'
import { editTypeFiles } from './edit-type-source.mjs'

for (const [path, text] of Object.entries(editTypeFiles())) {
  writeFileSync(path, text)
  console.log(`wrote ${relative(process.cwd(), path)}`)
}
