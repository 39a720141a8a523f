import { useState } from 'preact/hooks'
import type { AiJobRecord as AiJob } from '../../../../service/api-types.js'
import { api } from '../api'
import { credits, Notice, StatusBadge, TableHead, usePoll, when } from '../components'
import { AI_FORMS, AiForm, type AiKind } from './ai-forms'
import { JobId, shortId } from '../job-id'
import { AiResult, isWorking } from './ai-result'

const KINDS = Object.keys(AI_FORMS) as AiKind[]

/** AI: pick a kind (`#/ai/<kind>`), submit a job, follow the kind's jobs and see the chosen one's result. */
export function AiPage({ kind: param }: { kind?: string }) {
  const kind = KINDS.find((k) => k === param) ?? 'text'
  return (
    <section aria-labelledby="ai-title">
      <h1 id="ai-title">AI</h1>
      <p class="muted">
        Scripts, voice-overs, subtitles, generated clips and upscaling. Sandbox keys run local engines, free. A result's URL works as <code>src</code> in any
        timeline.
      </p>
      <nav class="tabs" aria-label="AI kind">
        <ul>
          {KINDS.map((k) => (
            <li>
              <a href={`#/ai/${k}`} aria-current={k === kind ? 'page' : undefined}>
                {AI_FORMS[k].title}
              </a>
            </li>
          ))}
        </ul>
      </nav>
      <AiKindPanel key={kind} kind={kind} />
    </section>
  )
}

/** One kind: its form, the chosen job (the newest by default), and its jobs, polled while any is running. */
function AiKindPanel({ kind }: { kind: AiKind }) {
  const [picked, setPicked] = useState<AiJob>()
  const list = usePoll(
    () => api<{ jobs: AiJob[] }>('GET', `/v1/ai/${kind}?limit=50`),
    (last) => (last?.jobs.some(isWorking) ? 1000 : null),
    [kind],
  )
  const jobs = list.data?.jobs
  const shown = jobs?.find((j) => j.id === picked?.id) ?? picked ?? jobs?.[0]
  const submitted = (job: AiJob) => {
    setPicked(job)
    list.reload()
  }
  return (
    <>
      <AiForm kind={kind} onSubmitted={submitted} />
      {shown && <AiResult job={shown} />}
      <h2>{AI_FORMS[kind].title} jobs</h2>
      <Notice error={list.error} />
      {jobs && !jobs.length && <p>No {kind} jobs yet.</p>}
      {jobs && jobs.length > 0 && (
        <table class="cards">
          <TableHead columns={['Job', 'Status', 'Model', 'Credits', 'Created']} actions />
          <tbody>
            {jobs.map((j) => (
              <tr data-job={j.id} data-status={j.status}>
                <td data-label="Job">
                  <JobId id={j.id} what={`${kind} job`} />
                </td>
                <td data-label="Status">
                  <StatusBadge status={j.status} />
                </td>
                <td data-label="Model">
                  {j.model}
                  {j.provider && <span class="muted"> via {j.provider}</span>}
                </td>
                <td data-label="Credits">{credits(j.credits_used)}</td>
                <td data-label="Created">{when(j.created_at)}</td>
                <td data-label="Actions">
                  <button type="button" onClick={() => setPicked(j)} aria-pressed={j.id === shown?.id} aria-label={`Show ${kind} job ${shortId(j.id)}`}>
                    Show
                  </button>
                </td>
              </tr>
            ))}
          </tbody>
        </table>
      )}
    </>
  )
}
