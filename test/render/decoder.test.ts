// The video decoder's transports: frames over a Unix socket into reused buffers, and stdout where no socket
// can be made. Real ffmpeg, a source whose frames carry their index.
import { readdirSync } from 'node:fs'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { suite } from 'uvu'
import * as assert from 'uvu/assert'
import { RawVideoDecoder } from '../../core/index.js'
import { indexedVideo, readIndex, tempDir } from '../helpers/media.js'

const dir = tempDir()
let src = ''
const W = 160,
  H = 40

/** Reads `count` frames (waiting `pauseMs` between them, so reading pauses at the read-ahead bound) and returns their indices. */
async function indices(decoder: RawVideoDecoder, count: number, pauseMs = 0): Promise<(number | null)[]> {
  const out: (number | null)[] = []
  for (let k = 0; k < count; k++) {
    const data = await decoder.frame(k)
    out.push(data ? readIndex({ width: W, frame: () => data }, 0, 0, 20, 20) : null)
    if (pauseMs) await new Promise((r) => setTimeout(r, pauseMs))
  }
  return out
}

/**
 * Runs `fn` with a TMPDIR of its own (the other lane's decoders make socket directories in /tmp meanwhile), giving
 * it a lister of the decoder directories in there.
 */
async function inOwnTmp(fn: (ours: () => string[]) => Promise<void>) {
  const saved = process.env.TMPDIR
  process.env.TMPDIR = tempDir()
  try {
    await fn(() => readdirSync(tmpdir()).filter((n) => n.startsWith('reelforge-')))
  } finally {
    if (saved === undefined) delete process.env.TMPDIR
    else process.env.TMPDIR = saved
  }
}

const decoder = suite('video decoder')
decoder.before(async () => {
  src = await indexedVideo(join(dir, 'idx.mp4'), { fps: 25, seconds: 4 })
})

decoder('every frame in order over the socket, also when reading pauses at the read-ahead bound; its socket directory goes with it', () =>
  inOwnTmp(async (ours) => {
    const d = new RawVideoDecoder({ path: src, trim: 1, speed: 1, fps: 25, width: W, height: H, label: 'clip', readAhead: 2 })
    try {
      assert.is(ours().length, 1, 'one socket directory while it runs')
      const got = await indices(d, 40, 5)
      assert.equal(
        got,
        Array.from({ length: 40 }, (_, k) => 25 + k),
      )
      // The source has 100 frames; from 1 s on, 75 remain, then the end.
      const rest = await indices(d, 80)
      assert.equal(
        rest.slice(40, 75),
        Array.from({ length: 35 }, (_, k) => 65 + k),
      )
      assert.is(rest[75], null, 'null after the last frame')
      assert.ok(d.buffersMade <= 4, `${d.buffersMade} frame buffers for 75 frames (read-ahead 2 + shown + filling)`)
      d.close()
      assert.is(ours().length, 0, 'directory removed on close')
    } finally {
      d.close()
    }
  }),
)

decoder('skipping frames reuses their buffers: never more than read-ahead + 2 made', async () => {
  const d = new RawVideoDecoder({ path: src, trim: 0, speed: 1, fps: 25, width: W, height: H, label: 'clip', readAhead: 3 })
  for (let k = 0; k < 100; k += 4) {
    const data = await d.frame(k)
    assert.is(data && readIndex({ width: W, frame: () => data }, 0, 0, 20, 20), k)
    await new Promise((r) => setTimeout(r, 30)) // the read-ahead fills, so the next request drops several at once
  }
  assert.ok(d.buffersMade <= 5, `${d.buffersMade} frame buffers`)
  d.close()
})

decoder('stdout carries the frames where no socket path fits (a long TMPDIR)', async () => {
  const long = join(dir, 'x'.repeat(120))
  const { mkdirSync } = await import('node:fs')
  mkdirSync(long, { recursive: true })
  const saved = process.env.TMPDIR
  process.env.TMPDIR = long
  try {
    const d = new RawVideoDecoder({ path: src, trim: 0, speed: 2, fps: 25, width: W, height: H, label: 'clip' })
    assert.equal(
      await indices(d, 20),
      Array.from({ length: 20 }, (_, k) => 2 * k),
    )
    d.close()
    assert.equal(readdirSync(long), [], 'no socket directory was made')
  } finally {
    if (saved === undefined) delete process.env.TMPDIR
    else process.env.TMPDIR = saved
  }
})

decoder('an unreadable source fails with the clip label; closing early leaves nothing behind', () =>
  inOwnTmp(async (ours) => {
    const bad = new RawVideoDecoder({
      path: join(dir, 'missing.mp4'),
      trim: 0,
      speed: 1,
      fps: 25,
      width: W,
      height: H,
      label: 'timeline.tracks[0].clips[2].asset.src',
    })
    try {
      await bad.frame(0)
      assert.unreachable('should fail')
    } catch (e) {
      assert.match((e as Error).message, /^timeline\.tracks\[0\]\.clips\[2\]\.asset\.src: cannot decode/)
    }
    bad.close()
    const early = new RawVideoDecoder({ path: src, trim: 0, speed: 1, fps: 25, width: W, height: H, label: 'clip' })
    early.close()
    await new Promise((r) => setTimeout(r, 100))
    assert.equal(ours(), [])
  }),
)

decoder.run()
