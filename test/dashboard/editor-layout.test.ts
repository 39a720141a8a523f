import { join } from 'node:path'
import { suite } from 'uvu'
import * as assert from 'uvu/assert'
import { clipTimes } from '../../adapters/dashboard/ui/editor/clip-times.js'
import { clipBoxes, FITS } from '../../adapters/dashboard/ui/editor/layout.js'
import { outputFps, outputSize } from '../../adapters/dashboard/ui/editor/output-frame.js'
import * as core from '../../core/plan/output-size.js'
import { ASPECT_RATIOS, RESOLUTIONS } from '../../core/schema/output.js'
import { placeLayer } from '../../core/render/placement.js'
import { createRenderer } from '../../index.js'
import { builtinFits } from '../../plugins/fits/index.js'
import { solidPng, tempDir } from '../helpers/media.js'

// The editor draws a box over each object of the preview from the renderer's layout, worked out in the
// browser: the same `placeLayer`, and mirrors of the output size, the fits and each asset's own size. These
// tests hold the mirrors to the renderer: every box must be the rectangle the renderer's plan places.

const test = suite('the editor lays clips out as the renderer does')
const dir = tempDir('reelforge-editor-layout-')

// The core reads the validated output (its defaults filled in); these reads use only size, resolution, aspect and fps.
const coreSize = (o: object) => core.outputSize(o as Parameters<typeof core.outputSize>[0])
const coreFps = (o: object) => core.outputFps(o as Parameters<typeof core.outputFps>[0])

test('frame size and rate: every resolution × aspect ratio, explicit sizes, fps defaults', () => {
  for (const resolution of RESOLUTIONS)
    for (const aspectRatio of ASPECT_RATIOS) {
      const output = { format: 'mp4' as const, resolution, aspectRatio }
      assert.equal(outputSize(output), coreSize(output), `${resolution} ${aspectRatio}`)
      assert.is(outputFps(output), coreFps(output), `${resolution} fps`)
    }
  const sized = { format: 'mp4' as const, size: { width: 333, height: 201 }, fps: 30 }
  assert.equal(outputSize(sized), coreSize(sized))
  assert.is(outputFps(sized), 30)
  assert.equal(outputSize({}), coreSize({ format: 'mp4' }), 'hd when nothing is said')
})

test('the four fits give what the fit plugins give', () => {
  const cases = [
    [
      { width: 64, height: 32 },
      { width: 320, height: 180 },
    ],
    [
      { width: 1080, height: 1920 },
      { width: 1280, height: 720 },
    ],
    [
      { width: 100, height: 100 },
      { width: 50, height: 200 },
    ],
  ] as const
  for (const plugin of builtinFits)
    for (const [src, box] of cases) assert.equal(FITS[plugin.name]!(src, box), plugin.fit(src, box), `${plugin.name} ${JSON.stringify([src, box])}`)
})

/** Boxes the editor draws against the rectangles the renderer's plan places, clip by clip, at `time`. */
async function compare(edit: Record<string, unknown>, time: number, yAxis: 'down' | 'up', media: Record<string, { width: number; height: number }>) {
  const plan = await createRenderer({ cacheDir: join(dir, 'cache') }).plan(edit as never, { yAxis })
  try {
    const boxes = clipBoxes(edit, clipTimes(edit), time, yAxis, (_type, src) => media[src])
    const showing = plan.layers.filter((l) => l.start <= time && time < l.start + l.length)
    assert.is(boxes.length, showing.length, 'one box per layer that shows')
    for (const layer of showing) {
      const t = time - layer.start
      const want = placeLayer(plan.frame, layer.fitted, layer.position as never, layer.scale(t), layer.offsetX(t), layer.offsetY(t))
      const box = boxes.find((b) => `timeline.tracks[${b.ref.track}].clips[${b.ref.clip}]` === layer.path)
      assert.ok(box, `a box for ${layer.path}`)
      for (const k of ['x', 'y', 'width', 'height'] as const)
        assert.ok(Math.abs(box[k] - want[k]) < 1e-6, `${layer.path} (${layer.type}) ${k}: ${box[k]} ≠ ${want[k]}`)
    }
    // Drawn bottom first, as the plan's layers are: the top track's box comes last (it takes the clicks).
    assert.equal(
      boxes.map((b) => `timeline.tracks[${b.ref.track}].clips[${b.ref.clip}]`),
      showing.map((l) => l.path),
    )
  } finally {
    await plan.dispose()
  }
}

test('shape, title, text, rich text, html, svg and an image: positions, offsets, scales, fits, boxes, crops, keyframes; both y-axes', async () => {
  const png = await solidPng(join(dir, 'wide.png'), 64, 32, '#00ff00')
  const svg = '<svg xmlns="http://www.w3.org/2000/svg" width="40" height="20"><rect width="40" height="20" fill="blue"/></svg>'
  const clip = (asset: object, more: object = {}) => ({ clips: [{ asset, start: 0, length: 2, ...more }] })
  const edit = {
    timeline: {
      tracks: [
        clip(
          { type: 'shape', shape: 'circle', circle: { radius: 20 }, width: 60, height: 40, fill: { color: '#ff0000' } },
          { position: 'topRight', offset: { x: -0.1, y: 0.2 }, scale: 1.5 },
        ),
        clip({ type: 'title', text: 'Hi', style: 'minimal' }, { offset: { x: 0.05, y: -0.05 }, scale: 0.5 }),
        clip({ type: 'text', text: 'T', width: 200, height: 50 }, { position: 'bottomLeft', offset: { y: [{ from: 0, to: 0.2, start: 0, length: 2 }] } }),
        clip({ type: 'rich-text', text: 'R' }, { width: 300, height: 100, position: 'left' }),
        clip({ type: 'html', html: '<p>x</p>', width: 120, height: 40 }, { position: 'bottom', scale: 2 }),
        clip({ type: 'svg', src: svg }, { position: 'top', fit: 'none' }),
        clip({ type: 'image', src: png, crop: { left: 0.25 } }, { fit: 'contain', position: 'topLeft', offset: { x: 0.1 }, scale: 0.8 }),
        clip({ type: 'image', src: png }, { width: 100, height: 100, fit: 'cover', position: 'right' }),
      ],
    },
    output: { format: 'mp4', size: { width: 320, height: 180 }, fps: 25 },
  }
  const media = { [png]: { width: 64, height: 32 }, [svg]: { width: 40, height: 20 } }
  await compare(edit, 1, 'down', media)
  await compare(edit, 1, 'up', media)
})

test.run()
