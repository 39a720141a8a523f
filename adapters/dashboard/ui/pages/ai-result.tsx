import type { AiJobRecord as AiJob } from '../../../../service/api-types.js'
import { credits, Notice, seconds, StatusBadge, when } from '../components'
import { JobId, shortId } from '../job-id'

export const isWorking = (j: Pick<AiJob, 'status'>) => j.status === 'queued' || j.status === 'processing'

/** Every word with its time, as a compact list (speech and transcription). */
function Words({ words }: { words: NonNullable<AiJob['words']> }) {
  return (
    <details class="ai-words-box" open={words.length <= 60}>
      <summary>
        {words.length} timed word{words.length === 1 ? '' : 's'}
      </summary>
      <ol class="ai-words">
        {words.map((w) => (
          <li>
            {w.text} <span class="muted">{w.start.toFixed(2)} s</span>
          </li>
        ))}
      </ol>
    </details>
  )
}

/** A video or upscale result: an image in an <img>, anything else (mp4) in a <video>. */
function Visual({ job }: { job: AiJob }) {
  const url = job.url!
  const label = `${job.kind} result ${shortId(job.id)}`
  if (/\.(png|jpe?g|webp|gif|bmp)(\?|$)/i.test(url)) return <img class="media" src={url} alt={label} />
  // biome-ignore lint/a11y/useMediaCaption: a generated clip with no speech of its own
  return <video class="media" controls playsInline preload="metadata" src={url} aria-label={label} />
}

/** What a finished job made, by its kind. */
function Output({ job }: { job: AiJob }) {
  switch (job.kind) {
    case 'text':
      return <pre class="ai-text">{job.text}</pre>
    case 'speech':
      return (
        <>
          {/* biome-ignore lint/a11y/useMediaCaption: the timed words below are its transcript */}
          {job.url && <audio class="ai-audio" controls preload="metadata" src={job.url} aria-label={`speech ${shortId(job.id)}`} />}
          {job.words && <Words words={job.words} />}
        </>
      )
    case 'transcription':
      return (
        <>
          <p class="ai-text">{job.text || '(no speech heard)'}</p>
          {job.words && <Words words={job.words} />}
          <p>
            Subtitles:{' '}
            {Object.entries(job.files).map(([name, url], i) => (
              <>
                {i > 0 && ' · '}
                <a href={url} download>
                  {name.toUpperCase()}
                </a>
              </>
            ))}
          </p>
        </>
      )
    default:
      return job.url ? <Visual job={job} /> : null
  }
}

/** One job: its facts, then its result (or its error, or that it is still running). */
export function AiResult({ job }: { job: AiJob }) {
  const titleId = `ai-job-${job.id}`
  return (
    <section class="card ai-result" aria-labelledby={titleId} data-job={job.id} data-status={job.status}>
      <h2 id={titleId}>
        {job.kind[0]!.toUpperCase() + job.kind.slice(1)} job <code>{shortId(job.id)}</code>
      </h2>
      <dl class="facts">
        <dt>Id</dt>
        <dd>
          <JobId id={job.id} what={`${job.kind} job`} whole />
        </dd>
        <dt>Status</dt>
        <dd aria-live="polite">
          <StatusBadge status={job.status} />
        </dd>
        <dt>Model</dt>
        <dd>
          {job.model}
          {job.provider && <span class="muted"> via {job.provider}</span>}
        </dd>
        {job.duration !== null && (
          <>
            <dt>Duration</dt>
            <dd>{seconds(job.duration)}</dd>
          </>
        )}
        <dt>Credits</dt>
        <dd>{credits(job.credits_used)}</dd>
        <dt>Created</dt>
        <dd>{when(job.created_at)}</dd>
      </dl>
      {job.status === 'failed' && <Notice error={`Failed: ${job.error ?? 'no reason given'}`} />}
      {isWorking(job) && <Notice>Working on it; this updates by itself.</Notice>}
      {job.status === 'complete' && <Output job={job} />}
      {job.status === 'complete' && job.url && (
        <p>
          <a href={job.url} download>
            Download
          </a>
        </p>
      )}
    </section>
  )
}
