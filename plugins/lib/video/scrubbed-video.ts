import {
  fileFrameIndex,
  frameOrigin,
  RawVideoDecoder,
  type DecoderOptions,
  type FrameIndex,
  type FrameSource,
  type Gpu,
  type Size,
} from '../../../core/index.js'
import { FrameStore } from './frame-store.js'
import { ScrubStream } from './scrub-stream.js'

/** A clip's decoding, less where it starts (the stream decides). */
export type ClipDecoding = Omit<DecoderOptions, 'skip' | 'origin' | 'frames'>

/** Decoded frames a scrubbed clip keeps: at 512×288 about 220 frames, nine seconds at 25 fps. */
const STORE_BYTES = 128 * 2 ** 20

/**
 * A video clip's frames in any order, for a preview session (`OpenHints.scrub`). Every frame decoded is kept
 * (FrameStore), so stepping back is free. From the start a sweep reads the whole clip in order while the store
 * has room, so given a few seconds a jump anywhere is drawn from memory; a jump neither the sweep nor the
 * playhead's decoder (which streams on from the last frame asked for until it meets kept frames) would reach
 * sooner than a seek starts a new decoder there. Every decoder lays its frames on the whole clip's grid
 * (`DecoderOptions.origin`): whichever way the playhead arrived, a frame is the one a render draws (kept at
 * `need`; `o.keep`: see keptSize).
 */
export function scrubbedVideo(gpu: Gpu, need: Size, clip: ClipDecoding, o: { from: number; length?: number; keep?: Size }): FrameSource {
  const { fps, speed, trim, path } = clip
  const last = o.length !== undefined ? Math.ceil(o.length * fps) : Number.POSITIVE_INFINITY
  const size = keptSize(need, last, o.keep)
  const decoding = { ...clip, width: size.width, height: size.height }
  const texture = gpu.texture(null, size.width, size.height)
  const store = new FrameStore(size.width * size.height * 4, STORE_BYTES)
  // Key frames tell a cheap jump from a costly one; until they are known, a second's reading is the bound.
  let index: FrameIndex | undefined
  fileFrameIndex(path).then(
    (i) => (index = i),
    () => {},
  )
  // Where the clip's frame grid starts: new decoders need it, and so does telling key frames apart.
  const origin = frameOrigin(path, trim)
  let originPts: number | undefined
  origin.then(
    (at) => (originPts = at?.pts),
    () => {},
  )
  let stream: ScrubStream | undefined
  let shown = -1
  store.playhead = Math.round(o.from * fps)
  // The sweep: one decoder reading the whole clip from its first frame while the store has room, on one core,
  // so that in time every frame is kept and a jump anywhere is drawn from memory. Jumps do not stop it.
  const sweep = new ScrubStream(
    0,
    Promise.resolve(new RawVideoDecoder({ ...decoding, inputArgs: [...(decoding.inputArgs ?? []), '-threads', '1'] })),
    store,
    last,
  )

  const startAt = (target: number) => {
    stream?.close()
    // A few frames before the one asked for (an arrow key's step back), where that decodes nothing more: ffmpeg
    // decodes from the key frame before the target anyway, and only converts what it hands over.
    const slot =
      originPts !== undefined && index
        ? Math.max(0, target - Math.min(Math.round(fps / 4), target - keySlot(index, originPts, target, { fps, speed })))
        : target
    const decoder =
      slot === 0 ? Promise.resolve(new RawVideoDecoder(decoding)) : origin.then((at) => new RawVideoDecoder({ ...decoding, skip: slot, origin: at }))
    stream = new ScrubStream(slot, decoder, store, last, { untilKept: true })
    return stream
  }

  /** Whether the open stream reaches `slot` sooner than a new decoder seeking there would. */
  const readOn = (s: ScrubStream, slot: number) => {
    const from = s.position
    if (s.failed || slot < from) return false
    if (slot - from <= fps / 2) return true
    const at = originPts !== undefined && index ? keyFrameBefore(index, originPts, slot, from, { fps, speed }) : undefined
    return at === undefined ? slot - from <= fps : at
  }

  const show = (slot: number, data: Uint8Array | null) => {
    if (!data) return null
    if (slot !== shown) gpu.update(texture, data), (shown = slot)
    return texture
  }

  return {
    anyOrder: true,
    frame(t) {
      const slot = Math.max(0, Math.round(t * fps))
      store.playhead = slot
      if (slot === shown) return texture
      const kept = store.get(slot)
      if (kept) return show(slot, kept)
      const s = [stream, sweep].find((x) => x && readOn(x, slot)) ?? startAt(slot)
      if (s.ended && slot >= s.position) return null
      return s.frame(slot).then((data) => show(slot, data))
    },
    close() {
      stream?.close()
      sweep.close()
      store.clear()
      gpu.release(texture)
    },
  }
}

/**
 * The size a clip's frames are decoded and kept at: `need`, unless the whole clip (`last` + 1 frames) would not
 * fit the store at that size and the picture shows less (`OpenHints.keep`: a frame scaled down to
 * `output.scaleTo`) — then that, drawn stretched: a little softer than the render's frame, where every jump into
 * the clip would otherwise start a decoder seeking there.
 */
function keptSize(need: Size, last: number, keep: Size | undefined): Size {
  const whole = (size: Size) => (last + 1) * size.width * size.height * 4 <= STORE_BYTES
  return keep && !whole(need) ? keep : need
}

/** The clip frame of the key frame a seek to clip frame `slot` starts decoding at (`origin`: the clip's first frame, in ticks). */
function keySlot(index: FrameIndex, origin: number, slot: number, o: { fps: number; speed: number }): number {
  const [num, den] = index.timeBase
  const target = origin + ((slot * o.speed) / o.fps) * (den / num)
  let key = origin
  for (const k of index.keys) if (k <= target) key = Math.max(key, k)
  return Math.ceil((((key - origin) * num) / den) * (o.fps / o.speed))
}

/**
 * True when no seek can reach clip frame `slot` with less decoding than reading on from `from`: the key frame a
 * seek would start at is at or before where the stream is (`origin`: the clip's first frame, in stream ticks).
 */
function keyFrameBefore(index: FrameIndex, origin: number, slot: number, from: number, o: { fps: number; speed: number }): boolean {
  const [num, den] = index.timeBase
  const ticks = (s: number) => origin + ((s * o.speed) / o.fps) * (den / num)
  const target = ticks(slot)
  let key = -Infinity
  for (const k of index.keys) if (k <= target) key = k
  return key <= ticks(from)
}
