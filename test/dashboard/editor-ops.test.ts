import { suite } from 'uvu'
import * as assert from 'uvu/assert'
import { clipTimes } from '../../adapters/dashboard/ui/editor/clip-times.js'
import { setIn } from '../../adapters/dashboard/ui/editor/edit-doc.js'
import { deleteClips, duplicateClips, moveClips, trimClip } from '../../adapters/dashboard/ui/editor/ops.js'
import { createEditorStore } from '../../adapters/dashboard/ui/editor/store.js'

// The editor's changes as pure functions of the edit, and its history: what each gesture writes into the JSON.

const test = suite('editor changes and history')
const video = (start: number, length: number, asset: object = {}) => ({ asset: { type: 'video', src: 'https://example.com/a.mp4', ...asset }, start, length })
const edit = () => ({
  timeline: { tracks: [{ clips: [video(0, 4, { trim: 1 })] }, { clips: [{ asset: { type: 'title', text: 'x' }, start: 1, length: 2 }] }] },
  output: { format: 'mp4', resolution: 'sd' },
})
const at = (track: number, clip: number) => ({ track, clip })

test('trimming a video’s start moves start, shortens length and advances trim by the source time (× speed)', () => {
  const { edit: e } = trimClip(edit(), at(0, 0), 'start', 1.5, { start: 0, length: 4 })
  assert.equal((e as any).timeline, { tracks: [{ clips: [video(1.5, 2.5, { trim: 2.5 })] }, edit().timeline.tracks[1]] })
  const fast = setIn(edit(), ['timeline', 'tracks', 0, 'clips', 0, 'asset', 'speed'], 2) as ReturnType<typeof edit>
  const r = trimClip(fast, at(0, 0), 'start', 1, { start: 0, length: 4 })
  assert.is((r.edit as any).timeline.tracks[0].clips[0].asset.trim, 3, 'a second of timeline is two of source at speed 2')
})

test('a trim cannot reach before the source’s first frame, past the clip’s end, or make a clip shorter than a frame', () => {
  const early = trimClip(edit(), at(0, 0), 'start', -5, { start: 0, length: 4 }).edit as any
  assert.equal([early.timeline.tracks[0].clips[0].start, early.timeline.tracks[0].clips[0].asset.trim], [0, 1], 'start clamped at 0 s')
  const moved = setIn(edit(), ['timeline', 'tracks', 0, 'clips', 0, 'start'], 3) as any
  const back = trimClip(moved, at(0, 0), 'start', 0, { start: 3, length: 4 }).edit as any
  assert.equal([back.timeline.tracks[0].clips[0].start, back.timeline.tracks[0].clips[0].asset.trim], [2, 0], 'only as far back as trim allows')
  const past = trimClip(edit(), at(0, 0), 'end', -1, { start: 0, length: 4 }).edit as any
  assert.is(past.timeline.tracks[0].clips[0].length, 0.04)
  const title = trimClip(edit(), at(1, 0), 'start', 2, { start: 1, length: 2 }).edit as any
  assert.equal(title.timeline.tracks[1].clips[0], { asset: { type: 'title', text: 'x' }, start: 2, length: 1 }, 'no trim for a title')
})

test('moves keep a clip in its place on its track, put it in start order on another, drop an emptied track, add one below', () => {
  const same = moveClips(edit(), [{ ref: at(0, 0), start: 2 }]).edit as any
  assert.is(same.timeline.tracks[0].clips[0].start, 2)
  const down = moveClips(edit(), [{ ref: at(0, 0), start: 0.5 }], 1)
  const e = down.edit as any
  assert.is(e.timeline.tracks.length, 1, 'the emptied first track is gone')
  assert.equal(
    e.timeline.tracks[0].clips.map((c: { start: number }) => c.start),
    [0.5, 1],
    'before the title, by start',
  )
  assert.is(down.selected[0], e.timeline.tracks[0].clips[0], 'the moved clip is selected')
  const below = moveClips(edit(), [{ ref: at(1, 0), start: 1 }], 1).edit as any
  assert.is(below.timeline.tracks.length, 2, 'a new bottom track, the emptied one dropped')
  assert.is(below.timeline.tracks[1].clips[0].asset.type, 'title')
})

test('duplicate puts each copy after its clip; delete removes clips and empty tracks', () => {
  const times = clipTimes(edit())
  const copy = duplicateClips(edit(), [at(0, 0), at(1, 0)], (r) => times[r.track]![r.clip]!)
  const e = copy.edit as any
  assert.equal(
    e.timeline.tracks.map((t: { clips: { start: number; length: number }[] }) => t.clips.map((c) => [c.start, c.length])),
    [
      [
        [0, 4],
        [4, 4],
      ],
      [
        [1, 2],
        [3, 2],
      ],
    ],
  )
  assert.is(copy.selected.length, 2)
  const gone = deleteClips(edit(), [at(1, 0)]).edit as any
  assert.is(gone.timeline.tracks.length, 1)
})

test('clip times: auto starts after the previous clip, end runs to the end, merge fields by their sample values', () => {
  const e = {
    timeline: {
      tracks: [
        { clips: [video(0, 2), { asset: { type: 'title', text: 'x' }, start: 'auto', length: '{{ LEN }}' }] },
        { clips: [{ asset: { type: 'title', text: 'y' }, start: 1, length: 'end' }] },
      ],
    },
    merge: [{ find: 'LEN', replace: 3 }],
  }
  const t = clipTimes(e)
  assert.equal(
    t.map((track) => track.map((c) => [c.start, c.length, c.exact])),
    [
      [
        [0, 2, true],
        [2, 3, false],
      ],
      [[1, 4, false]],
    ],
  )
})

test('history: every change is a step; undo gives back the very object, redo re-applies, a new change drops the undone', () => {
  const first = edit()
  const store = createEditorStore(first)
  const a = moveClips(first, [{ ref: at(0, 0), start: 1 }])
  store.change('Move', a.edit, a.selected)
  assert.equal(store.current().selection, [at(0, 0)])
  const b = trimClip(a.edit, at(0, 0), 'end', 3, { start: 1, length: 4 })
  store.change('Trim', b.edit, b.selected)
  store.undo()
  store.undo()
  assert.is(store.current().edit, first, 'the same object, so the same JSON')
  store.redo()
  assert.is(store.current().edit, a.edit)
  store.change('Delete', deleteClips(a.edit, [at(0, 0)]).edit, [])
  store.redo()
  assert.is(store.current().label, 'Delete', 'the undone trim is gone')
  assert.is(store.get().steps.length, 3)
  store.change('Same', JSON.parse(JSON.stringify(store.current().edit)))
  assert.is(store.get().steps.length, 3, 'an unchanged edit is no step')
})

test('typing in the JSON: a run of changes with the same label folds into one step', () => {
  const store = createEditorStore(edit())
  store.change('Edit the JSON', { ...edit(), merge: [] }, undefined, { merge: true })
  store.change('Edit the JSON', { ...edit(), merge: [{ find: 'A', replace: 1 }] }, undefined, { merge: true })
  assert.is(store.get().steps.length, 2)
  store.undo()
  assert.equal(store.current().edit, edit())
})

test.run()
