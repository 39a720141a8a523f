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
} from '../../../core/index.js'

/**
 * Whether a clip decodes to I420 rather than RGBA: where the frame loop takes a covering source's own I420
 * (`hints.i420`) and the source's decoded frames are already what the encoder makes — 8-bit 4:2:0, BT.709 matrix,
 * TV range, SDR, drawn at the output's size. Its frames that cover the output exactly then go to the encoder through
 * RGBA and back two rows at a time in the cache (cpu-rgba.ts), and the others are converted to RGBA there instead of
 * by swscale in the decoder: 60 % fewer bytes from the decoder, no 8 MB frames copied.
 */
export function decodesToI420(stream: ProbedStream, need: Size, frame: Size, hints?: OpenHints): boolean {
  return (
    hints?.i420 === true &&
    !stream.alpha &&
    stream.pixFmt === 'yuv420p' &&
    stream.colorSpace === 'bt709' &&
    stream.colorRange === 'tv' &&
    toneMapFilters(stream.colorTransfer, stream.colorPrimaries, stream.colorSpace).length === 0 &&
    need.width === frame.width &&
    need.height === frame.height &&
    i420Fits(need.width, need.height)
  )
}

/**
 * A clip's frames from its decoder: `at(t)` is the decoder's frame index for clip-local time `t`. The texture is
 * made when GL first draws the clip (frames made around the GPU need none) and updated once per decoded frame;
 * an I420 decoder's frames are converted for GL and `pixels` once per frame, and for `i420` through RGBA and back.
 */
export function decodedSource(
  gpu: Gpu,
  need: Size,
  decoder: RawVideoDecoder,
  at: (t: number) => number,
  decoded: { alpha: boolean; i420: boolean },
): FrameSource {
  let texture: Texture | undefined
  let uploaded = -1
  let converter: RgbaConverter | undefined
  const convert = () => (converter ??= createRgbaConverter(need.width, need.height)!)
  let converted = -1
  let rgba: Uint8Array | undefined
  // By frame index, not buffer: the decoder refills its buffers, and frames handed over as I420 skip conversion.
  const asRgba = (data: Uint8Array, k: number) => {
    if (!decoded.i420) return data
    if (k !== converted) (rgba = convert().convert(data)), (converted = k)
    return rgba!
  }
  const upload = (data: Uint8Array | null, k: number) => {
    if (!data) return null
    texture ??= gpu.texture(null, need.width, need.height)
    if (k !== uploaded) gpu.update(texture, asRgba(data, k)), (uploaded = k)
    return texture
  }
  const pixels = (data: Uint8Array | null, k: number) => data && asRgba(data, k)
  const i420 = (data: Uint8Array | null) => data && convert().throughRgba(data)
  const ask = <T>(t: number, then: (data: Uint8Array | null, k: number) => T): T | Promise<T> => {
    const k = at(t)
    const data = decoder.frame(k)
    return data instanceof Promise ? data.then((d) => then(d, k)) : then(data, k)
  }
  return {
    frame: (t) => ask(t, upload),
    // Opaque frames as decoded, for a frame this clip covers alone (core/render/cover.ts); alpha is premultiplied
    // for blending, so a clip with alpha is always drawn.
    pixels: decoded.alpha ? undefined : (t) => ask(t, pixels),
    i420: decoded.i420 ? (t) => ask(t, i420) : undefined,
    opaque: !decoded.alpha,
    close() {
      decoder.close()
      if (texture) gpu.release(texture)
    },
  }
}
