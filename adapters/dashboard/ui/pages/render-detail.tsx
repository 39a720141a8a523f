import { useEffect, useRef, useState } from 'preact/hooks'
import { api, isActive } from '../api'
import { credits, Json, Media, Notice, Progress, seconds, StatusBadge, when } from '../components'
import { JobId, shortId } from '../job-id'
import { useLiveRender } from '../live-render'
import { RenderActions } from './render-actions'

/**
 * One render, followed live until it ends (its events, not polling): the progress, then the video (with its
 * poster), and the submitted edit with what can be done with it (Re-render, Open in playground or editor).
 * `compact`: under the button that just submitted it, and scrolled into view.
 */
export function RenderDetail({ id, compact = false }: { id: string; compact?: boolean }) {
  const { data: r, error } = useLiveRender(id, !compact)
  const [cancelError, setCancelError] = useState<Error>()
  const ref = useRef<HTMLElement>(null)
  // The render's own stream reports the outcome (FAILED, "cancelled"); only a refusal needs saying here.
  const cancel = () => api('DELETE', `/v1/render/${id}`).then(() => setCancelError(undefined), setCancelError)
  const ended = !!r && !isActive(r)
  // Submitted, again when ended, and once more when the video knows its size (until then it is a 300×150 box, so the
  // panel grows after the first scroll): scroll just enough to show it whole, keeping the button that submitted it
  // in view where it fits — unless the reader has since scrolled away from it.
  const reveal = () => {
    const el = ref.current
    if (!compact || !el || (ended && el.getBoundingClientRect().top > window.innerHeight)) return
    const still = window.matchMedia('(prefers-reduced-motion: reduce)').matches
    el.scrollIntoView({ behavior: still ? 'auto' : 'smooth', block: 'nearest' })
  }
  useEffect(reveal, [ended])
  const Heading = compact ? 'h2' : 'h1'
  return (
    <section
      aria-labelledby={`render-${id}`}
      class="render-detail"
      data-render={id}
      data-status={r?.status}
      ref={ref}
      onLoadedMetadataCapture={reveal}
      onLoadCapture={reveal}
    >
      <Heading id={`render-${id}`}>
        Render <code>{shortId(id)}</code>
      </Heading>
      {!compact && (
        <p>
          <a href="#/renders">← all renders</a>
        </p>
      )}
      <Notice error={error} />
      {r && (
        <>
          <dl class="facts">
            <dt>Id</dt>
            <dd>
              <JobId id={id} what="render" whole />
            </dd>
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
          {isActive(r) && (
            <p>
              <button type="button" class="danger" onClick={cancel}>
                Cancel render
              </button>
            </p>
          )}
          <Notice error={cancelError} />
          {!compact && !!r.data && typeof r.data === 'object' && <RenderActions edit={r.data} />}
          {r.error && <Notice error={`Failed${r.stage ? ` while ${r.stage}` : ''}: ${r.error}`} />}
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
