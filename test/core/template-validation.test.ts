import { test } from 'uvu'
import * as assert from 'uvu/assert'
import { createRenderer } from '../../index.js'
import { RenderError, type Issue } from '../../core/index.js'

// `validate(edit, { template: true })`: a placeholder without a value stands for any value its field takes,
// wherever the field is (tweens, output, an asset's own fields, the asset's type); the rest is checked as always.

const renderer = createRenderer()
const edit = (clip: Record<string, unknown>, output: Record<string, unknown> = {}) => ({
  timeline: { tracks: [{ clips: [{ asset: { type: 'image', src: 'https://example.com/a.png' }, start: 0, length: 2, ...clip }] }] },
  output: { format: 'mp4', resolution: 'sd', ...output },
})
const issuesOf = (input: unknown, opts?: { template: boolean }): Issue[] => {
  try {
    renderer.validate(input, opts)
    return []
  } catch (e) {
    assert.instance(e, RenderError)
    return (e as RenderError).data!.issues!
  }
}

test('placeholders deep in tweens, in output enums and numbers, and in an asset type stand for their field', () => {
  const deep = edit(
    {
      asset: { type: '{{ KIND }}', src: '{{ URL }}', crop: { top: '{{ CROP }}' } },
      offset: { y: [{ from: 0, to: '{{ Y }}', start: 0, length: 1, easing: '{{ EASE }}', interpolation: '{{ CURVE }}' }] },
      filter: '{{ LOOK }}',
    },
    { fps: '{{ FPS }}', quality: '{{ QUALITY }}', aspectRatio: '{{ RATIO }}' },
  )
  assert.ok(issuesOf(deep).length >= 6, 'a render refuses every one of them')
  const { open } = renderer.validate(deep, { template: true })
  const clip = 'timeline.tracks[0].clips[0]'
  assert.equal(
    [...open!].sort(),
    [
      `${clip}.asset.crop.top`,
      `${clip}.asset.src`,
      `${clip}.asset.type`,
      `${clip}.filter`,
      `${clip}.offset.y[0].easing`,
      `${clip}.offset.y[0].interpolation`,
      `${clip}.offset.y[0].to`,
      'output.aspectRatio',
      'output.fps',
      'output.quality',
    ].sort(),
  )
})

test('everything else is checked in full: real errors beside placeholders keep their paths', () => {
  const bad = edit({ length: '{{ D }}', opacity: 2, effect: 'wobble', offset: { y: [{ from: 0, to: '{{ Y }}', easing: 'sometimes' }] } }, { fps: 7 })
  const paths = issuesOf(bad, { template: true }).map((i) => i.path)
  assert.equal(paths.sort(), [
    'output.fps',
    'timeline.tracks[0].clips[0].effect',
    'timeline.tracks[0].clips[0].offset.y',
    'timeline.tracks[0].clips[0].opacity',
  ])
})

test('a placeholder cannot stand for an object or list the schema needs, nor for an asset type no type fits', () => {
  assert.equal(
    issuesOf({ timeline: { tracks: '{{ TRACKS }}' }, output: { format: 'mp4' } }, { template: true }).map((i) => i.path),
    ['timeline.tracks'],
  )
  const noType = edit({ asset: { type: '{{ KIND }}', nonsense: true, src: 7 } })
  assert.equal(
    issuesOf(noType, { template: true }).map((i) => i.path),
    ['timeline.tracks[0].clips[0].asset.type'],
  )
})

test('the values a template does carry are merged first and checked as values', () => {
  const withDefault = { ...edit({ length: '{{ D }}' }), merge: [{ find: 'D', replace: 'soon' }] }
  assert.equal(
    issuesOf(withDefault, { template: true }).map((i) => i.path),
    ['timeline.tracks[0].clips[0].length'],
  )
})

test.run()
