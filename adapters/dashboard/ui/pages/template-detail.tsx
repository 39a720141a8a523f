import { useState } from 'preact/hooks'
import { api, type Template } from '../api'
import { IssueList, Json, Notice, usePoll, when, useAction } from '../components'
import { editInPlayground } from './playground-template'
import { RenderDetail } from './render-detail'

/** The template's own `merge` values by key (trimmed, as the merge compares them): the fields' defaults. */
const mergeDefaults = (t: Template): Map<string, unknown> =>
  new Map(
    (Array.isArray(t.template.merge) ? t.template.merge : [])
      .filter((f): f is { find: string; replace: unknown } => !!f && typeof f === 'object' && typeof f.find === 'string')
      .map((f) => [f.find.trim(), f.replace]),
  )
const shown = (v: unknown) => (v === undefined ? '' : typeof v === 'string' ? v : JSON.stringify(v))
/**
 * A field whose default is not a string (`"length": "{{ LENGTH }}"` with `replace: 3`) is sent as JSON when
 * it parses: a placeholder that is a whole string takes the replacement's own type, and "3" is not a length.
 */
function typed(input: string, fallback: unknown): unknown {
  if (fallback === undefined || typeof fallback === 'string') return input
  try {
    return JSON.parse(input)
  } catch {
    return input
  }
}

/** One template: its merge fields (each with the fields it feeds) as a form that renders it, Edit in playground, Delete. */
export function TemplateDetail({ id }: { id: string }) {
  const { data: t, error } = usePoll(
    () => api<Template>('GET', `/v1/templates/${id}`),
    () => null,
    [id],
  )
  return (
    <section aria-labelledby="template-title" data-template={id}>
      <h1 id="template-title">{t ? t.name : 'Template'}</h1>
      <p>
        <a href="#/templates">← all templates</a>
      </p>
      <Notice error={error} />
      {t && (
        <>
          <p class="muted">
            Created {when(t.created_at)} · updated {when(t.updated_at)}
          </p>
          <TemplateActions t={t} />
          <RenderForm t={t} />
        </>
      )}
    </section>
  )
}

function TemplateActions({ t }: { t: Template }) {
  // Deleting asks for a second click rather than a dialog: the question stays on the page, beside the button.
  const [armed, setArmed] = useState(false)
  const [error, setError] = useState<Error>()
  const remove = async () => {
    if (!armed) return setArmed(true)
    try {
      await api('DELETE', `/v1/templates/${t.id}`)
      location.hash = '#/templates'
    } catch (err) {
      setError(err as Error)
    }
  }
  return (
    <>
      <div class="toolbar">
        <button type="button" onClick={() => editInPlayground(t)}>
          Edit in playground
        </button>
        <button type="button" class="danger" onClick={remove}>
          {armed ? `Delete ${t.name} for good` : 'Delete'}
        </button>
        {armed && (
          <button type="button" onClick={() => setArmed(false)}>
            Keep it
          </button>
        )}
      </div>
      <Notice error={error}>{armed ? 'Press delete again to remove this template; renders made from it stay.' : ''}</Notice>
    </>
  )
}

/**
 * A field left empty that has no saved value is not sent: the server then names the placeholder and the fields
 * it feeds, which says more than the "" it would otherwise have to refuse in one of them.
 */
function RenderForm({ t }: { t: Template }) {
  const defaults = mergeDefaults(t)
  const [values, setValues] = useState<Record<string, string>>(() => Object.fromEntries(t.merge_fields.map(({ find }) => [find, shown(defaults.get(find))])))
  const { busy, error, run } = useAction()
  const [jobId, setJobId] = useState<string>()
  const render = (e: Event) => {
    e.preventDefault()
    run(async () => {
      const merge = t.merge_fields
        .filter(({ find }) => (values[find] ?? '') !== '' || defaults.has(find))
        .map(({ find }) => ({ find, replace: typed(values[find] ?? '', defaults.get(find)) }))
      setJobId((await api<{ jobId: string }>('POST', `/v1/templates/${t.id}/render`, { merge })).jobId)
    })
  }
  return (
    <>
      <form class="stack card" onSubmit={render} aria-labelledby="merge-title">
        <h2 id="merge-title">Render with merge fields</h2>
        {t.merge_fields.length === 0 && <p>This template uses no {'{{ KEY }}'} merge fields: it renders as saved.</p>}
        {t.merge_fields.map(({ find, fields }, i) => (
          <>
            <label for={`merge-${i}`}>{find}</label>
            <input
              id={`merge-${i}`}
              value={values[find] ?? ''}
              placeholder={defaults.has(find) ? undefined : 'no saved value: give one'}
              aria-describedby={`merge-${i}-feeds`}
              onInput={(e) => {
                const value = e.currentTarget.value
                setValues((v) => ({ ...v, [find]: value }))
              }}
            />
            <p class="muted feeds" id={`merge-${i}-feeds`}>
              feeds{' '}
              <span class="fields">
                {fields.map((path) => (
                  <code>{path}</code>
                ))}
              </span>
            </p>
          </>
        ))}
        <div class="toolbar">
          <button type="submit" disabled={busy}>
            {busy ? 'Submitting…' : 'Render'}
          </button>
        </div>
        <IssueList error={error} />
      </form>
      {jobId && <RenderDetail id={jobId} compact key={jobId} />}
      <details>
        <summary>Saved timeline</summary>
        <Json value={t.template} label="saved timeline" />
      </details>
    </>
  )
}
