// A preview session of an edit laid out at one size and scaled to another (`output.scaleTo`), as the dashboard's
// editor asks for an HD edit's frames: the frames are the `png` output's (its scale filter), scaled by one warm
// ffmpeg rather than one started per frame, and a video clip's kept frames are at the size the picture shows them,
// so the session's memory holds the whole clip. In process: real GL, real ffmpeg, the decoders and scaler seen as
// this process's children.
import { readFileSync } from 'node:fs'
import { join } from 'node:path'
import { suite } from 'uvu'
import * as assert from 'uvu/assert'
import { createRenderer, type Edit } from '../../index.js'
import { frameEdit } from '../../core/index.js'
import { childCommands } from '../helpers/children.js'
import { lavfi, tempDir } from '../helpers/media.js'
import { pixelDiff, pngPixels, previewFixture } from '../helpers/preview.js'
import { cpuTicks, pgrep, sleep, until } from '../helpers/processes.js'

const dir = tempDir('reelforge-preview-scaled-')
const renderer = createRenderer({ cacheDir: join(dir, 'cache') })
let fixture: Awaited<ReturnType<typeof previewFixture>>
const test = suite('preview session, scaled')
test.before(async () => {
  fixture = await previewFixture(dir)
})

/** `edit` laid out and drawn at 1280×720, its picture 512×288: the editor's way of asking for an HD edit. */
const scaled = (edit: object) => ({ ...edit, output: { format: 'mp4', resolution: 'hd', scaleTo: 'preview', fps: 25 } }) as unknown as Edit
const picture = (png: Uint8Array) => pngPixels(png, dir, 512, 288)

/** The still render draws at `time` (the `png` output scaling it), decoded. */
async function still(edit: Edit, time: number): Promise<Uint8Array> {
  const out = join(dir, `still-${Math.random().toString(36).slice(2)}.png`)
  await renderer.render(frameEdit(edit, time), { out })
  return picture(readFileSync(out))
}

/** The commands of ffmpegs that scale to the picture's size (the `png` output's filter). */
const scalers = (cmds: string[][]) => cmds.filter((cmd) => cmd.some((a) => a.includes('scale=512:288:flags=bicubic')))

test('frames are the png output’s scaled frames (±2 levels), all through one ffmpeg started once', async () => {
  const edit = scaled(fixture.edit())
  const session = await renderer.preview!(edit)
  try {
    assert.equal([session.state.width, session.state.height], [512, 288])
    const times = [0.04, 1.2, 3.2, 0.6, 4.5, 5.5, 2.0]
    const shown: Uint8Array[] = []
    const started = await childCommands(
      (async () => {
        for (const t of times) shown.push(await session.frame(t))
      })(),
    )
    assert.is(scalers(started).length, 1, `one scaling ffmpeg for ${times.length} frames: ${scalers(started).length}`)
    for (const [i, t] of times.entries()) {
      const { max } = pixelDiff(await picture(shown[i]!), await still(edit, t), 512)
      assert.ok(max <= 2, `t ${t}: differs from the png output's frame by up to ${max} levels`)
    }
  } finally {
    await session.close()
  }
  assert.equal(pgrep('scale=512:288', process.pid), [], 'closing the session ends its scaler')
})

/** An edit of one 1280×720 clip of `length` seconds, scaled to preview. */
async function hdClip(length: number) {
  const src = await lavfi('testsrc2=size=1280x720:rate=25:duration=4', join(dir, 'hd.mp4'), ['-c:v', 'libx264', '-g', '25', '-pix_fmt', 'yuv420p'])
  return scaled({ timeline: { tracks: [{ clips: [{ asset: { type: 'video', src }, start: 0, length }] }] } })
}
/** The clip's decoder (the sweep, reading from its start) and its command line. */
async function sweeper() {
  const [pid] = await until('the clip’s decoder', () => pgrep('hd.mp4', process.pid))
  return { pid: pid!, command: readFileSync(`/proc/${pid}/cmdline`, 'utf8') }
}

test('a 1 s HD clip fits the 128 MB a clip keeps at 1280×720: kept as drawn, its frames the render’s', async () => {
  // 26 frames at 1280×720 (3.7 MB each): 96 MB.
  const edit = await hdClip(1)
  const session = await renderer.preview!(edit)
  try {
    assert.match((await sweeper()).command, /scale=1280:720/, 'decoded at the size it is drawn')
    for (const t of [0.52, 0.04, 0.96]) {
      const { max } = pixelDiff(await picture(await session.frame(t)), await still(edit, t), 512)
      assert.ok(max <= 2, `t ${t}: differs from the render's frame by up to ${max} levels`)
    }
  } finally {
    await session.close()
  }
})

test('a 4 s HD clip is kept at the picture’s size: given a moment, jumps anywhere start no decoder', async () => {
  // 101 frames at 1280×720: 372 MB as drawn, past the 128 MB a clip keeps (36 frames); 60 MB at 512×288.
  const edit = await hdClip(4)
  const session = await renderer.preview!(edit)
  try {
    const { pid: decoder, command } = await sweeper()
    assert.match(command, /scale=512:288/, 'the decoder hands over frames at the picture’s size')
    let ticks = -1
    await until('the decoder to rest', async () => {
      const before = ticks
      await sleep(500)
      ticks = cpuTicks(decoder) ?? -2
      return ticks === before
    })
    const jumps = [3.8, 0.2, 2.52, 1.04, 3.2, 0.6, 3.96]
    const shown: Uint8Array[] = []
    const started = await childCommands(
      (async () => {
        for (const t of jumps) shown.push(await session.frame(t))
      })(),
    )
    const decoders = started.filter((cmd) => cmd.some((a) => a.endsWith('hd.mp4')))
    assert.equal(decoders, [], 'every frame came from memory')
    // Drawn from a 512×288 frame stretched to 1280×720 and scaled back: a little softer than the render's frame
    // (decoded at 1280×720) on testsrc2's hard edges, the same picture everywhere else.
    for (const [i, t] of jumps.entries()) {
      const got = await picture(shown[i]!)
      const want = await still(edit, t)
      const { mean, within } = closeness(got, want)
      assert.ok(mean < 3 && within > 0.9, `t ${t}: mean difference ${mean.toFixed(2)} levels, ${(within * 100).toFixed(1)}% within 8 levels`)
    }
  } finally {
    await session.close()
  }
})

/** The mean difference of two RGBA pictures' colour channels, and the share of channels within 8 levels. */
function closeness(a: Uint8Array, b: Uint8Array) {
  let sum = 0
  let near = 0
  let n = 0
  for (let i = 0; i < a.length; i++) {
    if (i % 4 === 3) continue
    const d = Math.abs(a[i]! - b[i]!)
    sum += d
    if (d <= 8) near++
    n++
  }
  return { mean: sum / n, within: near / n }
}

test.run()
