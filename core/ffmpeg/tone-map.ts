/** Transfer functions of HDR video as ffprobe names them: HLG (what phones record) and PQ (HDR10). */
const HDR_TRANSFERS = new Set(['arib-std-b67', 'smpte2084'])

export const isHdr = (transfer: string | undefined): boolean => !!transfer && HDR_TRANSFERS.has(transfer)

/** SDR transfers a BT.2020-primaries source may name (the 10- and 12-bit curves are BT.709's). */
const SDR_TRANSFERS = new Set(['bt2020-10', 'bt2020-12', 'bt709', 'smpte170m'])

/**
 * Filters that bring a source's picture to SDR BT.709 (TV-range yuv420p) before it is scaled to RGBA or
 * re-encoded. HDR (BT.2020 primaries, HLG or PQ): zscale to linear light with a nominal peak of 100 cd/m² (SDR
 * white), the primaries to BT.709, then `tonemap=mobius` — linear up to 30 % of the peak and rolled off above,
 * so colours in SDR's range keep their value and only highlights are compressed (Hable darkens everything;
 * measured on a chart) — no desaturation, then BT.709's transfer and matrix in TV range. SDR with BT.2020
 * primaries (10-bit SDR from cameras, `bt2020-10`): the same trip through linear light for the primaries, no
 * tone curve — BT.709's matrix alone would read its colours as BT.709's and wash them out. Empty for BT.709
 * and BT.601 sources: they pay nothing.
 */
export function toneMapFilters(transfer: string | undefined, primaries?: string, matrix?: string): string[] {
  // zscale needs to know the input matrix: a file that names its transfer but not its matrix gets BT.2020's own.
  const linear = `zscale=t=linear:npl=100${!matrix || matrix === 'unknown' ? ':min=bt2020nc' : ''}`
  const toBt709 = ['zscale=t=bt709:m=bt709:r=tv', 'format=yuv420p']
  if (isHdr(transfer)) return [linear, 'format=gbrpf32le', 'zscale=p=bt709', 'tonemap=tonemap=mobius:desat=0', ...toBt709]
  // Only with a transfer zscale can undo: an untagged one would stop the render ("no path between colorspaces").
  if (primaries === 'bt2020' && SDR_TRANSFERS.has(transfer ?? '')) return [linear, 'format=gbrpf32le', 'zscale=p=bt709', ...toBt709]
  return []
}

/** The tags of every video file: BT.709 matrix, primaries and transfer, TV range — what the pixels are. */
export const BT709_TAGS = ['-colorspace', 'bt709', '-color_primaries', 'bt709', '-color_trc', 'bt709', '-color_range', 'tv']

/** The colour of a probed video stream, as `bt709Filters` needs it. */
export interface StreamColour {
  colorTransfer?: string
  colorPrimaries?: string
  colorSpace?: string
}

/**
 * For paths that re-encode a video source rather than draw it (hosted-source renditions, the AI upscaler, AI
 * vendors' clips): the picture as BT.709 TV-range `pixFmt` — tone-mapped or moved to BT.709 primaries first where
 * the source needs it, then swscale's matrix from the source's own (the frame's tags; BT.601 and full range are
 * converted, not relabelled). The file is then tagged so (`BT709_TAGS`).
 */
export function bt709Filters(stream: StreamColour = {}, pixFmt = 'yuv420p'): string[] {
  // accurate_rnd + full_chroma_int: swscale's fast YUV→YUV path rounds greys 3–4 levels off (measured on the chart).
  const matrix = 'scale=out_color_matrix=bt709:out_range=tv:flags=accurate_rnd+full_chroma_int'
  return [...toneMapFilters(stream.colorTransfer, stream.colorPrimaries, stream.colorSpace), matrix, `format=${pixFmt}`]
}
