import { useState } from 'preact/hooks'
import { JOB_STATUSES } from '../../../../service/api-types.js'
import { api, isActive, type Render } from '../api'
import { credits, FilterSelect, Notice, Progress, seconds, StatusBadge, usePoll, when, TableHead } from '../components'
import { JobId } from '../job-id'
import { RenderDetail } from './render-detail'

/** Renders: the account's jobs, live while any is moving; one job's page with its output and edit. */
export function RendersPage({ id }: { id?: string }) {
  // Keyed by the id: Re-render moves to the new render's page with none of the old one's state.
  return id ? <RenderDetail id={id} key={id} /> : <RenderList />
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
                  <JobId id={r.id} what="render" href={`#/renders/${r.id}`} />
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
