// `npm run bench`: reelforge against a hand-written ffmpeg filtergraph on the same slideshow, the mixed 1080p
// minute with CPU-seconds per output minute, and the segment scaling table (`npm run bench -- segments` alone).
import { mkdirSync, readFileSync, writeFileSync } from 'node:fs'
import { join } from 'node:path'
import { probe } from '../core/index.js'
import { ensureDisplay } from '../core/index.js'
import { measure } from './lib/measure.js'
import { mb, timed } from './lib/timed.js'
import { slideshowMedia } from './lib/media.js'
import { slideshowReferenceArgs } from './slideshow.reference.js'
import { mixedEdit } from './mixed.js'
import { footageCase } from './footage-case.js'

const here = import.meta.dirname
const work = join(here, '.media')
mkdirSync(work, { recursive: true })

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
  console.log(
    `  reelforge  render ${(result.renderMs / 1000).toFixed(2)} s (process ${(ours.wallMs / 1000).toFixed(2)} s)  ${(frames / (result.renderMs / 1000)).toFixed(1)} frames/s  peak tree RSS ${mb(ours.peakRss)}  frames ${frames} (composited ${result.drawn})`,
  )
  console.log(
    `  ffmpeg     ${(ref.wallMs / 1000).toFixed(2)} s  ${(refFrames / (ref.wallMs / 1000)).toFixed(1)} frames/s  peak tree RSS ${mb(ref.peakRss)}  frames ${refFrames}`,
  )
  console.log(`  ratio      ${ratio.toFixed(2)}x the filtergraph (target ≤ 1.5, goal ≤ 1.15)`)
  return { label, ratio, ours: result.renderMs, ref: ref.wallMs, rss: ours.peakRss }
}

const only = process.argv[2]
if (!only || only === 'slideshow') {
  await slideshow('slideshow 1280x720 @ 30 fps, 10 s, x264 medium CRF 18', 'hd', { width: 1280, height: 720 })
  await slideshow('slideshow 1920x1080 @ 30 fps, 10 s, x264 medium CRF 18', '1080', { width: 1920, height: 1080 })
}
if (!only || only === 'mixed' || only === 'mixed-60s') {
  const one = (
    await timed('mixed 60 s 1080p30 (2 videos, 4 images, 3 html titles, soundtrack, fades; quality medium)', await mixedEdit(work, 1), 'mixed-60s', work)
  ).run
  if (only === 'mixed-60s') process.exit(0)
  await timed(
    "worst case: the same 60 s with its second clip a 75 Mbit/s noise video (Conway's life)",
    await mixedEdit(work, 1, 'noise'),
    'mixed-60s-noise',
    work,
  )
  const ten = (await timed('the same stretched to 10 minutes', await mixedEdit(work, 10), 'mixed-10min', work)).run
  console.log(`  peak RSS 10 min / 60 s: ${(ten.peakRss / one.peakRss).toFixed(2)}, peak PSS ${(ten.peakPss / one.peakPss).toFixed(2)} (flat means ≤ 1.10)`)
}
if (!only || only.startsWith('footage')) await footageCase(work, only)
if (!only || only === 'segments') {
  console.log('\nsegment scaling (benchmarks/segments.ts)')
  await import('./segments.js')
}
