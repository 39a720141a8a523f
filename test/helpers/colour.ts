import { execFileSync } from 'node:child_process'
import type { Edit } from '../../index.js'
import { probe } from '../../kit.js'

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

/** Frame `at` decoded as a player does: the file's matrix and range tags, BT.709 TV range when untagged (HD). */
export async function playerRgb(path: string, at = 0.5): Promise<Buffer> {
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
      `scale=in_color_matrix=${matrix}:in_range=${range}:flags=bicubic,format=rgb24`,
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
