// `npm run bench`: reelforge against a hand-written ffmpeg filtergraph on the same slideshow, in one run.
import { mkdirSync, readFileSync, writeFileSync } from 'node:fs'
import { join } from 'node:path'
import { probe } from '../core/index.js'
import { ensureDisplay } from '../core/index.js'
import { measure } from './lib/measure.js'
import { slideshowMedia } from './lib/media.js'
import { slideshowReferenceArgs } from './slideshow.reference.js'

const here = import.meta.dirname
const work = join(here, '.media')
mkdirSync(work, { recursive: true })
const mb = (b: number) => `${(b / 1024 / 1024).toFixed(0)} MB`

async function slideshow(label: string, resolution: 'hd' | '1080', size: { width: number; height: number }) {
  const images = await slideshowMedia(work)
  const edit = JSON.parse(readFileSync(join(here, 'slideshow.json'), 'utf8'))
  edit.output.resolution = resolution
  const editFile = join(work, `slideshow-${resolution}.json`)
  writeFileSync(editFile, JSON.stringify(edit))
  // Children share one X server, started here, so neither side pays for it.
  const env = { ...process.env, DISPLAY: await ensureDisplay() }
  const ours = await measure(process.execPath, [join(here, 'render-child.mjs'), editFile, join(work, `ours-${resolution}.mp4`), here], { env })
  const result = JSON.parse(ours.stdout.trim().split('\n').at(-1)!)
  const ref = await measure('ffmpeg', slideshowReferenceArgs(images, size, join(work, `ref-${resolution}.mp4`)))
  const frames = (await probe(join(work, `ours-${resolution}.mp4`), { countFrames: true })).streams[0]!.frames!
  const refFrames = (await probe(join(work, `ref-${resolution}.mp4`), { countFrames: true })).streams[0]!.frames!
  const ratio = result.renderMs / ref.wallMs
  console.log(`\n${label}`)
  console.log(`  reelforge  render ${(result.renderMs / 1000).toFixed(2)} s (process ${(ours.wallMs / 1000).toFixed(2)} s)  ${(frames / (result.renderMs / 1000)).toFixed(1)} frames/s  peak tree RSS ${mb(ours.peakRss)}  frames ${frames} (composited ${result.drawn})`)
  console.log(`  ffmpeg     ${(ref.wallMs / 1000).toFixed(2)} s  ${(refFrames / (ref.wallMs / 1000)).toFixed(1)} frames/s  peak tree RSS ${mb(ref.peakRss)}  frames ${refFrames}`)
  console.log(`  ratio      ${ratio.toFixed(2)}x the filtergraph (target ≤ 1.5, goal ≤ 1.15)`)
  return { label, ratio, ours: result.renderMs, ref: ref.wallMs, rss: ours.peakRss }
}

await slideshow('slideshow 1280x720 @ 30 fps, 10 s, x264 medium CRF 18', 'hd', { width: 1280, height: 720 })
await slideshow('slideshow 1920x1080 @ 30 fps, 10 s, x264 medium CRF 18', '1080', { width: 1920, height: 1080 })
