import { existsSync, readdirSync, readFileSync } from 'node:fs'
import { join, resolve } from 'node:path'
import { suite } from 'uvu'
import * as assert from 'uvu/assert'
import { createRenderer } from '../../index.js'
import { parseColorBytes, RenderError, type Issue } from '../../core/index.js'

const renderer = createRenderer()
const base = () => ({
  timeline: { tracks: [{ clips: [{ asset: { type: 'image', src: 'a.png' }, start: 0, length: 2 }] }] },
  output: { format: 'mp4', resolution: 'sd' },
})

/** The issues an invalid edit produces (fails when the edit is accepted). */
function issuesOf(edit: unknown): Issue[] {
  try {
    renderer.validate(edit)
  } catch (e) {
    assert.instance(e, RenderError)
    assert.is((e as RenderError).code, 'E_TIMELINE_INVALID')
    return (e as RenderError).data!.issues!
  }
  assert.unreachable('the edit was accepted')
  return []
}
const hasIssue = (issues: Issue[], path: string, pattern: RegExp) =>
  assert.ok(
    issues.some((i) => i.path === path && pattern.test(i.message)),
    `expected ${path} ~ ${pattern}; got ${JSON.stringify(issues)}`,
  )

// ── The real-world corpus ───────────────────────────────────────────────────────────────────
const compat = suite('compat corpus')
const compatDir = resolve(process.env.REELFORGE_COMPAT_DIR ?? join(import.meta.dirname, '../../../shared/compat'))
if (existsSync(compatDir)) {
  const files = readdirSync(compatDir).filter((f) => f.endsWith('.json'))
  compat('every edit in ../shared/compat validates', () => {
    assert.ok(files.length >= 100, `only ${files.length} files found`)
    const failures: string[] = []
    for (const f of files) {
      let e = JSON.parse(readFileSync(join(compatDir, f), 'utf8'))
      if (e.template && e.name) e = e.template // POST /templates bodies wrap the edit
      try {
        renderer.validate(e)
      } catch (err) {
        failures.push(`${f}: ${(err as Error).message}`)
      }
    }
    assert.equal(failures, [])
  })
} else {
  console.log(`note: ${compatDir} not found; the compat corpus check did not run (set REELFORGE_COMPAT_DIR)`)
}
compat.run()

// ── Loose input that real edits contain ─────────────────────────────────────────────────────
const loose = suite('loose input')
loose('numeric and boolean strings are coerced', () => {
  const e = base() as any
  e.timeline.tracks[0].clips[0].start = '1.5'
  e.timeline.cache = 'false'
  e.output.fps = '30'
  const { edit } = renderer.validate(e)
  assert.is(edit.timeline.tracks[0]!.clips[0]!.start, 1.5)
  assert.is(edit.timeline.cache, false)
  assert.is(edit.output.fps, 30)
})
loose('unknown keys are warnings with their path, not errors', () => {
  const e = base() as any
  e.timeline.tracks[0].clips[0].asset.seed = 42
  e.timeline.tracks[0].clips[0].sparkle = true
  const { warnings } = renderer.validate(e)
  assert.ok(warnings.some((w) => w.path === 'timeline.tracks[0].clips[0].asset.seed' && /unknown key/.test(w.message)))
  assert.ok(warnings.some((w) => w.path === 'timeline.tracks[0].clips[0].sparkle'))
})
loose("the seed's plain soundtrack URL and Shotstack's object are both accepted", () => {
  const a = base() as any
  a.timeline.soundtrack = 'https://example.com/music.mp3'
  assert.is(renderer.validate(a).edit.timeline.soundtrack!.src, 'https://example.com/music.mp3')
  const b = base() as any
  b.timeline.soundtrack = { src: 'https://example.com/m.mp3', effect: 'fadeOut', volume: 0.5 }
  assert.is(renderer.validate(b).edit.timeline.soundtrack!.volume, 0.5)
})
loose("a clip of length 0 validates, as Shotstack's spec allows, with a warning that it is never shown", () => {
  const edit = base()
  edit.timeline.tracks[0]!.clips[0]!.length = 0
  const { warnings } = renderer.validate(edit)
  assert.equal(warnings, [{ path: 'timeline.tracks[0].clips[0].length', message: '0 s: the clip is never shown' }])
})
loose('"easing": "linear" and Shotstack\'s smart values validate', () => {
  const e = base() as any
  e.timeline.tracks[0].clips[0].opacity = [{ from: 0, to: 1, start: 0, length: 1, interpolation: 'bezier', easing: 'linear' }]
  e.timeline.tracks[0].clips.push({ asset: { type: 'title', text: 'x' }, start: 'auto', length: 'end' })
  renderer.validate(e)
})
loose('output.format defaults to mp4 when omitted', () => {
  const e = base() as any
  delete e.output.format
  assert.is(renderer.validate(e).edit.output.format, 'mp4')
})
loose.run()

// ── Merge fields ────────────────────────────────────────────────────────────────────────────
const merge = suite('merge fields')
merge("a whole-string placeholder takes the replacement's type; inside text it is spliced", () => {
  const e = base() as any
  e.timeline.tracks[0].clips[0].start = '{{ START }}'
  e.timeline.tracks[0].clips.push({ asset: { type: 'title', text: 'Hi {{NAME}}!' }, start: 0, length: 1 })
  e.merge = [
    { find: 'START', replace: 5.2 },
    { find: 'NAME', replace: 'Ada' },
  ]
  const { edit } = renderer.validate(e)
  assert.is(edit.timeline.tracks[0]!.clips[0]!.start, 5.2)
  assert.is(edit.timeline.tracks[0]!.clips[1]!.asset.text, 'Hi Ada!')
})
merge('a placeholder with no value is a warning, and a colour placeholder falls back', () => {
  const e = base() as any
  e.timeline.background = '{{ BRAND }}'
  const { edit, warnings } = renderer.validate(e)
  assert.is(edit.timeline.background, undefined)
  assert.ok(warnings.some((w) => w.path === 'timeline.background' && /BRAND/.test(w.message)))
})
merge.run()

// ── Bad input: every issue, with its path and the rule ──────────────────────────────────────
const bad = suite('invalid edits')
bad('wrong types name the field path and what was received', () => {
  const e = base() as any
  e.timeline.tracks[0].clips[0].start = 'soon'
  e.timeline.tracks[0].clips[0].asset.src = 42
  const issues = issuesOf(e)
  hasIssue(issues, 'timeline.tracks[0].clips[0].start', /"soon"/)
  hasIssue(issues, 'timeline.tracks[0].clips[0].asset.src', /URL string.*42/)
})
bad('out-of-range values name the allowed range', () => {
  const e = base() as any
  Object.assign(e.timeline.tracks[0].clips[0], { opacity: 1.5, scale: -1, offset: { x: 11 } })
  e.output.fps = 31
  const issues = issuesOf(e)
  hasIssue(issues, 'timeline.tracks[0].clips[0].opacity', /between 0 and 1, got 1\.5/)
  hasIssue(issues, 'timeline.tracks[0].clips[0].scale', /between 0 and 100, got -1/)
  hasIssue(issues, 'timeline.tracks[0].clips[0].offset.x', /between -10 and 10, got 11/)
  hasIssue(issues, 'output.fps', /one of 12, 15.*got 31/)
})
bad('an unknown asset type lists the known ones', () => {
  const e = base() as any
  e.timeline.tracks[0].clips[0].asset = { type: 'hologram' }
  hasIssue(issuesOf(e), 'timeline.tracks[0].clips[0].asset.type', /unknown asset type "hologram"; known: .*image.*title.*video/)
})
bad('a misspelt transition is answered with the closest names, not all ~200', () => {
  const e = base() as any
  Object.assign(e.timeline.tracks[0].clips[0], { transition: { in: 'fadee', out: 'wipeleft' } })
  const issues = issuesOf(e)
  const message = (at: string) => issues.find((i) => i.path === at)!.message
  assert.match(message('timeline.tracks[0].clips[0].transition.in'), /^unknown transition "fadee"; closest known: fade, /)
  assert.match(message('timeline.tracks[0].clips[0].transition.out'), /closest known: wipeLeft, /)
  assert.ok(message('timeline.tracks[0].clips[0].transition.in').split(',').length <= 7, 'a few names, not the list')
})
bad('a name far longer than any known one is compared by its start only (a 200 KB name once cost seconds per issue)', () => {
  const e = base() as any
  Object.assign(e.timeline.tracks[0].clips[0], { transition: { in: `fade${'x'.repeat(200_000)}` } })
  const message = issuesOf(e).find((i) => i.path === 'timeline.tracks[0].clips[0].transition.in')!.message
  assert.match(message, /closest known: fade, [^;]+ \(\d+ more\)$/)
  assert.ok(message.length < 400_000, 'the name is quoted, the list stays short')
})
bad('unknown transition, effect and filter names list the known ones', () => {
  const e = base() as any
  Object.assign(e.timeline.tracks[0].clips[0], { transition: { in: 'wobble' }, effect: 'spin', filter: 'sepia' })
  const issues = issuesOf(e)
  hasIssue(issues, 'timeline.tracks[0].clips[0].transition.in', /unknown transition "wobble"; closest known: [^;]+ \(\d+ more\)$/)
  hasIssue(issues, 'timeline.tracks[0].clips[0].effect', /unknown effect "spin"; closest known: /)
  hasIssue(issues, 'timeline.tracks[0].clips[0].filter', /unknown filter "sepia"; known: .*greyscale/)
})
bad('missing required fields and empty arrays are reported together', () => {
  const issues = issuesOf({ timeline: { tracks: [{ clips: [] }, { clips: [{ asset: { type: 'image', src: 'x' } }] }] }, output: {} })
  hasIssue(issues, 'timeline.tracks[0].clips', /at least one clip/)
  hasIssue(issues, 'timeline.tracks[1].clips[0].start', /./)
  hasIssue(issues, 'timeline.tracks[1].clips[0].length', /./)
})
bad('a video, image or audio asset with neither src nor prompt is refused at its src', () => {
  const clip = (asset: object, start: number) => ({ asset, start, length: 1 })
  const tracks = [{ clips: [clip({ type: 'video' }, 0), clip({ type: 'image', crop: { top: 0.1 } }, 1), clip({ type: 'audio', volume: 0.5 }, 2)] }]
  const issues = issuesOf({ timeline: { tracks }, output: { format: 'mp4', resolution: 'sd' } })
  for (const c of [0, 1, 2]) hasIssue(issues, `timeline.tracks[0].clips[${c}].asset.src`, /is required \(or give a prompt\)/)
  // Either one is enough; an empty src is not.
  renderer.validate({ timeline: { tracks: [{ clips: [clip({ type: 'video', prompt: 'a boat' }, 0), clip({ type: 'audio', src: 'a.mp3' }, 1)] }] } })
  hasIssue(issuesOf({ timeline: { tracks: [{ clips: [clip({ type: 'image', src: '' }, 0)] }] } }), 'timeline.tracks[0].clips[0].asset.src', /./)
})
bad('a colour word that names no colour is refused (it drew black); every CSS colour name is taken', () => {
  const titled = (color: string, background = '#000000') => ({
    timeline: { background, tracks: [{ clips: [{ asset: { type: 'title', text: 'x', color }, start: 0, length: 1 }] }] },
  })
  const issues = issuesOf(titled('notacolor', 'bluish'))
  hasIssue(issues, 'timeline.background', /must be a colour: .*CSS colour name.*got "bluish"/)
  hasIssue(issues, 'timeline.tracks[0].clips[0].asset.color', /got "notacolor"/)
  for (const name of ['rebeccapurple', 'DarkSlateGray', 'transparent', 'rgba(0, 0, 0, 0.5)']) renderer.validate(titled(name))
  assert.equal(parseColorBytes('rebeccapurple'), [102, 51, 153, 255])
  assert.equal(parseColorBytes('DarkSlateGrey'), [47, 79, 79, 255])
})
bad('a non-object edit is rejected at the root', () => {
  hasIssue(issuesOf('nope'), '', /JSON object/)
  hasIssue(issuesOf({ output: {} }), 'timeline', /./)
})
bad.run()
