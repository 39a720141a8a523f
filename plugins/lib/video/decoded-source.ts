import {
  createRgbaConverter,
  i420Fits,
  toneMapFilters,
  type FrameSource,
  type Gpu,
  type OpenHints,
  type ProbedStream,
  type RawVideoDecoder,
  type RgbaConverter,
  type Size,
  type Texture,
  type YuvMatrix,
} from '../../../core/index.js'

/** The matrix swscale reads a clip's YUV with, where the unpacking kernels have it (cpu-rgba.ts): untagged is BT.601. */
const MATRICES: Record<string, YuvMatrix> = { bt709: 'bt709', smpte170m: 'bt601', bt470bg: 'bt601' }

/**
 * The matrix a clip decodes to I420 in, or undefined where it decodes to RGBA: where the frame loop takes a covering
 * source's own I420 (`hints.i420`), the clip has no alpha and is drawn at the output's size, and its decoder's frames
 * are 8-bit 4:2:0 TV range in a matrix the kernels know — an SDR clip so (BT.709; BT.601 for SD tags and for
 * untagged clips, which swscale reads as BT.601 and many exports are), or any clip tone-mapped on its way (HDR, BT.2020:
 * core/ffmpeg/tone-map.ts ends in BT.709 TV-range I420). Its frames that cover the output exactly then go to the
 * encoder through RGBA and back two rows at a time in the cache (cpu-rgba.ts: into the encoder's BT.709), and the
 * others are converted to RGBA there instead of by swscale in the decoder: 60 % fewer bytes from the decoder, no
 * 8 MB frames copied.
 */
export function i420Matrix(stream: ProbedStream, need: Size, frame: Size, hints?: OpenHints): YuvMatrix | undefined {
  const drawnAsFrame = hints?.i420 === true && !stream.alpha && need.width === frame.width && need.height === frame.height && i420Fits(need.width, need.height)
  if (!drawnAsFrame) return undefined
  if (toneMapFilters(stream.colorTransfer, stream.colorPrimaries, stream.colorSpace).length > 0) return 'bt709'
  const tvRange = stream.colorRange === undefined || stream.colorRange === 'tv'
  return stream.pixFmt === 'yuv420p' && tvRange ? (stream.colorSpace === undefined ? 'bt601' : MATRICES[stream.colorSpace]) : undefined
}

/**
 * A clip's frames from its decoder: `at(t)` is the decoder's frame index for clip-local time `t`. The texture is
 * made when GL first draws the clip (frames made around the GPU need none) and updated once per decoded frame;
 * an I420 decoder's frames are converted for GL and `pixels` once per frame, and for `i420` through RGBA and back
 * (for `i420Over`, faded on the way).
 */
export function decodedSource(
  gpu: Gpu,
  need: Size,
  decoder: RawVideoDecoder,
  at: (t: number) => number,
  decoded: { alpha: boolean; i420: YuvMatrix | undefined },
): FrameSource {
  let texture: Texture | undefined
  let converter: RgbaConverter | undefined
  const convert = () => (converter ??= createRgbaConverter(need.width, need.height, decoded.i420)!)
  const asRgba = decoded.i420 ? onePerFrame((data) => convert().convert(data)) : (data: Uint8Array) => data
  const update = onePerFrame((data, k) => gpu.update((texture ??= gpu.texture(null, need.width, need.height)), asRgba(data, k)))
  const throughRgba = onePerFrame((data) => convert().throughRgba(data))
  /** `then` with clip-local `t`'s decoded frame and its index, or null once the source has ended. */
  const ask = <T>(t: number, then: (data: Uint8Array, k: number) => T): T | null | Promise<T | null> => {
    const k = at(t)
    const data = decoder.frame(k)
    if (data instanceof Promise) return data.then((d) => (d ? then(d, k) : null))
    return data ? then(data, k) : null
  }
  return {
    frame: (t) => ask(t, (data, k) => (update(data, k), texture!)),
    // Opaque frames as decoded (an I420 decoder's converted), for a frame this clip covers alone
    // (core/render/cover.ts); alpha is premultiplied for blending, so a clip with alpha is always drawn.
    pixels: decoded.alpha ? undefined : (t) => ask(t, asRgba),
    i420: decoded.i420 ? (t) => ask(t, throughRgba) : undefined,
    // A fade's frames: each at its own opacity, so not kept per frame.
    i420Over: decoded.i420 ? (t, opacity, background) => ask(t, (data) => convert().fadeThroughRgba(data, opacity, background)) : undefined,
    opaque: !decoded.alpha,
    close() {
      decoder.close()
      if (texture) gpu.release(texture)
    },
  }
}

/**
 * `step` once per decoded frame, its answer kept while the same frame is asked again (an output rate above the
 * source's repeats frames). By index, not buffer: the decoder refills its buffers.
 */
function onePerFrame<T>(step: (data: Uint8Array, k: number) => T): (data: Uint8Array, k: number) => T {
  let last = -1
  let answer: T
  return (data, k) => (k === last ? answer : ((last = k), (answer = step(data, k))))
}
