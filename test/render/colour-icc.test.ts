import { execFileSync } from 'node:child_process'
import { readFileSync, writeFileSync } from 'node:fs'
import { join } from 'node:path'
import { suite } from 'uvu'
import * as assert from 'uvu/assert'
import { createRenderer, type Edit } from '../../index.js'
import { DISPLAY_P3, iccProfile, jpegWithProfile, pngWithProfile, SWAPPED_RED_GREEN, webpWithProfile } from '../helpers/icc.js'
import { tempDir } from '../helpers/media.js'

// Images with embedded ICC profiles are colour-managed into the render's sRGB: PNG, JPEG and WebP alike, with a
// profile that swaps red and green (unmistakable) and Display P3 (what phones attach).

const dir = tempDir('reelforge-icc-')
const ff = (args: string[]) => execFileSync('ffmpeg', ['-v', 'error', '-y', ...args], { maxBuffer: 16 * 1024 ** 2 })
const COLOUR: [number, number, number] = [200, 50, 50]

/** The colour a Display P3 pixel is in sRGB: linearise, P3 → XYZ (D50) → sRGB, encode. */
function p3ToSrgb(rgb: number[]): number[] {
  const lin = rgb.map((v) => ((v /= 255) <= 0.04045 ? v / 12.92 : ((v + 0.055) / 1.055) ** 2.4))
  const xyz = [0, 1, 2].map((row) => DISPLAY_P3.reduce((s, col, k) => s + col[row]! * lin[k]!, 0))
  // Inverse of sRGB's D50 matrix (columns r, g, b: 0.4361 0.2225 0.0139 / 0.3851 0.7169 0.0971 / 0.1431 0.0606 0.7141).
  const inv = [
    [3.1339, -1.6169, -0.4906],
    [-0.9788, 1.9161, 0.0335],
    [0.072, -0.229, 1.4058],
  ]
  return inv
    .map((r) => r.reduce((s, c, k) => s + c * xyz[k]!, 0))
    .map((v) => {
      const c = Math.min(1, Math.max(0, v))
      return Math.round(255 * (c <= 0.0031308 ? 12.92 * c : 1.055 * c ** (1 / 2.4) - 0.055))
    })
}

async function drawn(image: string): Promise<number[]> {
  const out = join(dir, `${image}.png`)
  const edit = {
    timeline: { tracks: [{ clips: [{ asset: { type: 'image', src: join(dir, image) }, start: 0, length: 1 }] }] },
    output: { format: 'png', size: { width: 64, height: 64 } },
  }
  await createRenderer({ cacheDir: join(dir, 'cache') }).render(edit as Edit, { out })
  const rgb = ff(['-i', out, '-f', 'rawvideo', '-pix_fmt', 'rgb24', '-'])
  const at = (32 * 64 + 32) * 3
  return [rgb[at]!, rgb[at + 1]!, rgb[at + 2]!]
}
const near = (a: number[], b: number[], tol: number) => a.every((v, i) => Math.abs(v - b[i]!) <= tol)

const test = suite('colour: images with ICC profiles')
test.before(() => {
  const src = `color=c=0x${COLOUR.map((v) => v.toString(16).padStart(2, '0')).join('')}:s=64x64`
  ff(['-f', 'lavfi', '-i', src, '-frames:v', '1', '-pix_fmt', 'rgb24', join(dir, 'plain.png')])
  ff(['-f', 'lavfi', '-i', src, '-frames:v', '1', '-pix_fmt', 'yuvj444p', '-q:v', '1', join(dir, 'plain.jpg')])
  ff(['-f', 'lavfi', '-i', src, '-frames:v', '1', '-c:v', 'libwebp', '-lossless', '1', join(dir, 'plain.webp')])
  for (const [name, primaries] of [
    ['swapped', SWAPPED_RED_GREEN],
    ['p3', DISPLAY_P3],
  ] as const) {
    const icc = iccProfile(name, primaries)
    writeFileSync(join(dir, `${name}.png`), pngWithProfile(readFileSync(join(dir, 'plain.png')), icc))
    writeFileSync(join(dir, `${name}.jpg`), jpegWithProfile(readFileSync(join(dir, 'plain.jpg')), icc))
    writeFileSync(join(dir, `${name}.webp`), webpWithProfile(readFileSync(join(dir, 'plain.webp')), 64, 64, icc))
  }
})
for (const ext of ['png', 'jpg', 'webp']) {
  test(`${ext}: untagged as is; a red/green-swapping profile swaps; Display P3 becomes its sRGB colour`, async () => {
    const plain = await drawn(`plain.${ext}`)
    assert.ok(near(plain, COLOUR, 3), `untagged: ${plain}`)
    const swapped = await drawn(`swapped.${ext}`)
    assert.ok(near(swapped, [COLOUR[1], COLOUR[0], COLOUR[2]], 6), `swapped profile: ${swapped}`)
    const p3 = await drawn(`p3.${ext}`)
    assert.ok(near(p3, p3ToSrgb(COLOUR), 4), `Display P3: ${p3} for ${p3ToSrgb(COLOUR)}`)
  })
}
test.run()
