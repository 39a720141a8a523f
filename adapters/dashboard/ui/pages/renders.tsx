import { useState } from 'preact/hooks'
import { JOB_STATUSES } from '../../../../service/api-types.js'
import { api, isActive, type Render } from '../api'
import { credits, FilterSelect, Json, Media, Notice, Progress, seconds, StatusBadge, usePoll, when, TableHead } from '../components'

/** Renders: the account's jobs, live while any is moving; one job's page with its output and edit. */
export function RendersPage({ id }: { id?: string }) {
  return id ? <RenderDetail id={id} /> : <RenderList />
}

function RenderList() {
  const [status, setStatus] = useState('')
  const { data, error } = usePoll(
    () => api<{ renders: Render[] }>('GET', `/v1/render?limit=100${status ? `&status=${status}` : ''}`),
    (last) => (last?.renders.some(isActive) ? 1000 : 5000),
    [status],
  )
  return (
    <section aria-labelledby="renders-title">
      <h1 id="renders-title">Renders</h1>
      <div class="toolbar">
        <FilterSelect label="Status" value={status} options={JOB_STATUSES} onChange={setStatus} />
        <a class="button" href="#/playground">
          New render
        </a>
      </div>
      <Notice error={error} />
      {data && !data.renders.length && (
        <p>
          No renders yet. Try the <a href="#/playground">playground</a>.
        </p>
      )}
      {data && data.renders.length > 0 && (
        <table class="cards">
          <TableHead columns={['Render', 'Status', 'Stage', 'Progress', 'Duration', 'Credits', 'Created']} />
          <tbody>
            {data.renders.map((r) => (
              <tr data-render={r.id} data-status={r.status}>
                <td data-label="Render">
                  <a href={`#/renders/${r.id}`}>
                    <code>{r.id.slice(0, 8)}</code>
                  </a>
                </td>
                <td data-label="Status">
                  <StatusBadge status={r.status} />
                </td>
                <td data-label="Stage">{r.stage ?? '—'}</td>
                <td data-label="Progress">
                  <Progress render={r} />
                </td>
                <td data-label="Duration">{seconds(r.duration)}</td>
                <td data-label="Credits">{credits(r.credits_used)}</td>
                <td data-label="Created">{when(r.created_at)}</td>
              </tr>
            ))}
          </tbody>
        </table>
      )}
    </section>
  )
}

/** One render, polled until it ends: the progress, then the video (with its poster), and the submitted edit. */
export function RenderDetail({ id, compact = false }: { id: string; compact?: boolean }) {
  const { data: r, error } = usePoll(
    () => api<Render>('GET', `/v1/render/${id}?data=true`),
    (last) => (!last || isActive(last) ? 1000 : null),
    [id],
  )
  return (
    <section aria-labelledby={`render-${id}`} class="render-detail" data-render={id} data-status={r?.status}>
      {compact ? (
        <h2 id={`render-${id}`}>
          Render <code>{id.slice(0, 8)}</code>
        </h2>
      ) : (
        <h1 id={`render-${id}`}>
          Render <code>{id.slice(0, 8)}</code>
        </h1>
      )}
      {!compact && (
        <p>
          <a href="#/renders">← all renders</a>
        </p>
      )}
      <Notice error={error} />
      {r && (
        <>
          <dl class="facts">
            <dt>Status</dt>
            <dd aria-live="polite">
              <StatusBadge status={r.status} />
            </dd>
            <dt>Stage</dt>
            <dd>{r.stage ?? '—'}</dd>
            <dt>Progress</dt>
            <dd>
              <Progress render={r} />
            </dd>
            <dt>Duration</dt>
            <dd>{seconds(r.duration)}</dd>
            <dt>Credits</dt>
            <dd>{credits(r.credits_used)}</dd>
            <dt>Created</dt>
            <dd>{when(r.created_at)}</dd>
          </dl>
          {r.error && <Notice error={`Failed: ${r.error}`} />}
          {r.warnings.length > 0 && (
            <details>
              <summary>
                {r.warnings.length} warning{r.warnings.length === 1 ? '' : 's'}
              </summary>
              <ul>
                {r.warnings.map((w) => (
                  <li>
                    <code>{w.path || '(root)'}</code> {w.message}
                  </li>
                ))}
              </ul>
            </details>
          )}
          {r.status === 'COMPLETE' && (
            <figure>
              <Media render={r} />
              <figcaption>
                <a href={r.url!} download>
                  Download
                </a>
                {r.poster && (
                  <>
                    {' '}
                    · <a href={r.poster}>Poster</a>
                  </>
                )}
                {r.thumbnail && (
                  <>
                    {' '}
                    · <a href={r.thumbnail}>Thumbnail</a>
                  </>
                )}
              </figcaption>
            </figure>
          )}
          {!compact && r.data !== undefined && (
            <details open>
              <summary>Submitted timeline</summary>
              <Json value={r.data} label="submitted timeline" />
            </details>
          )}
        </>
      )}
    </section>
  )
}
