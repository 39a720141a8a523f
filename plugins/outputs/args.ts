import { availableParallelism } from 'node:os'
import { BT709_TAGS, ffmpegArgs, type OutputSpec, probeHardware, scaleToFilter } from '../../core/index.js'

type Quality = OutputSpec['quality']

/**
 * Shotstack's `quality` as x264 settings: CRF for the look, preset for the time it takes. `medium` (the
 * default) uses `veryfast`, which keeps 1080p encoding near realtime on two cores; `high` is the classic
 * CRF 18 / preset medium.
 */
const X264: Record<Quality, { crf: number; preset: string }> = {
  verylow: { crf: 32, preset: 'veryfast' },
  low: { crf: 28, preset: 'veryfast' },
  medium: { crf: 23, preset: 'veryfast' },
  high: { crf: 18, preset: 'medium' },
  veryhigh: { crf: 15, preset: 'slow' },
}

/**
 * ffmpeg arguments for H.264 in yuv420p (plays everywhere). `cores` is the render's share of the machine when
 * pieces or renders run side by side: x264's own rule (1.5 frame threads a core) applied to the share, not to
 * every core — eight pieces on 16 cores would otherwise run 8 × 24 threads, each frame thread holding frames.
 * A render with the whole machine gets one frame thread a core: its decoders and compositor take a third of the
 * cores beside x264, and x264's extra half thread a core only held frames (footage minute on 2 cores: the same
 * CPU and wall, encoder PSS −22 MB; benchmarks/README.md).
 */
export function x264Args(quality: Quality, cores?: number, draft?: boolean): string[] {
  const { crf, preset } = X264[quality]
  const threads = cores === undefined ? threadArgs(availableParallelism()) : threadArgs(cores, 1.5)
  return ['-c:v', 'libx264', '-preset', draft ? 'ultrafast' : preset, '-crf', String(crf), '-pix_fmt', 'yuv420p', ...threads]
}

/**
 * NVENC for the same qualities: constant quality (`-cq`, VBR with no bitrate cap) at x264's CRF number, and a
 * slower preset where x264's is slower. The two scales are not the same curve; the mapping is unmeasured until a
 * machine with NVENC runs the comparison (benchmarks/README.md). GOP 250 as x264's default (ffmpeg's generic
 * default would be 12: a key frame every 0.4 s).
 */
const NVENC_PRESET: Record<Quality, string> = { verylow: 'p4', low: 'p4', medium: 'p4', high: 'p6', veryhigh: 'p7' }

export function nvencArgs(quality: Quality): string[] {
  return ffmpegArgs`-c:v h264_nvenc -preset ${NVENC_PRESET[quality]} -tune hq -rc vbr -cq ${X264[quality].crf} -b:v 0 -g 250 -profile:v high -pix_fmt yuv420p`
}

/** The frame sizes NVENC's H.264 encoder takes on every generation (it refuses smaller; 4096 is its widest). */
const nvencFits = (w: number, h: number) => Math.min(w, h) >= 160 && Math.max(w, h) <= 4096

/**
 * H.264 on the GPU's encoder where this machine has one that works (`probeHardware`) and the frame fits it,
 * unless the render asks for the CPU (segment pieces); else x264 on the CPU.
 */
export async function h264Args(spec: OutputSpec): Promise<string[]> {
  const size = spec.scaleTo ?? spec
  const gpu = !spec.cpuEncoder && nvencFits(size.width, size.height) && (await probeHardware()).nvenc.ok
  return gpu ? nvencArgs(spec.quality) : x264Args(spec.quality, spec.cores, spec.draft)
}

/** `-threads` for an encoder sized to `cores` (× `perCore`); nothing (the codec's own choice) without a share. */
export function threadArgs(cores: number | undefined, perCore = 1): string[] {
  return cores === undefined ? [] : ['-threads', String(Math.max(1, Math.round(cores * perCore)))]
}

/** VP9 CRF and libvpx speed per quality; `realtime` deadline keeps 1080p near realtime. */
const VP9: Record<Quality, { crf: number; cpu: number }> = {
  verylow: { crf: 45, cpu: 8 },
  low: { crf: 40, cpu: 8 },
  medium: { crf: 35, cpu: 8 },
  high: { crf: 31, cpu: 6 },
  veryhigh: { crf: 24, cpu: 5 },
}

export function vp9Args(quality: Quality, cores?: number): string[] {
  const { crf, cpu } = VP9[quality]
  return [...ffmpegArgs`-c:v libvpx-vp9 -deadline realtime -cpu-used ${cpu} -row-mt 1 -crf ${crf} -b:v 0 -pix_fmt yuv420p`, ...threadArgs(cores)]
}

/** Audio bitrate per quality (AAC, Opus, MP3). */
export function audioBitrate(quality: Quality): string {
  return { verylow: '96k', low: '128k', medium: '192k', high: '256k', veryhigh: '320k' }[quality]
}

/**
 * AAC at the quality's bitrate. A draft uses the fast coder: a third of the default two-loop search's CPU (1.5 CPU-s
 * for 36 s of stereo here, more than x264 takes for the same 36 s at preview size).
 */
export function aacArgs(spec: OutputSpec): string[] {
  return ['-c:a', 'aac', ...(spec.draft ? ['-aac_coder', 'fast'] : []), '-b:a', audioBitrate(spec.quality)]
}

/** Maps the video and, when present, the mixed audio with its codec arguments. */
export function mapArgs(spec: OutputSpec, audioCodec: string[]): string[] {
  return spec.audio ? ['-map', '0:v', '-map', '[aout]', ...audioCodec] : ['-map', '0:v']
}

/** `-vf scale=…` when the file's picture size differs from the composited frames (`output.scaleTo`): stills. */
export function scaleArgs(spec: OutputSpec): string[] {
  return spec.scaleTo ? ['-vf', scaleFilter(spec)] : []
}

// The tags of every video file (core/ffmpeg/tone-map.ts, beside the filters that make the pixels so).
export { BT709_TAGS }

/**
 * The composited RGBA frames into the file's YUV: at the file's size (`output.scaleTo`), with BT.709's matrix in
 * TV range — the one browsers, players and platforms assume for HD, and the one the tags say (swscale's default is
 * BT.601, untagged: reds turned orange and greens dark in every player) — then `pixFmt`, in this one filter, so no
 * other conversion with another matrix slips in after it. SD sizes use BT.709 too, tagged as such.
 */
export function pictureArgs(spec: OutputSpec, pixFmt: string): string[] {
  // Frames converted on the GPU are already BT.709 TV-range I420: nothing left to convert, only to tag.
  if (spec.pixelFormat === 'yuv420p' && pixFmt === 'yuv420p' && !spec.scaleTo) return BT709_TAGS
  const size = spec.scaleTo ? `w=${spec.scaleTo.width}:h=${spec.scaleTo.height}:flags=bicubic:` : ''
  return ['-vf', `scale=${size}out_color_matrix=bt709:out_range=tv,format=${pixFmt}`, ...BT709_TAGS]
}

export function scaleFilter(spec: OutputSpec): string {
  return spec.scaleTo ? scaleToFilter(spec.scaleTo) : 'null'
}
