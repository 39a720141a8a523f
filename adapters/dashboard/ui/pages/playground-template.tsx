import { useState } from 'preact/hooks'
import { api, ApiError, type Issue } from '../api'
import { FieldError, fieldInvalid, Notice, when, useAction } from '../components'
import { PLAYGROUND_DRAFT as DRAFT, PLAYGROUND_TEMPLATE as EDITING } from '../drafts'
import { parseEdit } from './timeline-editor'

interface Editing {
  id: string
  name: string
}
const readEditing = (): Editing | null => {
  try {
    return JSON.parse(sessionStorage.getItem(EDITING) ?? 'null')
  } catch {
    return null
  }
}

/** "Edit in playground": the template's edit becomes the draft, remembered as that template's, and the playground opens. */
export function editInPlayground(t: Editing & { template: unknown }) {
  sessionStorage.setItem(DRAFT, JSON.stringify(t.template, null, 2))
  sessionStorage.setItem(EDITING, JSON.stringify({ id: t.id, name: t.name }))
  location.hash = '#/playground'
}

/**
 * A save refused for its edit names paths under `template.`; without that prefix they are the editor's own
 * paths, so `onIssues` can mark them on their lines as the validation's are. Returns the notice to show.
 */
function placeIssues(err: unknown, onIssues: (issues: Issue[]) => void): Error {
  const inEdit = err instanceof ApiError ? err.issues.filter((i) => /^template(\.|$)/.test(i.path)) : []
  if (!inEdit.length) return err as Error
  onIssues(inEdit.map((i) => ({ ...i, path: i.path.replace(/^template\.?/, '') })))
  return new Error(`Not saved: the timeline has ${inEdit.length} issue${inEdit.length === 1 ? '' : 's'}, marked in the editor.`)
}

type Props = { text: string; onIssues(issues: Issue[]): void }

/** Shown while the draft is a saved template's edit: save it back (PUT), or stop treating it as that template's. */
export function EditingBar({ text, onIssues }: Props) {
  const [editing, setEditing] = useState(readEditing)
  const { busy, error, setError, run } = useAction((err) => placeIssues(err, onIssues))
  const [note, setNote] = useState('')
  if (!editing) return null
  const save = (e: Event) => {
    e.preventDefault()
    setNote('')
    const edit = parseEdit(text)
    if (edit instanceof Error) return setError(edit)
    run(async () => {
      const saved = await api<{ name: string; updated_at: string }>('PUT', `/v1/templates/${editing.id}`, { template: edit })
      setNote(`Template ${saved.name} saved (${when(saved.updated_at)}).`)
    })
  }
  const stop = () => (sessionStorage.removeItem(EDITING), setEditing(null))
  return (
    <form class="card editing" onSubmit={save} aria-labelledby="editing-title">
      <p id="editing-title">
        Editing template <a href={`#/templates/${editing.id}`}>{editing.name}</a>
      </p>
      <div class="toolbar">
        <button type="submit" disabled={busy}>
          {busy ? 'Saving…' : 'Save template'}
        </button>
        <button type="button" onClick={stop}>
          Stop editing
        </button>
      </div>
      <Notice error={error}>{note}</Notice>
    </form>
  )
}

/** Saves the editor's timeline as a new template and opens its page. */
export function SaveAsTemplate({ text, onIssues }: Props) {
  const [name, setName] = useState('')
  const [notice, setNotice] = useState<Error>()
  const { busy, error, run } = useAction((err) => {
    // A refused name is said beside its field; anything else in the notice.
    if (!(err instanceof ApiError && err.issues.length && err.issues.every((i) => i.path === 'name'))) setNotice(placeIssues(err, onIssues))
    return err as Error
  })
  const save = (e: Event) => {
    e.preventDefault()
    setNotice(undefined)
    const edit = parseEdit(text)
    if (edit instanceof Error) return setNotice(edit)
    run(async () => {
      const made = await api<{ id: string }>('POST', '/v1/templates', { name, template: edit })
      location.hash = `#/templates/${made.id}`
    })
  }
  return (
    <form class="card" onSubmit={save} aria-labelledby="save-as-title">
      <h2 id="save-as-title">Save as template</h2>
      <div class="toolbar">
        <label for="template-name">Template name</label>
        <input
          id="template-name"
          required
          maxLength={200}
          value={name}
          onInput={(e) => setName(e.currentTarget.value)}
          aria-invalid={fieldInvalid(error, 'name')}
          aria-describedby="template-name-error"
        />
        <button type="submit" disabled={busy}>
          {busy ? 'Saving…' : 'Save as template'}
        </button>
        <FieldError error={error} path="name" id="template-name-error" />
      </div>
      <Notice error={notice} />
    </form>
  )
}
