// Whatever a plugin's hook throws reaches the caller as one RenderError naming the clip path, the plugin and
// the hook (core/plugin-driver.ts); RenderErrors a plugin throws on purpose, and aborts, pass through as they are.
import { join } from 'node:path'
import { suite } from 'uvu'
import * as assert from 'uvu/assert'
import * as v from 'valibot'
import {
  defineAssetPlugin,
  defineEffectPlugin,
  defineLoaderPlugin,
  defineOutputPlugin,
  defineProviderPlugin,
  defineTransitionPlugin,
  RenderError,
} from '../../index.js'
import type { FilterPlugin, FitPlugin } from '../../index.js'
import { builtinPlugins, createCompositor } from '../../kit.js'
import { solidPng, tempDir } from '../helpers/media.js'
import { edit } from '../helpers/render.js'

const BOOM = 'the faulty plugin blew up'
/** The hook that throws in the next render (`effect.apply`, `frame-async`, …); the other hooks work. */
let failIn = ''
/** What a hook throws when it is `failIn`'s: a plain Error unless a test says otherwise. */
let thrown: () => unknown = () => new Error(BOOM)
const fail = (hook: string) => {
  if (failIn === hook) throw thrown()
}
/** `value`, unless `hook` is the one to fail. */
const unless = <T>(hook: string, value: () => T): T => {
  fail(hook)
  return value()
}

const faulty = defineAssetPlugin({
  kind: 'asset',
  name: 'faulty',
  schema: v.looseObject({ type: v.literal('faulty') }),
  async prepare() {
    fail('prepare')
    return {
      size: { width: 16, height: 16 },
      static: true,
      async open(gpu) {
        fail('open')
        const texture = gpu.texture(new Uint8Array(16 * 16 * 4).fill(255), 16, 16)
        return {
          frame: () => unless('frame', () => (failIn === 'frame-async' ? Promise.reject(thrown()) : texture)),
          close: () => gpu.release(texture),
        }
      },
    }
  },
})
const motion = (kind: string) => ({ apply: () => fail(`${kind}.apply`), blend: failIn === `${kind}.blend` ? () => fail(`${kind}.blend`) : undefined })
const plugins = [
  faulty,
  defineTransitionPlugin({
    kind: 'transition',
    name: 'faultyIn',
    durations: { '': 1 },
    compile: () => unless('transition.compile', () => motion('transition')),
  }),
  defineEffectPlugin({ kind: 'effect', name: 'faultyFx', compile: () => unless('effect.compile', () => motion('effect')) }),
  { kind: 'fit', name: 'contain', fit: (_src, box) => unless('fit', () => box) } satisfies FitPlugin,
  { kind: 'filter', name: 'faultyLook', glsl: 'return c +;' } satisfies FilterPlugin,
  defineLoaderPlugin({
    kind: 'loader',
    name: 'faulty',
    priority: 100,
    test: (src) => src.startsWith('faulty:') && unless('loader.test', () => true),
    load: async () => unless('loader.load', () => ''),
  }),
  defineOutputPlugin({
    kind: 'output',
    name: 'mp4',
    mime: 'video/mp4',
    extension: 'mp4',
    takes: 'video',
    async open(spec) {
      fail('output.open')
      const write = () => unless('output.write', () => (failIn === 'output.write-async' ? Promise.reject(thrown()) : undefined))
      return { write, close: async () => unless('output.close', () => ({ path: spec.path, bytes: 0 })), abort() {} }
    },
  }),
]
const dir = tempDir()
// The built-in plugins with faulty ones in place of the mp4 output, the contain fit and the flux provider.
const faultyProvider = defineProviderPlugin({
  kind: 'provider',
  name: 'faulty',
  models: ['flux'],
  generate: async () => unless('provider.generate', () => ({ data: new Uint8Array(), mime: 'image/png', provider: 'faulty', upstreamModel: 'none' })),
})
const builtins = builtinPlugins({ providers: [faultyProvider] }).filter(
  (p) => !((p.kind === 'output' && p.name === 'mp4') || (p.kind === 'fit' && p.name === 'contain')),
)
const compositor = createCompositor({ plugins: [...builtins, ...plugins], cacheDir: join(dir, 'cache') })
let png = ''

/** Renders a still image clip, then `clip` (timeline.tracks[0].clips[1]), with `failIn` set to `hook`; returns what it threw. */
async function failure(hook: string, clip: object, signal?: AbortSignal): Promise<unknown> {
  failIn = hook
  try {
    const clips = [
      { asset: { type: 'image', src: png }, start: 0, length: 0.25 },
      { start: 0.25, length: 0.5, ...clip },
    ]
    await compositor.render(edit(clips, { size: { width: 64, height: 36 }, fps: 12 }), { out: join(dir, 'out.mp4'), signal })
    return undefined
  } catch (e) {
    return e
  } finally {
    failIn = ''
  }
}
const wrapped = async (hook: string, clip: object, plugin: string, name: string, path: string, code = 'E_PLUGIN_FAILED') => {
  const e = await failure(hook, clip)
  assert.instance(e, RenderError, `${hook}: ${String(e)}`)
  const error = e as RenderError
  assert.is(error.code, code, error.message)
  assert.ok(error.message.includes(`[${plugin}] ${name}: `), error.message)
  assert.ok(error.message.includes(`timeline.tracks[0].clips[1].${path}`), error.message)
  if (code === 'E_PLUGIN_FAILED') assert.equal(error.data, { path: `timeline.tracks[0].clips[1].${path}`, plugin })
}

const errors = suite('a plain Error from any plugin hook becomes one RenderError naming clip, plugin and hook')
errors.before(async () => {
  png = await solidPng(join(dir, 'red.png'), 16, 16, '#ff0000')
})
const faultyClip = { asset: { type: 'faulty' } }
for (const hook of ['prepare', 'open', 'frame', 'frame-async']) {
  errors(`asset ${hook}`, () => wrapped(hook, faultyClip, 'asset:faulty', hook.replace('-async', ''), 'asset'))
}
for (const hook of ['compile', 'apply', 'blend']) {
  errors(`transition ${hook}`, () =>
    wrapped(`transition.${hook}`, { ...faultyClip, transition: { in: 'faultyIn' } }, 'transition:faultyIn', hook, 'transition.in'),
  )
}
for (const hook of ['compile', 'apply']) {
  errors(`effect ${hook}`, () => wrapped(`effect.${hook}`, { ...faultyClip, effect: 'faultyFx' }, 'effect:faultyFx', hook, 'effect'))
}
errors('fit', () => wrapped('fit', { ...faultyClip, fit: 'contain' }, 'fit:contain', 'fit', 'fit'))
errors('a filter whose GLSL does not compile', () => wrapped('', { ...faultyClip, filter: 'faultyLook' }, 'filter:faultyLook', 'compile', 'filter'))
errors('provider generate', () => wrapped('provider.generate', { asset: { type: 'text-to-image', prompt: 'x' } }, 'provider:faulty', 'generate', 'asset'))
for (const hook of ['test', 'load']) {
  // A loader's source may serve several clips: its failure is the asset's E_ASSET_UNREADABLE, naming src and loader.
  errors(`loader ${hook}`, () =>
    wrapped(`loader.${hook}`, { asset: { type: 'image', src: 'faulty:x.png' } }, 'loader:faulty', hook, 'asset.src', 'E_ASSET_UNREADABLE'),
  )
}
for (const hook of ['open', 'write', 'write-async', 'close']) {
  errors(`output ${hook}`, async () => {
    const e = (await failure(`output.${hook}`, faultyClip)) as RenderError
    assert.instance(e, RenderError, String(e))
    assert.is(e.code, 'E_PLUGIN_FAILED')
    assert.is(e.message, `output: [output:mp4] ${hook.replace('-async', '')}: ${BOOM}`)
  })
}

errors('a RenderError a plugin throws on purpose passes through unchanged', async () => {
  const own = new RenderError('E_ASSET_UNREADABLE', 'timeline.tracks[0].clips[1].asset.src: unreadable on purpose', {
    path: 'timeline.tracks[0].clips[1].asset.src',
  })
  thrown = () => own
  try {
    for (const hook of ['prepare', 'open', 'frame', 'effect.apply']) assert.is(await failure(hook, { ...faultyClip, effect: 'faultyFx' }), own, hook)
  } finally {
    thrown = () => new Error(BOOM)
  }
})
errors('an abort is not wrapped: it passes as it is, and a render it stops is cancelled', async () => {
  const abort = new DOMException('stopped', 'AbortError')
  let controller = new AbortController()
  thrown = () => {
    controller.abort()
    return abort
  }
  try {
    assert.is(await failure('prepare', faultyClip), abort, 'prepare')
    controller = new AbortController()
    const e = (await failure('frame', faultyClip, controller.signal)) as RenderError
    assert.is(e.code, 'E_CANCELLED', String(e))
    assert.is(e.cause, abort, 'the abort itself, not a plugin failure wrapping it')
  } finally {
    thrown = () => new Error(BOOM)
  }
})
errors.run()
