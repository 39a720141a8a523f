import { useEffect, useState } from 'preact/hooks'
import { api, type Template, type TemplateSummary } from '../api.js'
import { IssueList, Notice, useAction, when } from '../components.js'
import { EDITOR_TEMPLATE as OPEN_TEMPLATE } from '../drafts.js'
import { RenderDetail } from '../pages/render-detail.js'
import { previewEdit } from './frames.js'
import type { EditorStore } from './store.js'

type Open = { id: string; name: string }
const readOpen = (): Open | null => {
  try {
    return JSON.parse(sessionStorage.getItem(OPEN_TEMPLATE) ?? 'null')
  } catch {
    return null
  }
}

/**
 * Templates and renders from the editor: open a saved template (its edit replaces the draft, with a fresh
 * history), save the draft back to it or as a new one, and render the draft (`POST /v1/render`, its merge
 * values included), followed until it ends.
 */
export function TemplateBar({ store }: { store: EditorStore }) {
  const [list, setList] = useState<TemplateSummary[]>([])
  const [pick, setPick] = useState('')
  const [open, setOpen] = useState(readOpen)
  const [name, setName] = useState('')
  const [draft, setDraft] = useState(true)
  const [jobId, setJobId] = useState<string>()
  const [note, setNote] = useState('')
  const { busy, error, run } = useAction()
  const refresh = () =>
    api<{ templates: TemplateSummary[] }>('GET', '/v1/templates').then(
      (r) => setList(r.templates),
      () => {},
    )
  useEffect(() => void refresh(), [])
  const remember = (o: Open | null) => (setOpen(o), o ? sessionStorage.setItem(OPEN_TEMPLATE, JSON.stringify(o)) : sessionStorage.removeItem(OPEN_TEMPLATE))

  const openIt = () =>
    run(async () => {
      const t = await api<Template>('GET', `/v1/templates/${encodeURIComponent(pick)}`)
      store.reset(t.template)
      remember({ id: t.id, name: t.name })
      setNote(`Opened template ${t.name}.`)
    })
  const save = () =>
    run(async () => {
      if (!open) return
      const saved = await api<Template>('PUT', `/v1/templates/${open.id}`, { template: store.current().edit })
      setNote(`Template ${saved.name} saved (${when(saved.updated_at)}).`)
    })
  const saveAs = (e: Event) => {
    e.preventDefault()
    run(async () => {
      const made = await api<Template>('POST', '/v1/templates', { name, template: store.current().edit })
      remember({ id: made.id, name: made.name })
      setNote(`Saved as template ${made.name}.`)
      await refresh()
    })
  }
  const render = () =>
    run(async () => {
      const edit = store.current().edit
      setJobId((await api<{ jobId: string }>('POST', '/v1/render', draft ? previewEdit(edit) : edit)).jobId)
    })

  return (
    <section class="card template-bar" aria-label="Template and render">
      <div class="toolbar">
        <label for="editor-template">Template</label>
        <select id="editor-template" value={pick} onChange={(e) => setPick(e.currentTarget.value)}>
          <option value="">choose…</option>
          {list.map((t) => (
            <option value={t.id}>{t.name}</option>
          ))}
        </select>
        <button type="button" onClick={openIt} disabled={!pick || busy}>
          Open
        </button>
        {open && (
          <button type="button" onClick={save} disabled={busy}>
            Save template {open.name}
          </button>
        )}
        <form class="inline" onSubmit={saveAs}>
          <label for="editor-save-as">New template name</label>
          <input id="editor-save-as" required maxLength={200} value={name} onInput={(e) => setName(e.currentTarget.value)} />
          <button type="submit" disabled={busy}>
            Save as new
          </button>
        </form>
        <label class="check">
          <input type="checkbox" checked={draft} onChange={(e) => setDraft(e.currentTarget.checked)} /> Render at preview size
        </label>
        <button type="button" class="primary" onClick={render} disabled={busy}>
          Render
        </button>
      </div>
      {open && (
        <p class="muted">
          Editing template <a href={`#/templates/${open.id}`}>{open.name}</a>.
        </p>
      )}
      <IssueList error={error} />
      <Notice>{note}</Notice>
      {jobId && <RenderDetail id={jobId} compact key={jobId} />}
    </section>
  )
}
