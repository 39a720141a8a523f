import { chmodSync, readFileSync, writeFileSync } from 'node:fs'
import { join } from 'node:path'
import { test } from 'uvu'
import * as assert from 'uvu/assert'
import { ffmpegArgs, probe, runFfmpeg } from '../../core/index.js'
import { tempDir } from '../helpers/media.js'

// Probe results are kept per unchanged file: a source drawn by render after render (or by several clips) is read
// by ffprobe once. Counted with a real ffprobe behind a wrapper that notes each start (REELFORGE_FFPROBE).

const dir = tempDir('reelforge-probe-memo-')
const runs = join(dir, 'runs')
const wrapper = join(dir, 'ffprobe.sh')
writeFileSync(wrapper, `#!/bin/sh\necho run >> '${runs}'\nexec ffprobe "$@"\n`)
chmodSync(wrapper, 0o755)
const count = () => readFileSync(runs, 'utf8').split('\n').filter(Boolean).length

test('an unchanged file is probed once; a rewritten one again; countFrames always runs', async () => {
  const clip = join(dir, 'clip.mp4')
  await runFfmpeg(ffmpegArgs`-v error -y -f lavfi -i testsrc2=s=64x36:r=10:d=1 -c:v libx264 ${clip}`)
  writeFileSync(runs, '')
  process.env.REELFORGE_FFPROBE = wrapper
  try {
    const first = await probe(clip)
    first.streams[0]!.width = 1 // a caller's copy: changing it must not change the next answer
    const second = await probe(clip)
    assert.is(count(), 1, 'the second probe of the unchanged file started no ffprobe')
    assert.is(second.streams[0]!.width, 64)
    await runFfmpeg(ffmpegArgs`-v error -y -f lavfi -i testsrc2=s=96x54:r=10:d=1 -c:v libx264 ${clip}`)
    assert.is((await probe(clip)).streams[0]!.width, 96, 'the rewritten file is read again')
    assert.is(count(), 2)
    await probe(clip, { countFrames: true })
    assert.is(count(), 3, 'countFrames decodes every time')
  } finally {
    delete process.env.REELFORGE_FFPROBE
  }
})
test('countPackets counts video frames without decoding them: a WebM, whose header holds no count, too', async () => {
  for (const [name, codec] of [
    ['count.webm', '-c:v libvpx-vp9 -deadline realtime -cpu-used 8'],
    ['count.mp4', '-c:v libx264 -bf 2'],
  ] as const) {
    const clip = join(dir, name)
    await runFfmpeg([...ffmpegArgs`-v error -y -f lavfi -i testsrc2=s=64x36:r=10:d=2.3`, ...codec.split(' '), clip])
    const decoded = (await probe(clip, { countFrames: true })).streams[0]!.frames
    const counted = (await probe(clip, { countPackets: true })).streams[0]!.frames
    assert.is(decoded, 23, name)
    assert.is(counted, decoded, name)
  }
  assert.is((await probe(join(dir, 'count.webm'))).streams[0]!.frames, undefined, 'uncounted, a WebM says nothing')
})
test.run()
