import { useEffect, useState } from 'preact/hooks'
import { EVENT_NAMES } from '../../../../service/vocabulary.js'
import { DELIVERY_STATUSES, type Delivery } from '../../../../service/api-types.js'
import { api, ApiError } from '../api'
import { FieldError, fieldInvalid, FilterSelect, IssueList, Json, Notice, StatusBadge, usePoll, when, TableHead } from '../components'

/** Webhooks: the global webhook form, and the delivery log with filters, payloads, attempts and Replay. */
export function WebhooksPage() {
  return (
    <section aria-labelledby="webhooks-title">
      <h1 id="webhooks-title">Webhooks</h1>
      <GlobalWebhook />
      <DeliveryLog />
    </section>
  )
}

function GlobalWebhook() {
  const [url, setUrl] = useState('')
  const [events, setEvents] = useState<string[]>(['render.complete', 'render.failed'])
  const [secret, setSecret] = useState('')
  const [current, setCurrent] = useState<{ url: string; events: string[]; secret: string } | null>()
  const [error, setError] = useState<Error>()
  const [saved, setSaved] = useState('')
  useEffect(() => {
    api<{ url: string; events: string[]; secret: string }>('GET', '/v1/webhooks').then(
      (w) => (setCurrent(w), setUrl(w.url), setEvents(w.events)),
      (e) => (e instanceof ApiError && e.status === 404 ? setCurrent(null) : setError(e)),
    )
  }, [])
  const save = async (e: Event) => {
    e.preventDefault()
    setError(undefined)
    setSaved('')
    try {
      const w = await api<{ url: string; events: string[]; secret: string }>('PUT', '/v1/webhooks', { url, events, secret })
      setCurrent(w)
      setSecret('')
      setSaved('Saved. Deliveries are signed with the secret you entered.')
    } catch (err) {
      setError(err as Error)
    }
  }
  const remove = async () => {
    try {
      await api('DELETE', '/v1/webhooks')
      setCurrent(null)
      setSaved('Global webhook removed.')
    } catch (err) {
      setError(err as Error)
    }
  }
  const toggle = (name: string, on: boolean) => setEvents(on ? [...events, name] : events.filter((e) => e !== name))
  const placed = ['url', 'events', 'secret']
  return (
    <form class="stack card" onSubmit={save} aria-labelledby="global-title">
      <h2 id="global-title">Global webhook</h2>
      <p>
        {current ? (
          <>
            Sending to <code>{current.url}</code> (secret {current.secret}).
          </>
        ) : current === null ? (
          'No global webhook is set.'
        ) : (
          'Loading…'
        )}
      </p>
      <label for="wh-url">URL</label>
      <input
        id="wh-url"
        type="url"
        required
        value={url}
        onInput={(e) => setUrl(e.currentTarget.value)}
        placeholder="https://example.com/hooks/reelforge"
        aria-invalid={fieldInvalid(error, 'url')}
        aria-describedby="wh-url-error"
      />
      <FieldError error={error} path="url" id="wh-url-error" />
      <fieldset aria-describedby="wh-events-error">
        <legend>Events</legend>
        <div class="checks">
          {EVENT_NAMES.map((name) => (
            <label class="check">
              <input type="checkbox" checked={events.includes(name)} onChange={(e) => toggle(name, e.currentTarget.checked)} /> {name}
            </label>
          ))}
        </div>
        <FieldError error={error} path="events" id="wh-events-error" />
      </fieldset>
      <label for="wh-secret">Signing secret (16 characters or more)</label>
      <input
        id="wh-secret"
        type="password"
        required
        minLength={16}
        autoComplete="new-password"
        value={secret}
        onInput={(e) => setSecret(e.currentTarget.value)}
        aria-invalid={fieldInvalid(error, 'secret')}
        aria-describedby="wh-secret-error"
      />
      <FieldError error={error} path="secret" id="wh-secret-error" />
      <div class="toolbar">
        <button type="submit">Save webhook</button>
        {current && (
          <button type="button" class="danger" onClick={remove}>
            Remove
          </button>
        )}
      </div>
      {error && (!(error instanceof ApiError) || error.issues.some((i) => !placed.includes(i.path.split(/[.[]/)[0]!))) && <IssueList error={error} />}
      <Notice>{saved}</Notice>
    </form>
  )
}

function DeliveryLog() {
  const [status, setStatus] = useState('')
  const [event, setEvent] = useState('')
  const [note, setNote] = useState('')
  const [error, setError] = useState<Error>()
  const query = new URLSearchParams({ limit: '100', ...(status ? { status } : {}), ...(event ? { event } : {}) })
  const log = usePoll(
    () => api<{ deliveries: Delivery[] }>('GET', `/v1/webhooks/deliveries?${query}`),
    (last) => (last?.deliveries.some((d) => d.status === 'pending') ? 1000 : 3000),
    [status, event],
  )
  const replay = async (d: Delivery) => {
    setError(undefined)
    try {
      await api('POST', `/v1/webhooks/deliveries/${d.id}/replay`)
      setNote(`Delivery ${d.id} queued again.`)
      log.reload()
    } catch (err) {
      setError(err as Error)
    }
  }
  return (
    <section aria-labelledby="log-title">
      <h2 id="log-title">Delivery log</h2>
      <div class="toolbar">
        <FilterSelect label="Status" value={status} options={DELIVERY_STATUSES} onChange={setStatus} />
        <FilterSelect label="Event" value={event} options={EVENT_NAMES} onChange={setEvent} />
        <button type="button" onClick={() => log.reload()}>
          Refresh
        </button>
      </div>
      <Notice error={error ?? log.error}>{note}</Notice>
      {log.data && !log.data.deliveries.length && <p>No deliveries{status || event ? ' match these filters' : ' yet'}.</p>}
      <ul class="deliveries">
        {log.data?.deliveries.map((d) => (
          <li class="card" data-delivery={d.id} data-status={d.status}>
            <div class="delivery-head">
              <StatusBadge status={d.status} /> <strong>{d.event}</strong>{' '}
              <span class="muted">
                {d.target} → <code>{d.url}</code>
              </span>
              <span class="muted">
                {when(d.created_at)} · {d.attempts} attempt{d.attempts === 1 ? '' : 's'}
                {d.last_status !== null ? ` · last HTTP ${d.last_status}` : ''}
                {d.last_error && d.last_error !== `HTTP ${d.last_status}` ? ` · ${d.last_error}` : ''}
              </span>
              <button type="button" onClick={() => replay(d)} aria-label={`Replay delivery ${d.id}`}>
                Replay
              </button>
            </div>
            <details>
              <summary>Payload and attempts</summary>
              <Json value={d.payload} label={`payload of delivery ${d.id}`} />
              {d.attempt_log.length > 0 && (
                <table class="cards">
                  <TableHead columns={['Attempt', 'At', 'Response', 'Time']} />
                  <tbody>
                    {d.attempt_log.map((a) => (
                      <tr>
                        <td data-label="Attempt">{a.attempt}</td>
                        <td data-label="At">{when(a.at)}</td>
                        <td data-label="Response">
                          {[a.status !== null && `HTTP ${a.status}`, a.error !== `HTTP ${a.status}` && a.error].filter(Boolean).join(' · ')}
                        </td>
                        <td data-label="Time">{a.duration_ms} ms</td>
                      </tr>
                    ))}
                  </tbody>
                </table>
              )}
              {d.next_attempt_at && <p>Next attempt {when(d.next_attempt_at)}.</p>}
            </details>
          </li>
        ))}
      </ul>
    </section>
  )
}
