// `npm run bench:tonemap`: the CPU cost of tone-mapping an HDR source, per minute of source: the decoder's own
// graph (as the renderer runs it) on a 1080p HLG HEVC clip with and without the tone-map step, in one run. SDR
// sources never take the step (toneMapFilters returns nothing for them), so their renders are untouched.
import { execFileSync } from 'node:child_process'
import { existsSync, mkdirSync } from 'node:fs'
import { join } from 'node:path'
import { toneMapFilters } from '../core/ffmpeg/tone-map.js'
import { ffmpegArgs } from '../core/index.js'
import { measure } from './lib/measure.js'

const work = join(import.meta.dirname, '.media')
mkdirSync(work, { recursive: true })
const seconds = 10
const src = join(work, `hlg-1080p-${seconds}s.mp4`)
if (!existsSync(src)) {
  const hlg = 'format=gbrp,zscale=tin=iec61966-2-1:min=gbr:pin=bt709:rin=full:t=arib-std-b67:p=bt2020:m=bt2020nc:r=tv:npl=100,format=yuv420p10le'
  execFileSync(
    'ffmpeg',
    ffmpegArgs`-v error -y -f lavfi -i testsrc2=s=1920x1080:r=30:d=${seconds} -vf ${hlg} -c:v libx265 -preset ultrafast -x265-params log-level=error
      -color_primaries bt2020 -color_trc arib-std-b67 -colorspace bt2020nc ${src}`,
  )
}
// The decoder's graph (core/ffmpeg/decoder.ts): scaled to the drawn size, then tone-mapped, then the format it hands
// over, written out raw as it writes to its socket.
const decode = (filters: string[], format = 'rgba') =>
  measure('ffmpeg', [
    '-v',
    'error',
    '-threads',
    '1',
    '-i',
    src,
    '-vf',
    ['scale=1920:1080:flags=bicubic', ...filters, `format=${format}`].join(','),
    '-f',
    'rawvideo',
    '-y',
    '/dev/null',
  ])
const cpu = (run: Awaited<ReturnType<typeof measure>>) => [...run.cpuByRole.values()].reduce((a, b) => a + b, 0)
const plain = await decode([])
const mapped = await decode(toneMapFilters('arib-std-b67'))
// A clip drawn at the output's size where frames are packed on the CPU hands over the tone map's own I420.
const i420 = await decode(toneMapFilters('arib-std-b67'), 'yuv420p')
const perMinute = (s: number) => (s / (seconds / 60)).toFixed(1)
const row = (label: string, run: typeof plain) =>
  console.log(
    `  ${label} ${perMinute(cpu(run))} CPU-s per source minute (${(run.wallMs / 1000).toFixed(1)} s wall, peak RSS ${(run.peakRss / 1024 ** 2).toFixed(0)} MB)`,
  )
console.log(`1080p30 HLG HEVC, ${seconds} s, decoded as the renderer's decoder does (one thread):`)
row('without tone-mapping, to RGBA:', plain)
row('with tone-mapping, to RGBA:   ', mapped)
row('with tone-mapping, to I420:   ', i420)
console.log(`  the step costs ${perMinute(cpu(mapped) - cpu(plain))} CPU-s per minute of HDR source`)
