import { execFileSync } from 'node:child_process'
import { writeFileSync } from 'node:fs'
import type { Edit } from '../../index.js'
import { ffmpegArgs, probe } from '../../kit.js'

// A colour chart and a player's decode, for the colour tests (test/render/colour*.test.ts).

export const PATCHES: [string, [number, number, number]][] = [
  ['#e02020', [224, 32, 32]],
  ['#20a040', [32, 160, 64]],
  ['#2040e0', [32, 64, 224]],
  ['#e0c020', [224, 192, 32]],
  ['#c08060', [192, 128, 96]], // skin tone
  ['#101010', [16, 16, 16]], // near black
  ['#f0f0f0', [240, 240, 240]], // near white
  ['#20c0c0', [32, 192, 192]],
]
/** A 4×2 grid of flat patches filling a 1280×720 frame. */
export function chartEdit(output: object): Edit {
  const clips = PATCHES.map(([color], i) => ({
    asset: { type: 'shape', shape: 'rectangle', rectangle: { width: 320, height: 360 }, fill: { color } },
    start: 0,
    length: 1,
    // Centred, moved to the patch's cell (offsets are fractions of the frame; y counts down, the seed's way).
    offset: { x: -0.375 + (i % 4) * 0.25, y: -0.25 + Math.floor(i / 4) * 0.5 },
  }))
  return { timeline: { background: '#000000', tracks: [{ clips }] }, output: { size: { width: 1280, height: 720 }, fps: 25, ...output } } as Edit
}

/**
 * Frame `at` decoded as a player does: the file's matrix and range tags, BT.709 TV range when untagged (HD);
 * `size`: shown at that size (an SD file read back on the chart's 1280×720 grid).
 */
export async function playerRgb(path: string, at = 0.5, size?: { width: number; height: number }): Promise<Buffer> {
  const v = (await probe(path)).streams.find((s) => s.type === 'video')!
  const matrix = v.colorSpace && v.colorSpace !== 'unknown' ? v.colorSpace.replace('bt470bg', 'bt601').replace('smpte170m', 'bt601') : 'bt709'
  const range = v.colorRange === 'pc' ? 'pc' : 'tv'
  return execFileSync(
    'ffmpeg',
    [
      '-v',
      'error',
      '-ss',
      String(at),
      '-i',
      path,
      '-frames:v',
      '1',
      '-vf',
      // Scaled, with swscale's careful rounding: its fast path is 3–4 levels off on flat colour (as no player is).
      `scale=${size ? `${size.width}:${size.height}:` : ''}in_color_matrix=${matrix}:in_range=${range}:flags=bicubic${size ? '+accurate_rnd+full_chroma_int' : ''},format=rgb24`,
      '-f',
      'rawvideo',
      '-',
    ],
    {
      maxBuffer: 64 * 1024 ** 2,
    },
  )
}
/** Mean colour of the middle of patch `i` (a 100×100 square). */
export function patch(rgb: Buffer, i: number, width = 1280): [number, number, number] {
  const x0 = (i % 4) * 320 + 110
  const y0 = Math.floor(i / 4) * 360 + 130
  const sum = [0, 0, 0]
  for (let y = y0; y < y0 + 100; y++) for (let x = x0; x < x0 + 100; x++) for (let c = 0; c < 3; c++) sum[c]! += rgb[(y * width + x) * 3 + c]!
  return sum.map((s) => Math.round(s / 10_000)) as [number, number, number]
}

/** The chart as raw rgb24 (each patch filling its 320×360 cell, as `chartEdit` draws it), for sources ffmpeg makes. */
export function chartRgb(): Buffer {
  const rgb = Buffer.alloc(1280 * 720 * 3)
  for (let y = 0; y < 720; y++) for (let x = 0; x < 1280; x++) rgb.set(PATCHES[Math.floor(y / 360) * 4 + Math.floor(x / 320)]![1], (y * 1280 + x) * 3)
  return rgb
}

/**
 * ffmpeg's own HDR → SDR pipeline with the operator docs/timeline.md documents, written out here rather than taken from
 * core/ffmpeg/tone-map.ts, so a wrong operator, peak or order there fails the tests: linear light at a nominal
 * peak of 100 cd/m², BT.709 primaries, `tonemap=mobius` without desaturation, BT.709 transfer and matrix, TV range.
 */
export const HDR_REFERENCE = 'zscale=t=linear:npl=100,format=gbrpf32le,zscale=p=bt709,tonemap=tonemap=mobius:desat=0,zscale=t=bt709:m=bt709:r=tv,format=yuv420p'

/** The chart as a 1 s 10-bit HEVC source: BT.2020 primaries with `transfer` (HLG, PQ or SDR `bt2020-10`), tagged. */
export function bt2020Chart(out: string, transfer: 'arib-std-b67' | 'smpte2084' | 'bt2020-10'): string {
  const to = `format=gbrp,zscale=tin=bt709:min=gbr:pin=bt709:rin=full:t=${transfer}:p=bt2020:m=bt2020nc:r=tv:npl=100,format=yuv420p10le`
  execFileSync('ffmpeg', [
    ...chartInput(out),
    ...ffmpegArgs`-t 1 -vf ${to} -c:v libx265 -x265-params log-level=error:crf=8`,
    ...ffmpegArgs`-color_primaries bt2020 -color_trc ${transfer} -colorspace bt2020nc -color_range tv ${out}`,
  ])
  return out
}

/** The chart as a 1 s H.264 source in `matrix` (BT.601 or BT.709), TV range, tagged so; `size` scales it (`640:360`). */
export function chartVideo(out: string, matrix: 'bt601' | 'bt709', o: { size?: string; fps?: number } = {}): string {
  const tag = matrix === 'bt601' ? 'smpte170m' : 'bt709'
  const vf = `scale=${o.size ? `${o.size}:flags=lanczos:` : ''}out_color_matrix=${matrix}:out_range=tv,format=yuv420p`
  execFileSync('ffmpeg', [
    ...chartInput(out, o.fps),
    ...ffmpegArgs`-t 1 -vf ${vf} -c:v libx264 -crf 4`,
    ...ffmpegArgs`-colorspace ${tag} -color_primaries ${tag} -color_trc ${tag} -color_range tv ${out}`,
  ])
  return out
}

/** ffmpeg input options reading the chart (written beside `out`) as an endless 1280×720 rgb24 stream. */
function chartInput(out: string, fps = 25): string[] {
  writeFileSync(`${out}.rgb`, chartRgb())
  return ffmpegArgs`-v error -y -f rawvideo -pix_fmt rgb24 -s 1280x720 -r ${fps} -stream_loop -1 -i ${out}.rgb`
}
