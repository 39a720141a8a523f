import { readFile } from 'node:fs/promises'
import { inflateSync } from 'node:zlib'

/** What a font file says about itself. */
export interface FontFileInfo {
  family: string
  weight: number
  style: 'normal' | 'italic'
}

/**
 * Reads the family name (name table IDs 16/1), weight (OS/2 usWeightClass) and italic flag of a TTF, OTF,
 * TTC (first face) or WOFF file. Shotstack says `font.family` must be the family embedded in the font, so
 * this is how `timeline.fonts` become usable names. WOFF2 is refused: the text engines cannot draw it.
 */
export async function readFontInfo(path: string): Promise<FontFileInfo> {
  const buf = await readFile(path)
  const tables = tableReader(buf)
  const name = tables('name')
  const os2 = tables('OS/2')
  if (!name) throw new Error('not a font file (no name table)')
  const names = readNames(name)
  // Some webfonts strip their names to "."; treat anything without two letters or digits as missing.
  const usable = (s?: string) => (s && /[\p{L}\p{N}]{2}/u.test(s) ? s : undefined)
  const family = usable(names.get(16)) ?? usable(names.get(1))
  if (!family) throw new Error('font has no usable family name')
  const weight = os2 && os2.length >= 6 ? os2.readUInt16BE(4) : 400
  const italic = os2 && os2.length >= 64 ? (os2.readUInt16BE(62) & 1) === 1 : /italic|oblique/i.test(names.get(17) ?? names.get(2) ?? '')
  return { family, weight: Math.min(1000, Math.max(1, weight || 400)), style: italic ? 'italic' : 'normal' }
}

type TableReader = (tag: string) => Buffer | undefined

function tableReader(buf: Buffer): TableReader {
  const magic = buf.toString('latin1', 0, 4)
  if (magic === 'wOF2') throw new Error('WOFF2 fonts are not supported; use TTF, OTF or WOFF')
  if (magic === 'wOFF') {
    const count = buf.readUInt16BE(12)
    return (tag) => {
      for (let i = 0; i < count; i++) {
        const o = 44 + i * 20
        if (buf.toString('latin1', o, o + 4) !== tag) continue
        const offset = buf.readUInt32BE(o + 4),
          compLength = buf.readUInt32BE(o + 8),
          origLength = buf.readUInt32BE(o + 12)
        const data = buf.subarray(offset, offset + compLength)
        return compLength < origLength ? inflateSync(data) : data
      }
      return undefined
    }
  }
  let base = 0
  if (magic === 'ttcf') base = buf.readUInt32BE(12) // first face of a collection
  const count = buf.readUInt16BE(base + 4)
  return (tag) => {
    for (let i = 0; i < count; i++) {
      const o = base + 12 + i * 16
      if (buf.toString('latin1', o, o + 4) === tag) return buf.subarray(buf.readUInt32BE(o + 8), buf.readUInt32BE(o + 8) + buf.readUInt32BE(o + 12))
    }
    return undefined
  }
}

/** name table → id → string, preferring Windows/Unicode English records. */
function readNames(t: Buffer): Map<number, string> {
  const count = t.readUInt16BE(2),
    strings = t.readUInt16BE(4)
  const out = new Map<number, string>()
  const rank = new Map<number, number>()
  for (let i = 0; i < count; i++) {
    const o = 6 + i * 12
    const platform = t.readUInt16BE(o),
      language = t.readUInt16BE(o + 4),
      id = t.readUInt16BE(o + 6)
    const length = t.readUInt16BE(o + 8),
      offset = t.readUInt16BE(o + 10)
    const raw = t.subarray(strings + offset, strings + offset + length)
    const utf16 = platform === 0 || platform === 3
    const score = platform === 3 && language === 0x409 ? 3 : platform === 0 ? 2 : platform === 1 && language === 0 ? 1 : 0
    if ((rank.get(id) ?? -1) >= score) continue
    let text = ''
    if (utf16) for (let j = 0; j + 1 < raw.length; j += 2) text += String.fromCharCode(raw.readUInt16BE(j))
    else text = raw.toString('latin1')
    if (text.trim()) out.set(id, text.trim()), rank.set(id, score)
  }
  return out
}
