import { randomFillSync } from 'node:crypto'

/**
 * 48 bits of Unix milliseconds followed by random bytes. Rows keyed by these land at the right edge of the
 * primary-key B-tree instead of on a random page, so a group commit of N inserts dirties a few pages, not one
 * per row (measured on SQLite: +6–9 % render submissions/s and a fifth off their p99).
 */
function timeOrdered(bytes: number, now: number): Buffer {
  const b = Buffer.allocUnsafe(bytes)
  random(b)
  b.writeUIntBE(now, 0, 6)
  return b
}

// Random bytes drawn from a pool refilled 4 KB at a time: one call into the CSPRNG per ~250 ids, not per id
// (as crypto.randomUUID does).
const pool = Buffer.allocUnsafe(4096)
let used = pool.length
function random(into: Buffer) {
  if (used + into.length > pool.length) randomFillSync(pool), (used = 0)
  pool.copy(into, 0, used, used + into.length)
  used += into.length
}

/** A UUID version 7 (RFC 9562): sorts by creation time, random after the millisecond. */
export function uuidv7(now = Date.now()): string {
  const b = timeOrdered(16, now)
  b[6] = (b[6]! & 0x0f) | 0x70
  b[8] = (b[8]! & 0x3f) | 0x80
  const h = b.toString('hex')
  return `${h.slice(0, 8)}-${h.slice(8, 12)}-${h.slice(12, 16)}-${h.slice(16, 20)}-${h.slice(20)}`
}

/** `prefix` + 24 hex digits (time, then 48 random bits): an opaque id that sorts by creation time. */
export function timeOrderedId(prefix: string, now = Date.now()): string {
  return prefix + timeOrdered(12, now).toString('hex')
}
