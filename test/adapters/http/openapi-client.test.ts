import { mkdirSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs'
import { createServer } from 'node:http'
import type { AddressInfo } from 'node:net'
import { join } from 'node:path'
import { fileURLToPath, pathToFileURL } from 'node:url'
import { toNodeHandler } from 'h3'
import openapiTS, { astToString } from 'openapi-typescript'
import ts from 'typescript'
import { suite } from 'uvu'
import * as assert from 'uvu/assert'
import { testService } from '../../helpers/service.js'

// What docs/service.md promises a client: types generated from the live document (openapi-typescript, with its
// defaults) and an openapi-fetch client on them. The client below must type-check against those types — with
// no cast, and with a misuse refused — and then, unchanged, submit a render to a listening server and see it done.

const CLIENT = `import createClient from 'openapi-fetch'
import type { paths } from './api.js'

export async function renderAndWait(baseUrl: string, key: string) {
  const client = createClient<paths>({ baseUrl, headers: { authorization: \`Bearer \${key}\` } })
  const submitted = await client.POST('/v1/render', {
    body: {
      timeline: { tracks: [{ clips: [{ asset: { type: 'title', text: 'hello' }, start: 0, length: 1 }] }] },
      output: { format: 'mp4', size: { width: 160, height: 90 }, fps: 25 },
    },
  })
  if (!submitted.data) throw new Error(\`submit: \${JSON.stringify(submitted.error)}\`)
  const jobId: string = submitted.data.jobId
  for (;;) {
    const { data, error } = await client.GET('/v1/render/{id}', { params: { path: { id: jobId } } })
    if (!data) throw new Error(\`status: \${JSON.stringify(error)}\`)
    // @ts-expect-error: not a status the document lists (proves the types are not \`any\`)
    if (data.status === 'DONE') return data
    if (data.status === 'COMPLETE' || data.status === 'FAILED') return { jobId, status: data.status, url: data.url, error: data.error }
    await new Promise((r) => setTimeout(r, 50))
  }
}
`

const root = fileURLToPath(new URL('../../../', import.meta.url))
// Inside the repo (an ignored folder), so the client resolves openapi-fetch from its node_modules.
mkdirSync(join(root, '.test-output'), { recursive: true })
const dir = mkdtempSync(join(root, '.test-output', 'openapi-client-'))
const svc = await testService({ start: true })
const server = createServer(toNodeHandler(svc.app))
await new Promise<void>((r) => server.listen(0, '127.0.0.1', r))
const base = `http://127.0.0.1:${(server.address() as AddressInfo).port}`

const client = suite('a typed client generated from the live document')
client('openapi-typescript generates types from /v1/openapi.json, and the client type-checks on them', async () => {
  const types = astToString(await openapiTS(new URL('/v1/openapi.json', base)))
  assert.match(types, /createRender: \{/, 'operations by operationId')
  assert.match(types, /Edit: \{/, 'named components')
  writeFileSync(join(dir, 'api.d.ts'), types)
  writeFileSync(join(dir, 'client.ts'), CLIENT)
  const program = ts.createProgram([join(dir, 'client.ts')], {
    strict: true,
    noEmit: true,
    target: ts.ScriptTarget.ES2022,
    module: ts.ModuleKind.ESNext,
    moduleResolution: ts.ModuleResolutionKind.Bundler,
    lib: ['lib.es2022.d.ts', 'lib.dom.d.ts'],
    types: [],
  })
  const problems = ts.getPreEmitDiagnostics(program).map((d) => {
    const at = d.file && d.start !== undefined ? d.file.getLineAndCharacterOfPosition(d.start) : undefined
    return `${d.file?.fileName.slice(dir.length + 1) ?? ''}:${at ? at.line + 1 : ''} ${ts.flattenDiagnosticMessageText(d.messageText, '\n')}`
  })
  assert.equal(problems, [])
})
client('the same client code renders against the listening server: POST /v1/render, then GET /v1/render/{id} until COMPLETE', async () => {
  // Compiled as its user would ship it (types erased by TypeScript itself), so plain node runs it too.
  const js = ts.transpileModule(CLIENT, { compilerOptions: { target: ts.ScriptTarget.ES2022, module: ts.ModuleKind.ESNext } }).outputText
  writeFileSync(join(dir, 'client.mjs'), js)
  const { renderAndWait } = await import(pathToFileURL(join(dir, 'client.mjs')).href)
  const done = await renderAndWait(base, svc.live)
  assert.is(done.status, 'COMPLETE', JSON.stringify(done))
  assert.match(done.url, new RegExp(`/v1/files/${done.jobId}/`))
})
client.after(async () => {
  await new Promise<void>((r) => server.close(() => r()))
  server.closeAllConnections()
  await svc.close()
  rmSync(dir, { recursive: true, force: true })
})
client.run()
