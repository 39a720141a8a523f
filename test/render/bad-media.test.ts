import { copyFileSync, readFileSync, writeFileSync } from 'node:fs'
import { join } from 'node:path'
import { suite } from 'uvu'
import * as assert from 'uvu/assert'
import { createRenderer, RenderError } from '../../index.js'
import { lavfi, solidPng, tempDir } from '../helpers/media.js'
import { edit } from '../helpers/render.js'

const dir = tempDir()
const test = suite('media that lies fails cleanly')

/** CRC-32 of PNG chunks (zlib.crc32 is Node 22+). */
function crc32(buf: Buffer): number {
  let c = ~0
  for (const b of buf) {
    c ^= b
    for (let k = 0; k < 8; k++) c = (c >>> 1) ^ (0xedb88320 & -(c & 1))
  }
  return ~c >>> 0
}
const chunk = (type: string, data: Buffer) => {
  const body = Buffer.concat([Buffer.from(type, 'ascii'), data])
  const out = Buffer.alloc(12 + data.length)
  out.writeUInt32BE(data.length, 0)
  body.copy(out, 4)
  out.writeUInt32BE(crc32(body), 8 + data.length)
  return out
}
/** A valid PNG header declaring width × height, with no real pixel data behind it (a decompression bomb's shape). */
function claimedPng(path: string, width: number, height: number): string {
  const ihdr = Buffer.alloc(13)
  ihdr.writeUInt32BE(width, 0)
  ihdr.writeUInt32BE(height, 4)
  ihdr.set([8, 6, 0, 0, 0], 8)
  writeFileSync(
    path,
    Buffer.concat([Buffer.from([137, 80, 78, 71, 13, 10, 26, 10]), chunk('IHDR', ihdr), chunk('IDAT', Buffer.alloc(0)), chunk('IEND', Buffer.alloc(0))]),
  )
  return path
}

async function fails(asset: object, code: string, pattern: RegExp, length = 1) {
  const started = Date.now()
  try {
    await createRenderer({ cacheDir: join(dir, 'cache') }).render(edit([{ asset, start: 0, length }], { fps: 12 }), {
      out: join(dir, `out-${Math.random()}.mp4`),
    })
    assert.unreachable('rendered')
  } catch (e) {
    if (!(e instanceof RenderError)) throw e
    assert.is(e.code, code, e.message)
    assert.match(e.message, pattern)
    assert.match(e.message, /tracks\[0\]\.clips\[0\]\.asset/, 'names the clip')
  }
  assert.ok(Date.now() - started < 30_000, 'no hang')
}

test('a 20,000 × 20,000 PNG is refused from its header, before any decoding', async () => {
  const rss = process.memoryUsage().rss
  await fails({ type: 'image', src: claimedPng(join(dir, 'bomb.png'), 20_000, 20_000) }, 'E_ASSET_TOO_LARGE', /20000x20000 image exceeds 100 megapixels/)
  assert.ok(process.memoryUsage().rss - rss < 200e6, 'memory did not balloon')
})
test('a .mp4 that is really a PNG is not a video: a clear error, not a one-frame "video"', async () => {
  const fake = join(dir, 'fake.mp4')
  copyFileSync(await solidPng(join(dir, 'p.png'), 64, 64, '#ff0000'), fake)
  await fails({ type: 'video', src: fake }, 'E_ASSET_UNREADABLE', /is not a video \(a png image\)/)
})
test("a truncated mp4 (its index cut off) is unreadable, with ffmpeg's reason", async () => {
  const whole = await lavfi('testsrc2=size=160x90:rate=12:duration=2', join(dir, 'whole.mp4'))
  const bytes = readFileSync(whole)
  const cut = join(dir, 'cut.mp4')
  writeFileSync(cut, bytes.subarray(0, bytes.length >> 1))
  await fails({ type: 'video', src: cut }, 'E_ASSET_UNREADABLE', /moov atom not found|invalid data/i)
})
test('zero-length and garbage audio files are unreadable, naming the clip', async () => {
  writeFileSync(join(dir, 'empty.mp3'), '')
  await fails({ type: 'audio', src: join(dir, 'empty.mp3') }, 'E_ASSET_UNREADABLE', /empty|invalid data|cannot read/i)
  writeFileSync(join(dir, 'noise.wav'), Buffer.from('RIFF????WAVEjunkjunkjunk'))
  await fails({ type: 'audio', src: join(dir, 'noise.wav') }, 'E_ASSET_UNREADABLE', /cannot read|invalid|no audio/i)
})
test('an image file that is really text is unreadable', async () => {
  writeFileSync(join(dir, 'text.png'), 'hello, I am not a PNG')
  await fails({ type: 'image', src: join(dir, 'text.png') }, 'E_ASSET_UNREADABLE', /not a readable image/)
})
test.run()
