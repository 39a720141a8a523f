import { api, ApiError, type Template, type TemplateSummary } from '../api'
import { Notice, TableHead, usePoll, when } from '../components'
import { editInPlayground } from './playground-template'
import { TemplateDetail } from './template-detail'

/** Templates: the account's saved edits; one template's page renders it with new merge values. */
export function TemplatesPage({ id }: { id?: string }) {
  return id ? <TemplateDetail id={id} key={id} /> : <TemplateList />
}

/**
 * The list holds no bodies, so each template is read for its merge fields (accounts keep a handful). One
 * deleted between the two reads is left out rather than failing the whole list.
 */
async function loadTemplates(): Promise<Template[]> {
  const { templates } = await api<{ templates: TemplateSummary[] }>('GET', '/v1/templates')
  const full = await Promise.all(
    templates.map((t) =>
      api<Template>('GET', `/v1/templates/${t.id}`).catch((e) => {
        if (e instanceof ApiError && e.status === 404) return undefined
        throw e
      }),
    ),
  )
  return full.filter((t): t is Template => !!t)
}

function TemplateList() {
  const { data, error } = usePoll(loadTemplates, () => null)
  return (
    <section aria-labelledby="templates-title">
      <h1 id="templates-title">Templates</h1>
      <p class="muted">
        A template is a saved timeline whose <code>{'{{ KEY }}'}</code> placeholders are filled in on each render (<code>POST /v1/templates/:id/render</code>
        ).
      </p>
      <Notice error={error} />
      {data && !data.length && (
        <p>
          No templates yet. Write a timeline in the <a href="#/playground">playground</a> and save it as a template.
        </p>
      )}
      {data && data.length > 0 && (
        <table class="cards">
          <TableHead columns={['Name', 'Merge fields', 'Updated']} actions />
          <tbody>
            {data.map((t) => (
              <tr data-template={t.id}>
                <td data-label="Name">
                  <a href={`#/templates/${t.id}`}>{t.name}</a>
                </td>
                <td data-label="Merge fields">
                  {t.merge_fields.length ? (
                    <span class="fields">
                      {t.merge_fields.map((f) => (
                        <code>{f.find}</code>
                      ))}
                    </span>
                  ) : (
                    '—'
                  )}
                </td>
                <td data-label="Updated">{when(t.updated_at)}</td>
                <td data-label="Actions">
                  <button type="button" onClick={() => editInPlayground(t)} aria-label={`Edit ${t.name} in playground`}>
                    Edit in playground
                  </button>
                </td>
              </tr>
            ))}
          </tbody>
        </table>
      )}
    </section>
  )
}
