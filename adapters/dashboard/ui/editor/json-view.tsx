import { useEffect, useMemo, useRef, useState } from 'preact/hooks'
import { syntaxErrors } from '../json-path.js'
import { markIssues, parseEdit, TimelineEditor } from '../pages/timeline-editor.js'
import type { Obj } from './edit-doc.js'
import type { EditorStore } from './store.js'
import type { Checked } from './validation.js'

/**
 * The edit as JSON, in step with everything else both ways: a change made elsewhere reprints it; typing that
 * parses becomes the edit (a run of typing is one undo step) and the timeline follows; while it does not
 * parse, the error is drawn on its line and column and the rest of the editor keeps the last good edit.
 */
export function JsonView({ store, edit, checked }: { store: EditorStore; edit: Obj; checked: Checked & { checking: boolean } }) {
  const [text, setText] = useState(() => JSON.stringify(edit, null, 2))
  // The edit the text shows now: typing sets it to what it parsed, a reprint to what it printed.
  const fromText = useRef<Obj>(edit)
  useEffect(() => {
    if (edit === fromText.current) return
    fromText.current = edit
    setText(JSON.stringify(edit, null, 2))
  }, [edit])
  const syntax = useMemo(() => syntaxErrors(text), [text])
  const onInput = (t: string) => {
    setText(t)
    const parsed = parseEdit(t)
    if (parsed instanceof Error) return
    fromText.current = parsed
    store.change('Edit the JSON', parsed, undefined, { merge: true })
  }
  const server = { text: checked.edit === edit && !syntax.length ? text : '', issues: checked.issues }
  return (
    <section class="card json-view" aria-labelledby="json-view-title">
      <h2 id="json-view-title">JSON</h2>
      <TimelineEditor text={text} onInput={onInput} issues={markIssues(text, syntax, server)} checking={syntax.length > 0 || checked.checking} />
    </section>
  )
}
