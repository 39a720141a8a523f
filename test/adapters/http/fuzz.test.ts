import fc from 'fast-check'
import { suite } from 'uvu'
import * as assert from 'uvu/assert'
import { createRenderer, RenderError } from '../../../index.js'
import { testService } from '../../helpers/service.js'

/**
 * Property-based fuzzing of the edit schema and every /v1 route: valid bodies with one part replaced by
 * something hostile (wrong types, huge numbers, "NaN" strings, deep nesting, giant strings, unicode), plus
 * wholly random JSON. The properties: no 5xx, no crash, and every error names the field it is about.
 */
const RUNS = Number(process.env.FUZZ_RUNS ?? 10_000)

const VALID_EDIT = {
  timeline: {
    background: '#000000',
    fonts: [{ src: 'https://93.184.215.14/font.ttf' }],
    soundtrack: { src: 'https://93.184.215.14/music.mp3', effect: 'fadeOut', volume: 0.5 },
    tracks: [
      {
        clips: [
          {
            asset: { type: 'title', text: 'Hello', style: 'minimal', size: 'small' },
            start: 0,
            length: 2,
            transition: { in: 'fade', out: 'slideLeft' },
            effect: 'zoomIn',
            filter: 'greyscale',
            opacity: [{ from: 0, to: 1, start: 0, length: 1, interpolation: 'bezier', easing: 'easeInOutCubic' }],
            offset: { x: 0.1, y: -0.1 },
            transform: { rotate: { angle: 15 } },
          },
        ],
      },
      {
        clips: [
          { asset: { type: 'image', src: 'https://93.184.215.14/a.png' }, start: 'auto', length: 'end', fit: 'cover', scale: 0.5, position: 'topLeft' },
          { asset: { type: 'video', src: 'https://93.184.215.14/v.mp4', trim: 1, volume: 0.5, speed: 1.5 }, start: 2, length: 3 },
        ],
      },
      {
        clips: [
          { asset: { type: 'html', html: '<p>x</p>', css: 'p { color: red }', width: 200, height: 100 }, start: 0, length: 1 },
          { asset: { type: 'rich-text', text: 'R', font: { family: 'Roboto', size: 40 }, animation: { preset: 'fadeIn' } }, start: 1, length: 1 },
        ],
      },
    ],
  },
  output: { format: 'mp4', resolution: 'sd', fps: 25, quality: 'medium', range: { start: 0, length: 2 } },
  merge: [{ find: 'NAME', replace: 'World' }],
}

const hostile = fc.oneof(
  fc.constantFrom(
    null,
    true,
    false,
    0,
    -1,
    1e308,
    -1e308,
    Number.MAX_SAFE_INTEGER,
    2 ** 53 + 1,
    0.1 + 0.2,
    'NaN',
    'Infinity',
    '-Infinity',
    '1e309',
    '',
    ' ',
    '__proto__',
    'constructor',
    '\u0000',
    '\uFEFF',
    '💥🎬',
    'ﷺ'.repeat(50),
    '{{ X }}',
    'alias://nope',
    'auto',
    'end',
    '#zzz',
    '../../etc/passwd',
    'file:///etc/passwd',
    'javascript:alert(1)',
    [],
    {},
    [[[]]],
    { __proto__: { polluted: true } },
  ),
  fc.integer(),
  fc.double(),
  fc.string({ maxLength: 40 }),
  fc.string({ unit: 'binary', maxLength: 40 }),
  fc.nat({ max: 200_000 }).map((n) => 'x'.repeat(n)),
  fc.integer({ min: 1, max: 3000 }).map((depth) => JSON.parse('['.repeat(depth) + ']'.repeat(depth))),
  fc.nat({ max: 1000 }).map((depth) => JSON.parse(`${'{"a":'.repeat(depth)}1${'}'.repeat(depth)}`)),
  fc.array(fc.anything({ maxDepth: 2 }), { maxLength: 5 }),
  fc.anything({ maxDepth: 3, withNullPrototype: true, withObjectString: true }),
)

type Path = (string | number)[]
/** Every path into a JSON value (objects, arrays and leaves). */
function paths(value: unknown, at: Path = []): Path[] {
  const out: Path[] = [at]
  if (Array.isArray(value)) value.forEach((v, i) => out.push(...paths(v, [...at, i])))
  else if (value && typeof value === 'object') for (const [k, v] of Object.entries(value)) out.push(...paths(v, [...at, k]))
  return out
}

/** `base` with the value at one path replaced, deleted, or given an unknown sibling key. */
const mutated = (base: object) => {
  const all = paths(base)
  return fc
    .tuple(fc.nat({ max: all.length - 1 }), fc.constantFrom('replace', 'replace', 'replace', 'delete', 'add'), hostile, fc.string({ maxLength: 12 }))
    .map(([i, how, value, key]) => {
      const copy = structuredClone(base) as Record<string | number, unknown>
      const path = all[i]!
      if (path.length === 0) return how === 'add' ? { ...copy, [key]: value } : value
      let parent = copy as Record<string | number, unknown>
      for (const p of path.slice(0, -1)) parent = parent[p] as Record<string | number, unknown>
      const last = path[path.length - 1]!
      if (how === 'delete') Array.isArray(parent) ? parent.splice(Number(last), 1) : delete parent[last]
      else if (how === 'add' && parent[last] && typeof parent[last] === 'object' && !Array.isArray(parent[last]))
        (parent[last] as Record<string, unknown>)[key] = value
      else parent[last] = value
      return copy
    })
}

const schema = suite('fuzz: the edit schema')
schema(`${RUNS} mutated edits: validate() returns or throws E_TIMELINE_INVALID with a path on every issue, never anything else`, () => {
  const renderer = createRenderer()
  let invalid = 0
  fc.assert(
    fc.property(fc.oneof({ weight: 9, arbitrary: mutated(VALID_EDIT) }, { weight: 1, arbitrary: fc.anything() }), (input) => {
      try {
        renderer.validate(input)
      } catch (e) {
        if (!(e instanceof RenderError) || e.code !== 'E_TIMELINE_INVALID') throw e
        const issues = (e.data?.issues ?? []) as { path: string; message: string }[]
        assert.ok(issues.length > 0, 'lists its issues')
        for (const i of issues) assert.ok(typeof i.path === 'string' && i.message.length > 0, JSON.stringify(i))
        // Only a body that is not an edit at all may blame the root.
        if (input && typeof input === 'object' && !Array.isArray(input))
          assert.ok(
            issues.every((i) => i.path !== ''),
            JSON.stringify(issues).slice(0, 300),
          )
        invalid++
      }
    }),
    { numRuns: RUNS },
  )
  assert.ok(invalid > RUNS / 3, `most mutations are invalid (${invalid}/${RUNS}), so the property was exercised`)
})
schema.run()

const routes = suite('fuzz: every /v1 route')
routes(`${RUNS} hostile requests across the routes: no 5xx, the one error shape, field paths on validation errors`, async () => {
  // Batch items wait for rate-limit slots rather than fail; generous limits keep the run from pacing itself.
  const svc = await testService({ credits: 1_000_000, config: { rateLimits: { flux: 100_000, 'stable-diffusion': 100_000, 'dall-e-3': 100_000 } } })
  const admin = (await svc.keys.create({ admin: true, accountId: svc.liveAccount })).key
  const job = (await svc.call('POST', '/v1/render', { body: { timeline: VALID_EDIT.timeline, output: { format: 'mp4', size: { width: 64, height: 64 } } } }))
    .body.jobId as string
  const bodies: [string, string, object, string?][] = [
    ['POST', '/v1/render', VALID_EDIT],
    [
      'POST',
      '/v1/stitch',
      {
        clips: [{ src: 'https://93.184.215.14/a.mp4', trim: 1, length: 2 }],
        output: { format: 'mp4', resolution: 'sd' },
        callback: 'https://93.184.215.14/cb',
      },
    ],
    ['POST', '/v1/ai/image', { prompt: 'a kite', model: 'stable-diffusion', width: 512, height: 512, style: 'artistic', negative_prompt: 'text', steps: 30 }],
    [
      'POST',
      '/v1/ai/image/batch',
      {
        requests: [
          { prompt: 'a', width: 512, height: 512 },
          { prompt: 'b', model: 'dall-e-3', style: 'vivid', width: 512, height: 512 },
        ],
      },
    ],
    ['PUT', '/v1/webhooks', { url: 'https://93.184.215.14/hook', events: ['render.complete', 'wallet.deposit'], secret: 's'.repeat(24) }],
    ['PUT', '/v1/wallet/threshold', { low_balance_threshold: 100 }],
    ['POST', '/v1/wallet/deposits', { amount: 100, account_id: svc.liveAccount, note: 'fuzz' }, admin],
  ]
  const gets = [
    '/v1/render/',
    '/v1/ai/image/',
    '/v1/ai/image/batch/',
    '/v1/files/',
    '/v1/webhooks/deliveries?status=',
    '/v1/wallet/ledger?limit=',
    '/v1/wallet/ledger?before=',
    '/v1/webhooks/deliveries/',
  ]
  const request = fc.oneof(
    {
      weight: 8,
      arbitrary: fc
        .nat({ max: bodies.length - 1 })
        .chain((i) => mutated(bodies[i]![2]).map((body) => ({ method: bodies[i]![0], path: bodies[i]![1], body: JSON.stringify(body), key: bodies[i]![3] }))),
    },
    {
      weight: 1,
      arbitrary: fc
        .tuple(fc.constantFrom(...bodies), fc.string({ unit: 'binary', maxLength: 200 }))
        .map(([[method, path], raw]) => ({ method, path, body: raw, key: undefined })),
    },
    {
      weight: 2,
      arbitrary: fc
        .tuple(fc.constantFrom(...gets), fc.oneof(fc.string({ unit: 'binary', maxLength: 60 }), fc.constant(job), fc.uuid()))
        .map(([path, id]) => ({ method: 'GET', path: path + encodeURIComponent(id), body: undefined, key: undefined })),
    },
  )
  const statuses = new Map<number, number>()
  await fc.assert(
    fc.asyncProperty(request, async ({ method, path, body, key }) => {
      const res = await svc.app.request(path, { method, body, headers: { authorization: `Bearer ${key ?? svc.live}`, 'content-type': 'application/json' } })
      statuses.set(res.status, (statuses.get(res.status) ?? 0) + 1)
      const text = await res.text()
      assert.ok(res.status < 500, `${method} ${path} → ${res.status} ${text.slice(0, 300)}`)
      if (res.status >= 400) {
        const err = JSON.parse(text).error
        assert.type(err.code, 'string')
        assert.ok(err.message.length > 0)
        if (['E_VALIDATION', 'E_TIMELINE_INVALID', 'E_LIMIT_EXCEEDED', 'E_INPUT_LIMIT'].includes(err.code)) {
          assert.ok(
            err.issues.length > 0 && err.issues.every((i: { path: unknown; message: string }) => typeof i.path === 'string' && i.message.length > 0),
            text.slice(0, 300),
          )
        }
      }
    }),
    { numRuns: RUNS },
  )
  console.log(
    `  statuses: ${[...statuses]
      .sort(([a], [b]) => a - b)
      .map(([s, n]) => `${s}×${n}`)
      .join(' ')}`,
  )
  assert.ok(
    [...statuses.keys()].some((s) => s < 300),
    'some requests succeeded',
  )
  assert.ok((statuses.get(400) ?? 0) > RUNS / 4, 'most were refused with 400')
  await svc.close()
})
routes.run()
