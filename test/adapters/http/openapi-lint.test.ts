import { spawnSync } from 'node:child_process'
import { mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { fileURLToPath } from 'node:url'
import { suite } from 'uvu'
import * as assert from 'uvu/assert'
import { testService } from '../../helpers/service.js'

// The document as the app serves it is what client generators and docs renderers read: it is linted with
// Redocly's CLI and the repo's redocly.yaml (every problem fails the test, and is printed), and the shapes
// generators rely on are checked: operation ids, bodies as named components, no defaults read as "always present".

const root = fileURLToPath(new URL('../../../', import.meta.url))
const svc = await testService()
const doc = (await svc.call('GET', '/v1/openapi.json', { key: null })).body
const operations = Object.entries(doc.paths).flatMap(([path, item]: [string, any]) =>
  Object.entries(item).map(([method, op]: [string, any]) => ({ what: `${method} ${path}`, op })),
)

const lint = suite('the served OpenAPI document, linted')
lint('Redocly finds no problem: 0 errors, 0 warnings', () => {
  const dir = mkdtempSync(join(tmpdir(), 'reelforge-openapi-'))
  try {
    writeFileSync(join(dir, 'openapi.json'), JSON.stringify(doc))
    const run = spawnSync(join(root, 'node_modules/.bin/redocly'), ['lint', join(dir, 'openapi.json'), '--config', 'redocly.yaml', '--format', 'json'], {
      cwd: root,
      encoding: 'utf8',
      // No telemetry and no update check: the lint reads nothing but the file.
      env: { ...process.env, REDOCLY_TELEMETRY: 'off', REDOCLY_SUPPRESS_UPDATE_NOTICE: 'true' },
      timeout: 120_000,
    })
    assert.ok(run.stdout.trim().startsWith('{'), `redocly did not report (exit ${run.status}): ${run.stderr}`)
    const report = JSON.parse(run.stdout) as { totals: { errors: number; warnings: number }; problems: any[] }
    const problems = report.problems.map((p) => `${p.severity} ${p.ruleId}: ${p.message} (${p.location?.[0]?.pointer})`)
    if (problems.length) console.log(`Redocly:\n${problems.join('\n')}`)
    assert.is(report.totals.errors, 0, `errors:\n${problems.join('\n')}`)
    assert.is(report.totals.warnings, 0, `warnings:\n${problems.join('\n')}`)
  } finally {
    rmSync(dir, { recursive: true, force: true })
  }
})
lint.run()

const shape = suite('what client generators rely on')
shape('every operation has a unique camelCase operationId; published ones keep theirs', () => {
  const ids = operations.map(({ op }) => op.operationId)
  for (const { what, op } of operations) assert.match(op.operationId ?? '', /^[a-z][A-Za-z0-9]*$/, what)
  assert.is(new Set(ids).size, ids.length, 'unique')
  const byId = Object.fromEntries(operations.map(({ what, op }) => [op.operationId, what]))
  for (const [id, what] of Object.entries({
    createRender: 'post /v1/render',
    listRenders: 'get /v1/render',
    getRender: 'get /v1/render/{id}',
    cancelRender: 'delete /v1/render/{id}',
    createStitch: 'post /v1/stitch',
    createAiSpeechJob: 'post /v1/ai/speech',
    getAiSpeechJob: 'get /v1/ai/speech/{id}',
    createAiImage: 'post /v1/ai/image',
    createKey: 'post /v1/keys',
    createWalletDeposit: 'post /v1/wallet/deposits',
    getWallet: 'get /v1/wallet',
    renderTemplate: 'post /v1/templates/{id}/render',
    replayWebhookDelivery: 'post /v1/webhooks/deliveries/{id}/replay',
    getOpenApiDocument: 'get /v1/openapi.json',
  }))
    assert.is(byId[id], what, id)
})
shape('every JSON body is a $ref to a component, and the edit is made of named parts', () => {
  const schemas = doc.components.schemas
  for (const { what, op } of operations) {
    const bodies = [op.requestBody, ...Object.values(op.responses)].map((b: any) => b?.content?.['application/json']?.schema).filter(Boolean)
    for (const body of bodies) assert.ok(schemas[body.$ref?.replace('#/components/schemas/', '')], `${what}: ${JSON.stringify(body).slice(0, 80)}`)
  }
  for (const name of ['Edit', 'Timeline', 'Track', 'Clip', 'Output', 'Asset', 'TitleAsset', 'VideoAsset', 'RichCaptionAsset', 'HtmlAsset'])
    assert.ok(schemas[name], name)
  for (const name of ['RenderStatus', 'QueuedRender', 'Image', 'Delivery', 'Error', 'AiJob', 'Source', 'Template', 'Wallet', 'Key'])
    assert.ok(schemas[name], name)
  assert.equal(schemas.Edit.properties.timeline, { $ref: '#/components/schemas/Timeline' })
  assert.equal(schemas.Clip.properties.asset, { $ref: '#/components/schemas/Asset' })
  const mapping = schemas.Asset.discriminator.mapping
  assert.ok(Object.keys(mapping).length >= 16, 'every asset type')
  assert.equal(
    schemas.Asset.oneOf,
    Object.values(mapping).map(($ref) => ({ $ref })),
  )
})
shape('no `default` keyword (generators would type the field as always present); the default is said instead', () => {
  const found: string[] = []
  const walk = (node: unknown, at: string): void => {
    if (!node || typeof node !== 'object') return
    if ('default' in node && !at.endsWith('/properties')) found.push(at)
    for (const [k, v] of Object.entries(node)) walk(v, `${at}/${k}`)
  }
  walk(doc.components.schemas, '#/components/schemas')
  assert.equal(found, [])
  assert.equal(doc.components.schemas.Edit.required, ['timeline'])
  assert.match(doc.components.schemas.Output.properties.format.description, /Default: `"mp4"`/)
})
shape('non-JSON answers say their media type: the events stream is SSE, a frame is PNG bytes', () => {
  // A generator reading application/json here would parse a stream or an image as JSON.
  const media = (what: string) => operations.find((o) => o.what === what)!.op.responses['200'].content
  assert.equal(media('get /v1/render/{id}/events'), { 'text/event-stream': { schema: { type: 'string' } } })
  assert.equal(media('post /v1/render/frame'), { 'image/png': { schema: { type: 'string', format: 'binary' } } })
})
shape('the main operations have examples, and the license is the package’s', async () => {
  const example = (what: string, where: (op: any) => any) => Object.values(where(operations.find((o) => o.what === what)!.op)?.examples ?? {}) as any[]
  const json = (b: any) => b.content['application/json']
  for (const [what, status] of [
    ['post /v1/render', 201],
    ['get /v1/render/{id}', 200],
    ['post /v1/keys', 201],
    ['post /v1/wallet/deposits', 201],
  ] as const)
    assert.ok(example(what, (op) => json(op.responses[status])).length, `${what}: ${status} example`)
  for (const what of ['post /v1/render', 'post /v1/keys', 'post /v1/wallet/deposits'])
    assert.ok(example(what, (op) => json(op.requestBody)).length, `${what}: request example`)
  // The render example is one a reader can send as it is.
  const [edit] = example('post /v1/render', (op) => json(op.requestBody))
  const sent = await svc.call('POST', '/v1/render', { body: edit.value })
  assert.is(sent.status, 201, JSON.stringify(sent.body))
  assert.is(doc.info.license.name, JSON.parse(readFileSync(join(root, 'package.json'), 'utf8')).license)
})
shape.after(() => svc.close())
shape.run()
