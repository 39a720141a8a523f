import { promisify } from 'node:util'
import { crc32, deflate } from 'node:zlib'

const deflated = promisify(deflate)
const SIGNATURE = Buffer.from([0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a])

/**
 * Encodes an RGBA frame (top row first; `channels` 3: an RGB one) as an 8-bit RGB PNG without starting a process:
 * the pixels of the `png` output (ffmpeg's `-pix_fmt rgb24` drops alpha the same way), in a few milliseconds at
 * preview sizes where an ffmpeg costs tens. Each row is filtered with `up` (the row above subtracted), which
 * photographs and flat titles both compress well under; deflate runs on libuv's pool, off the event loop.
 */
export async function encodePng(pixels: Uint8Array, width: number, height: number, channels: 3 | 4 = 4): Promise<Buffer> {
  const stride = width * 3
  const rows = Buffer.allocUnsafe((stride + 1) * height)
  const line = width * channels
  for (let y = 0, o = 0; y < height; y++) {
    rows[o++] = y === 0 ? 0 : 2 // none for the first row, then `up`
    const at = y * line
    const above = at - line
    for (let x = 0; x < width; x++, o += 3) {
      const p = at + x * channels
      if (y === 0) {
        rows[o] = pixels[p]!
        rows[o + 1] = pixels[p + 1]!
        rows[o + 2] = pixels[p + 2]!
      } else {
        const q = above + x * channels
        rows[o] = pixels[p]! - pixels[q]!
        rows[o + 1] = pixels[p + 1]! - pixels[q + 1]!
        rows[o + 2] = pixels[p + 2]! - pixels[q + 2]!
      }
    }
  }
  const header = Buffer.alloc(13)
  header.writeUInt32BE(width, 0)
  header.writeUInt32BE(height, 4)
  header[8] = 8 // bits per channel
  header[9] = 2 // truecolour (RGB)
  return Buffer.concat([SIGNATURE, chunk('IHDR', header), chunk('IDAT', await deflated(rows, { level: 3 })), chunk('IEND', Buffer.alloc(0))])
}

/** A PNG chunk: length, type, data and the CRC of type and data. */
function chunk(type: string, data: Buffer): Buffer {
  const head = Buffer.alloc(8)
  head.writeUInt32BE(data.length, 0)
  head.write(type, 4, 'latin1')
  const tail = Buffer.alloc(4)
  tail.writeUInt32BE(crc32(data, crc32(head.subarray(4))) >>> 0, 0)
  return Buffer.concat([head, data, tail])
}
