import { deflateSync } from 'node:zlib'

// ICC v2 matrix/TRC display profiles made in code (no profile files needed), and the three ways images carry one:
// PNG `iCCP`, JPEG APP2 `ICC_PROFILE`, WebP `VP8X` + `ICCP`. For the colour-management tests.

type XYZ = [number, number, number]
/** Display P3's primaries adapted to D50 (as Apple's Display P3 profile has them), sRGB's transfer curve. */
export const DISPLAY_P3: XYZ[] = [
  [0.5151, 0.2412, -0.0011],
  [0.292, 0.6922, 0.0419],
  [0.1571, 0.0666, 0.7841],
]
/** sRGB's primaries (D50) with red and green swapped: a file's red is drawn green, if the profile is honoured. */
export const SWAPPED_RED_GREEN: XYZ[] = [
  [0.3851, 0.7169, 0.0971],
  [0.4361, 0.2225, 0.0139],
  [0.1431, 0.0606, 0.7141],
]

const s15 = (x: number) => Math.round(x * 65536)
function xyzTag(x: XYZ): Buffer {
  const b = Buffer.alloc(20)
  b.write('XYZ ', 0, 'latin1')
  x.forEach((v, i) => b.writeInt32BE(s15(v), 8 + 4 * i))
  return b
}
/** sRGB's piecewise transfer as a 1024-entry table. */
function srgbCurve(): Buffer {
  const n = 1024
  const b = Buffer.alloc(12 + 2 * n)
  b.write('curv', 0, 'latin1')
  b.writeUInt32BE(n, 8)
  for (let i = 0; i < n; i++) {
    const v = i / (n - 1)
    b.writeUInt16BE(Math.round(65535 * (v <= 0.04045 ? v / 12.92 : ((v + 0.055) / 1.055) ** 2.4)), 12 + 2 * i)
  }
  return b
}
function descTag(text: string): Buffer {
  const b = Buffer.alloc(12 + text.length + 1 + 12 + 67)
  b.write('desc', 0, 'latin1')
  b.writeUInt32BE(text.length + 1, 8)
  b.write(text, 12, 'latin1')
  return b
}
const pad4 = (b: Buffer) => Buffer.concat([b, Buffer.alloc((4 - (b.length % 4)) % 4)])

/** A complete ICC v2 'mntr' RGB profile with these primaries (columns r, g, b) and the sRGB curve. */
export function iccProfile(name: string, primaries: XYZ[]): Buffer {
  const curve = srgbCurve()
  const tags: [string, Buffer][] = [
    ['desc', descTag(name)],
    ['wtpt', xyzTag([0.9642, 1, 0.8249])],
    ['rXYZ', xyzTag(primaries[0]!)],
    ['gXYZ', xyzTag(primaries[1]!)],
    ['bXYZ', xyzTag(primaries[2]!)],
    ['rTRC', curve],
    ['gTRC', curve],
    ['bTRC', curve],
    ['cprt', Buffer.concat([Buffer.from('text\0\0\0\0public domain\0', 'latin1')])],
  ]
  const table = Buffer.alloc(4 + 12 * tags.length)
  table.writeUInt32BE(tags.length, 0)
  let offset = 128 + table.length
  const bodies: Buffer[] = []
  tags.forEach(([sig, body], i) => {
    table.write(sig, 4 + 12 * i, 'latin1')
    table.writeUInt32BE(offset, 8 + 12 * i)
    table.writeUInt32BE(body.length, 12 + 12 * i)
    const padded = pad4(body)
    bodies.push(padded)
    offset += padded.length
  })
  const header = Buffer.alloc(128)
  header.writeUInt32BE(offset, 0)
  header.writeUInt32BE(0x02100000, 8)
  header.write('mntrRGB XYZ ', 12, 'latin1')
  header.write('acsp', 36, 'latin1')
  ;[0.9642, 1, 0.8249].forEach((v, i) => header.writeInt32BE(s15(v), 68 + 4 * i))
  return Buffer.concat([header, table, ...bodies])
}

const crcTable = Array.from({ length: 256 }, (_, n) => {
  let c = n
  for (let k = 0; k < 8; k++) c = c & 1 ? 0xedb88320 ^ (c >>> 1) : c >>> 1
  return c >>> 0
})
const crc32 = (b: Buffer) => {
  let c = 0xffffffff
  for (const x of b) c = crcTable[(c ^ x) & 0xff]! ^ (c >>> 8)
  return (c ^ 0xffffffff) >>> 0
}

/** The PNG with an `iCCP` chunk right after IHDR. */
export function pngWithProfile(png: Buffer, profile: Buffer): Buffer {
  const data = Buffer.concat([Buffer.from('icc\0\0', 'latin1'), deflateSync(profile)])
  const chunk = Buffer.alloc(12 + data.length)
  chunk.writeUInt32BE(data.length, 0)
  chunk.write('iCCP', 4, 'latin1')
  data.copy(chunk, 8)
  chunk.writeUInt32BE(crc32(chunk.subarray(4, 8 + data.length)), 8 + data.length)
  const ihdrEnd = 8 + 12 + png.readUInt32BE(8)
  return Buffer.concat([png.subarray(0, ihdrEnd), chunk, png.subarray(ihdrEnd)])
}

/** The JPEG with an APP2 `ICC_PROFILE` segment right after SOI (one segment: profiles here are small). */
export function jpegWithProfile(jpeg: Buffer, profile: Buffer): Buffer {
  const body = Buffer.concat([Buffer.from('ICC_PROFILE\0', 'latin1'), Buffer.from([1, 1]), profile])
  const marker = Buffer.alloc(4)
  marker.writeUInt16BE(0xffe2, 0)
  marker.writeUInt16BE(body.length + 2, 2)
  return Buffer.concat([jpeg.subarray(0, 2), marker, body, jpeg.subarray(2)])
}

/** A simple (lossy `VP8 `) WebP made extended: `VP8X` with the ICC flag, `ICCP`, then the image chunk. */
export function webpWithProfile(webp: Buffer, width: number, height: number, profile: Buffer): Buffer {
  const chunk = (fourcc: string, data: Buffer) => {
    const head = Buffer.alloc(8)
    head.write(fourcc, 0, 'latin1')
    head.writeUInt32LE(data.length, 4)
    return Buffer.concat([head, data, Buffer.alloc(data.length % 2)])
  }
  const vp8x = Buffer.alloc(10)
  vp8x[0] = 0x20 // ICC profile present
  vp8x.writeUIntLE(width - 1, 4, 3)
  vp8x.writeUIntLE(height - 1, 7, 3)
  const body = Buffer.concat([Buffer.from('WEBP', 'latin1'), chunk('VP8X', vp8x), chunk('ICCP', profile), webp.subarray(12)])
  const riff = Buffer.alloc(8)
  riff.write('RIFF', 0, 'latin1')
  riff.writeUInt32LE(body.length, 4)
  return Buffer.concat([riff, body])
}
