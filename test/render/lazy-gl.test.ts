import { readFileSync } from 'node:fs'
import { join } from 'node:path'
import { test } from 'uvu'
import * as assert from 'uvu/assert'
import { createRenderer } from '../../index.js'
import { decodeFrames, near, pixel } from '../helpers/frames.js'
import { lavfi, tempDir } from '../helpers/media.js'

// On a software rasteriser (Mesa on an Xvfb) GL opens when a frame first needs it (core/render/lazy-gpu.ts): a
// render whose frames are all made on the CPU — a Ken Burns photo, a title over it, a gap of background — never
// loads the GL driver (~40 MB of a render process); one that needs GL gets it in the middle of the render. Checked
// in this file's own process, which no other test shares: the driver's library is in its memory map or not.

// A display the user set could be a real X server (GL at once, as ever): this process starts its own Xvfb.
delete process.env.DISPLAY
const dir = tempDir('reelforge-lazy-gl-')
const renderer = createRenderer({ cacheDir: join(dir, 'cache') })
const size = { width: 320, height: 180 }
const glLoaded = () => /libGLX|swrast_dri/.test(readFileSync('/proc/self/maps', 'utf8'))
const title = (start: number, extra: object = {}) => ({
  asset: { type: 'text', text: 'On the CPU', font: { size: 28, color: '#ffee00' }, width: 300, height: 80 },
  start,
  length: 1,
  ...extra,
})

test('frames all made on the CPU never load GL; a rotated title later in another render opens it there', async () => {
  const photo = await lavfi('testsrc2=s=400x300', join(dir, 'photo.jpg'), ['-frames:v', '1', '-q:v', '2'])
  const still = { asset: { type: 'image', src: photo }, start: 0.5, length: 1, effect: 'zoomIn', transition: { in: 'fade' } }
  const cpuOnly = { timeline: { background: '#204060', tracks: [{ clips: [title(0.8)] }, { clips: [still] }] }, output: { format: 'mp4', size, fps: 12 } }
  const first = await renderer.render(cpuOnly as never, { out: join(dir, 'cpu.mp4') })
  // 22 frames: the background alone, the photo fading in, the title over it, the title alone (1.5–1.8 s).
  assert.equal([first.drawn, first.frames], [0, 22])
  assert.not.ok(glLoaded(), 'no GL driver in this process after a render that needed none')
  const x = await decodeFrames(join(dir, 'cpu.mp4'), size.width, size.height)
  assert.is(x.count, 22)
  // Frame 0: the background alone (#204060), within the encoder's loss.
  assert.ok(near(pixel(x, 0, 160, 90), [32, 64, 96], 3), `background ${pixel(x, 0, 160, 90)}`)

  // The same, with the title turned: a frame the CPU cannot make, so GL opens for it mid-render.
  const turned = {
    ...cpuOnly,
    timeline: { ...cpuOnly.timeline, tracks: [{ clips: [title(0.8, { transform: { rotate: { angle: 10 } } })] }, { clips: [still] }] },
  }
  const second = await renderer.render(turned as never, { out: join(dir, 'gl.mp4') })
  assert.ok(second.drawn >= 1 && second.drawn <= 12, `drawn ${second.drawn}`)
  assert.ok(glLoaded(), 'GL opened for the turned title')
  const y = await decodeFrames(join(dir, 'gl.mp4'), size.width, size.height)
  // Before the title (frame 8) both renders made the same frame on the CPU (the encoder's choices aside); with
  // it the turned title shows.
  const apart = (i: number) => x.frame(i).filter((v, k) => Math.abs(v - y.frame(i)[k]!) > 24).length
  assert.ok(apart(8) < 50, `frame 8: ${apart(8)} bytes apart`)
  assert.ok(apart(12) > 500, `frame 12: ${apart(12)} bytes apart where the title turned`)
})

test.run()
