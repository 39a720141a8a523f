import { type Compositor, type Edit, ffmpegReason, type Issue, RenderError, spawnFfmpeg } from '../../core/index.js'

/** What `validate --probe` found: the problems a render would meet, and how much it looked at. */
export interface ProbeReport {
  issues: Issue[]
  sources: number
  fonts: number
}

const SUBSTITUTED = /^font "(.+)" is not available; using "(.+)"$/

/**
 * Does what a render does before its first frame, and a little of each clip's first frame: plans the edit (every
 * source fetched and probed, every font file loaded, every font family looked up), opens each drawn clip and takes
 * its first picture, and decodes the first second of each sound. A render substitutes an unknown family with a
 * warning; here it is an issue. AI assets are made by the renderer it is given (the CLI's: the free sandbox).
 */
export async function probeEdit(renderer: Compositor, edit: Edit, baseDir: string): Promise<ProbeReport> {
  let plan: Awaited<ReturnType<Compositor['plan']>>
  try {
    plan = await renderer.plan(edit, { baseDir })
  } catch (e) {
    if (!(e instanceof RenderError) || e.code === 'E_CANCELLED') throw e
    if (e.data?.issues?.length) return { issues: e.data.issues, sources: 0, fonts: 0 }
    return { issues: [asIssue(e, '')], sources: 0, fonts: 0 }
  }
  const issues: Issue[] = []
  try {
    for (const w of plan.warnings) {
      const m = SUBSTITUTED.exec(w.message)
      if (m) issues.push({ path: `${w.path}.font.family`, message: `font "${m[1]}" is not available (a render would use "${m[2]}")` })
    }
    for (const layer of plan.layers) {
      if (!layer.asset.open) continue
      try {
        const source = await layer.asset.open(plan.gpu, layer.need, 0)
        try {
          await source.frame(0)
        } finally {
          source.close()
        }
      } catch (e) {
        issues.push(asIssue(e, `${layer.path}.asset`))
      }
    }
    for (const sound of plan.sounds) {
      const why = await undecodable(sound.source.path, sound.source.trim)
      if (why) issues.push({ path: `${sound.path}.asset.src`, message: `cannot decode the sound of ${sound.source.path}: ${why}` })
    }
    return { issues, sources: sourcesIn(plan.edit), fonts: familiesIn(plan.edit).size }
  } finally {
    await plan.dispose()
  }
}

/** An error as an issue at its own path (or `fallback`), without the path repeated at the message's head. */
function asIssue(e: unknown, fallback: string): Issue {
  const path = (e instanceof RenderError && e.data?.path) || fallback
  const message = e instanceof Error ? e.message : String(e)
  return { path, message: message.startsWith(`${path}: `) ? message.slice(path.length + 2) : message }
}

/** Why the first second of a file's sound does not decode, or undefined when it does. */
async function undecodable(path: string, trim: number): Promise<string | undefined> {
  const ffmpeg = spawnFfmpeg(['-v', 'error', '-xerror', '-ss', String(trim), '-t', '1', '-i', path, '-vn', '-f', 'null', '-'])
  const code = await ffmpeg.exited
  return code === 0 ? undefined : ffmpegReason(ffmpeg.stderr())
}

type Walkable = { timeline: { tracks: { clips: { asset: Record<string, unknown> }[] }[]; soundtrack?: { src: string }; fonts?: { src: string }[] } }

/** The files and URLs an edit reads: each asset's `src` (not svg's, which is markup), the soundtrack and font files. */
function sourcesIn(edit: unknown): number {
  const { timeline } = edit as Walkable
  const assets = timeline.tracks.flatMap((t) => t.clips.map((c) => c.asset))
  const srcs = assets.filter((a) => a.type !== 'svg' && typeof a.src === 'string').map((a) => a.src as string)
  return new Set([...srcs, ...(timeline.soundtrack ? [timeline.soundtrack.src] : []), ...(timeline.fonts ?? []).map((f) => f.src)]).size
}

/** The font families an edit names (`font.family`, rich-caption's `active.font.family`). */
function familiesIn(edit: unknown): Set<string> {
  const fonts = (edit as Walkable).timeline.tracks.flatMap((t) =>
    t.clips.flatMap(({ asset }) => [asset.font, (asset.active as { font?: unknown } | undefined)?.font] as { family?: unknown }[]),
  )
  return new Set(fonts.map((f) => f?.family).filter((f): f is string => typeof f === 'string'))
}
