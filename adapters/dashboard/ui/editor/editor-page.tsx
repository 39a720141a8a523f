import { useEffect, useMemo, useRef, useState } from 'preact/hooks'
import { ApiError, type Me } from '../api.js'
import { EDITOR_DRAFT } from '../drafts.js'
import { EXAMPLE, YAxisNote } from '../pages/playground.js'
import { AddClip } from './add-clip.js'
import { useCatalogue } from './catalog.js'
import { clipTimes, timelineEnd } from './clip-times.js'
import { isObj, type Obj } from './edit-doc.js'
import { EditActions } from './edit-actions.js'
import { Inspector } from './inspector.js'
import { JsonView } from './json-view.js'
import { editorKeys } from './keyboard.js'
import { MergePanel } from './merge-panel.js'
import { frameOf } from './output-frame.js'
import { soundsOf, usePlayback } from './playback.js'
import { Preview } from './preview.js'
import { usePreviewFrame } from './preview-frame.js'
import { useEditSchema } from './schema.js'
import { createEditorStore, useEditor } from './store.js'
import { TemplateBar } from './template-bar.js'
import { Timeline } from './timeline.js'
import { useValidation } from './validation.js'
import './editor.css'

function loadDraft(): Obj {
  try {
    const saved = JSON.parse(sessionStorage.getItem(EDITOR_DRAFT) ?? 'null')
    if (isObj(saved)) return saved
  } catch {
    // a broken draft: start from the example
  }
  return structuredClone(EXAMPLE)
}

/** Clip paths named by the validation's issues (`timeline.tracks[0].clips[1]`), to flag their bars. */
const flaggedClips = (paths: string[]) => new Set(paths.flatMap((p) => /^timeline\.tracks\[\d+\]\.clips\[\d+\]/.exec(p)?.[0] ?? []))

/**
 * The visual editor: a timeline, an inspector made from the API's schema, the renderer's own frame under the
 * playhead, merge fields, templates and the JSON — all views of one store, where every change is an undo step.
 */
export function EditorPage({ me }: { me: Me }) {
  const store = useMemo(() => createEditorStore(loadDraft()), [])
  const state = useEditor(store)
  const step = state.steps[state.index]!
  const edit = step.edit
  useEffect(() => sessionStorage.setItem(EDITOR_DRAFT, JSON.stringify(edit)), [edit])
  const times = useMemo(() => clipTimes(edit), [edit])
  const { fps } = frameOf(edit)
  const end = timelineEnd(times)
  const [playhead, setPlayhead] = useState(0)
  const playback = usePlayback({ end, playhead, seek: setPlayhead, sounds: () => soundsOf(edit, times, end) })
  const frame = usePreviewFrame(edit, playhead, playback.playing)
  const checked = useValidation(edit)
  const { schema, error: schemaError } = useEditSchema()
  const catalogue = useCatalogue()
  // A source the frame could not load names its field (an issue of the frame's answer): marked beside it as well —
  // only while the edit is the one that frame was asked for (a clip added since moves the others' paths).
  const frameIssues = frame.error instanceof ApiError && frame.failed === edit ? frame.error.issues : []
  const issues = [...(checked.edit === edit ? checked.issues : []), ...frameIssues]

  // One listener for the page's shortcuts, reading what is current through a ref.
  const keys = useRef({ store, times, fps, togglePlay: playback.toggle })
  keys.current = { store, times, fps, togglePlay: playback.toggle }
  useEffect(() => {
    const on = (e: KeyboardEvent) => editorKeys(keys.current)(e)
    window.addEventListener('keydown', on)
    return () => window.removeEventListener('keydown', on)
  }, [])

  return (
    <section class="editor-page" aria-labelledby="editor-title">
      <h1 id="editor-title">Editor</h1>
      <p class="hint">
        <YAxisNote axis={me.y_axis} /> Shortcuts: Ctrl+Z, Ctrl+Shift+Z, arrows (Shift: a second), Delete, Ctrl+D, Space.
      </p>
      <TemplateBar store={store} />
      <EditActions store={store} state={state} times={times} />
      <div class="editor-grid">
        <Preview
          store={store}
          step={step}
          times={times}
          playhead={playhead}
          yAxis={me.y_axis}
          frame={frame}
          playing={playback.playing}
          togglePlay={playback.toggle}
        />
        <Inspector store={store} step={step} schema={schema} schemaError={schemaError} catalogue={catalogue} issues={issues} />
      </div>
      <Timeline store={store} step={step} times={times} fps={fps} playhead={playhead} onSeek={setPlayhead} flagged={flaggedClips(issues.map((i) => i.path))} />
      <AddClip store={store} playhead={playhead} onFontsChanged={catalogue.reload} />
      <div class="editor-grid">
        <MergePanel store={store} edit={edit} />
        <JsonView store={store} edit={edit} checked={checked} />
      </div>
    </section>
  )
}
