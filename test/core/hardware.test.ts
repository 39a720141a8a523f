import { existsSync } from 'node:fs'
import { join } from 'node:path'
import { test } from 'uvu'
import * as assert from 'uvu/assert'
import { createRenderer } from '../../index.js'
import { probeFfmpeg, probeHardware, spawnFfmpeg } from '../../kit.js'
import { hardwareDecode } from '../../plugins/lib/video/prepare-video.js'
import { nvencArgs } from '../../plugins/outputs/args.js'
import { argOf, childCommands } from '../helpers/children.js'
import { lavfi, tempDir } from '../helpers/media.js'
import { edit } from '../helpers/render.js'

// The GPU takes over encoding (NVENC) and decoding (NVDEC) only where ffmpeg proves it can: a listed encoder
// is not a working one (Debian's ffmpeg lists h264_nvenc and cuda everywhere). Without an NVIDIA device these
// tests check the refusal and its reason; with one, that the probe and what ran agree.

const dir = tempDir()
const nvidia = existsSync('/dev/nvidiactl')
const listed = async (flag: string) => {
  const p = spawnFfmpeg(['-hide_banner', flag], { stdout: true })
  let out = ''
  p.child.stdout!.on('data', (d: Buffer) => (out += d))
  await p.exited
  return out
}

test('without an NVIDIA device the probe answers at once: CPU, saying why', async () => {
  const hw = await probeHardware()
  if (nvidia) return assert.is(await probeHardware(), hw, 'the answer is cached')
  assert.equal([hw.nvenc.ok, hw.cudaDecode.ok], [false, false])
  assert.match(hw.nvenc.reason!, /no NVIDIA GPU here/)
})

test('ffmpeg listing an encoder is not enough: each is tried, and a failure keeps the driver side’s reason', async () => {
  const hw = await probeFfmpeg()
  // With an NVIDIA device either answer is possible (an H100 has NVDEC and no NVENC); a refusal must say why.
  if (nvidia) return assert.equal([hw.nvenc.ok || /\S/.test(hw.nvenc.reason ?? ''), hw.cudaDecode.ok || /\S/.test(hw.cudaDecode.reason ?? '')], [true, true])
  assert.equal([hw.nvenc.ok, hw.cudaDecode.ok], [false, false])
  const nvencListed = /\bh264_nvenc\b/.test(await listed('-encoders'))
  // Debian's build lists h264_nvenc and cuda: ffmpeg's own words, "Cannot load libcuda.so.1"; not listed: says so.
  assert.match(hw.nvenc.reason!, nvencListed ? /libcuda/ : /no h264_nvenc/)
  assert.match(hw.cudaDecode.reason!, /libcuda|no cuda hwaccel/)
})

test('REELFORGE_HARDWARE=off keeps everything on the CPU, saying why', async () => {
  process.env.REELFORGE_HARDWARE = 'off'
  try {
    const hw = await probeHardware()
    assert.equal([hw.nvenc.ok, hw.cudaDecode.ok], [false, false])
    assert.match(hw.nvenc.reason!, /REELFORGE_HARDWARE=off/)
  } finally {
    delete process.env.REELFORGE_HARDWARE
  }
})

test('a render runs the encoder and decoders the probe chose: libx264 and CPU decoding unless the GPU works', async () => {
  const hw = await probeHardware()
  const src = await lavfi('testsrc2=s=320x240:r=25:d=1', join(dir, 'src.mp4'), ['-c:v', 'libx264', '-pix_fmt', 'yuv420p'])
  const renderer = createRenderer({ cacheDir: join(dir, 'cache') })
  const out = join(dir, 'out.mp4')
  const commands = await childCommands(renderer.render(edit([{ asset: { type: 'video', src }, start: 0, length: 1 }], { fps: 25 }), { out }))
  const encoder = commands.find((c) => c.includes('pipe:0'))!
  // The decoder, not ffprobe (which also names the file): it writes frames to a socket or stdout.
  const decoder = commands.find((c) => c.includes(src) && (c.includes('pipe:1') || c.some((a) => a.startsWith('unix:'))))!
  assert.is(argOf(encoder, '-c:v'), hw.nvenc.ok ? 'h264_nvenc' : 'libx264')
  assert.is(argOf(decoder, '-hwaccel'), hw.cudaDecode.ok ? 'cuda' : 'none')
})

test('NVDEC only for the codecs it decodes and never for sources with alpha; NVENC at x264’s GOP, not ffmpeg’s 12', () => {
  const yes = { nvenc: { ok: true }, cudaDecode: { ok: true } }
  const no = { nvenc: { ok: false }, cudaDecode: { ok: false, reason: 'Cannot load libcuda.so.1' } }
  const stream = (codec: string, alpha = false) => ({ index: 0, type: 'video' as const, codec, width: 1920, height: 1080, alpha })
  assert.equal(hardwareDecode(stream('h264'), yes), ['-hwaccel', 'cuda'])
  assert.equal(hardwareDecode(stream('hevc'), yes), ['-hwaccel', 'cuda'])
  assert.equal(hardwareDecode(stream('vp9', true), yes), [], 'alpha needs libvpx')
  assert.equal(hardwareDecode(stream('prores'), yes), [], 'not an NVDEC codec')
  assert.equal(hardwareDecode(stream('h264'), no), [])
  const args = nvencArgs('medium')
  assert.equal([argOf(args, '-c:v'), argOf(args, '-g'), argOf(args, '-cq'), argOf(args, '-pix_fmt')], ['h264_nvenc', '250', '23', 'yuv420p'])
})

test.run()
