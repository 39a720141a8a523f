/** Transfer functions of HDR video as ffprobe names them: HLG (what phones record) and PQ (HDR10). */
const HDR_TRANSFERS = new Set(['arib-std-b67', 'smpte2084'])

export const isHdr = (transfer: string | undefined): boolean => !!transfer && HDR_TRANSFERS.has(transfer)

/**
 * Filters that turn an HDR picture (BT.2020 primaries, HLG or PQ) into SDR BT.709 before it is scaled to RGBA:
 * zscale to linear light with a nominal peak of 100 cd/m² (SDR white), the primaries to BT.709, then
 * `tonemap=mobius` — linear up to 30 % of the peak and rolled off above, so colours in SDR's range keep their
 * value and only highlights are compressed (Hable darkens everything; measured on a chart) — no desaturation,
 * then BT.709's transfer and matrix in TV range. Empty for SDR sources: they pay nothing.
 */
export function toneMapFilters(transfer: string | undefined): string[] {
  if (!isHdr(transfer)) return []
  return ['zscale=t=linear:npl=100', 'format=gbrpf32le', 'zscale=p=bt709', 'tonemap=tonemap=mobius:desat=0', 'zscale=t=bt709:m=bt709:r=tv', 'format=yuv420p']
}
