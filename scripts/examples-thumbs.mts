// `npm run examples:thumbs [words]`: renders every edit in examples/ (or those whose names hold a word) as it is
// written — its own output size, since text sizes are pixels of that frame — and writes docs/gallery/<name>.png:
// three of its frames (near 20, 50 and 80 % of its length: scripts/gallery-times.mts) side by side, as an 8-bit
// palette PNG so the gallery in docs/examples.md stays small. Run it after adding or changing an example, and
// commit the images: test/examples/gallery-renders.test.ts fails on a thumbnail the renderer no longer draws.
import { mkdirSync, readdirSync, readFileSync, statSync } from 'node:fs'
import { tmpdir } from 'node:os'
import { basename, join } from 'node:path'
import { ffmpegArgs, runFfmpeg } from '../core/index.js'
import { createRenderer, type Edit } from '../index.js'
import { thumbnailTimes } from './gallery-times.mjs'

const root = new URL('..', import.meta.url).pathname
const examples = join(root, 'examples')
const thumbs = join(root, 'docs', 'gallery')
const work = join(tmpdir(), `reelforge-thumbs-${process.pid}`)
mkdirSync(thumbs, { recursive: true })
mkdirSync(work, { recursive: true })

/** Frames are this tall in the strip; widths follow each edit's aspect ratio. */
const HEIGHT = 120
const only = process.argv.slice(2)
const files = readdirSync(examples)
  .filter((f) => f.endsWith('.json') && (!only.length || only.some((o) => f.includes(o))))
  .sort()
// The examples are offline by design: a fetch from anywhere is a mistake in one of them.
const renderer = createRenderer({ network: { allow: [] } })

for (const file of files) {
  const name = basename(file, '.json')
  const edit = JSON.parse(readFileSync(join(examples, file), 'utf8')) as Edit & { output: Record<string, unknown> }
  const result = await renderer.render(edit, {
    out: join(work, `${name}.${edit.output.format === 'gif' ? 'gif' : 'mp4'}`),
    baseDir: examples,
  })
  for (const w of result.warnings) console.warn(`  warning ${name}: ${w.path}: ${w.message}`)
  const [a, b, c] = thumbnailTimes(result.duration).map((t) => t.toFixed(2))
  const png = join(thumbs, `${name}.png`)
  await runFfmpeg(
    ffmpegArgs`-v error -y -ss ${a!} -i ${result.path} -ss ${b!} -i ${result.path} -ss ${c!} -i ${result.path} -filter_complex ${`[0:v]scale=-2:${HEIGHT},trim=end_frame=1[a];[1:v]scale=-2:${HEIGHT},trim=end_frame=1[b];[2:v]scale=-2:${HEIGHT},trim=end_frame=1[c];[a][b][c]hstack=3,split[s][p];[p]palettegen=max_colors=128[pal];[s][pal]paletteuse=dither=bayer`} -frames:v 1 ${png}`,
  )
  console.log(`${png.slice(root.length)}  ${(statSync(png).size / 1024).toFixed(1)} KB  (${result.duration.toFixed(2)} s at ${a}, ${b}, ${c})`)
}
