import { useState } from 'preact/hooks'
import type { AiJobRecord as AiJob } from '../../../../service/api-types.js'
import { PROMPT_LIMIT } from '../../../../service/vocabulary.js'
import { api, ApiError } from '../api'
import { FieldError, fieldInvalid, IssueList, Notice, NumberField, useAction } from '../components'
import { shortId } from '../job-id'

export type AiKind = AiJob['kind']
type Field = {
  name: string
  label: string
  type: 'textarea' | 'text' | 'url' | 'number' | 'select'
  required?: boolean
  initial?: string
  options?: string[]
  max?: number
}

/** Each kind's main fields (service/ai/requests.ts has them all), and what its submit button says. */
export const AI_FORMS: Record<AiKind, { title: string; submit: string; fields: Field[] }> = {
  text: {
    title: 'Text',
    submit: 'Write text',
    fields: [
      { name: 'prompt', label: 'Prompt', type: 'textarea', required: true },
      { name: 'system', label: 'System instructions (optional)', type: 'textarea' },
      { name: 'max_tokens', label: 'Max tokens', type: 'number', initial: '400' },
    ],
  },
  speech: {
    title: 'Speech',
    submit: 'Speak',
    fields: [
      { name: 'text', label: 'Text to speak', type: 'textarea', required: true, max: 5000 },
      { name: 'voice', label: 'Voice (optional)', type: 'text' },
      { name: 'speed', label: 'Speed', type: 'number', initial: '1' },
      { name: 'format', label: 'Format', type: 'select', options: ['mp3', 'wav'] },
    ],
  },
  transcription: {
    title: 'Transcription',
    submit: 'Transcribe',
    fields: [
      { name: 'src', label: 'Audio or video URL', type: 'url', required: true },
      { name: 'language', label: 'Language (optional, e.g. en)', type: 'text' },
    ],
  },
  video: {
    title: 'Video',
    submit: 'Generate video',
    fields: [
      { name: 'prompt', label: 'Prompt', type: 'textarea' },
      { name: 'image', label: 'Start image URL (optional)', type: 'url' },
      { name: 'duration', label: 'Duration (seconds)', type: 'number', initial: '5' },
      { name: 'aspectRatio', label: 'Aspect ratio', type: 'select', options: ['16:9', '9:16', '1:1', '4:5', '4:3'] },
    ],
  },
  upscale: {
    title: 'Upscale',
    submit: 'Upscale',
    fields: [
      { name: 'src', label: 'Image or video URL', type: 'url', required: true },
      { name: 'target', label: 'Size', type: 'select', options: ['4k', '1080', '×2', '×3', '×4'] },
    ],
  },
}

/** The request body: blank fields left out, numbers as numbers, a "×N" size as `scale`. */
function toBody(fields: Field[], values: Record<string, string>) {
  const body: Record<string, unknown> = {}
  for (const f of fields) {
    const v = values[f.name]?.trim()
    if (!v) continue
    if (f.type === 'number') body[f.name] = Number(v)
    else if (f.name === 'target' && v.startsWith('×')) body.scale = Number(v.slice(1))
    else body[f.name] = v
  }
  return body
}

/** The form of one kind: POSTs the job and hands the queued job back. */
export function AiForm({ kind, onSubmitted }: { kind: AiKind; onSubmitted(job: AiJob): void }) {
  const { title, submit, fields } = AI_FORMS[kind]
  const [values, setValues] = useState(() => Object.fromEntries(fields.map((f) => [f.name, f.initial ?? f.options?.[0] ?? ''])))
  const { busy, error, run } = useAction()
  const [done, setDone] = useState('')
  const set = (name: string) => (v: string) => setValues((old) => ({ ...old, [name]: v }))
  const send = (e: Event) => {
    e.preventDefault()
    setDone('')
    run(async () => {
      const job = await api<AiJob>('POST', `/v1/ai/${kind}`, toBody(fields, values))
      setDone(`Queued ${kind} job ${shortId(job.id)}.`)
      onSubmitted(job)
    })
  }
  const unplaced = error && (!(error instanceof ApiError) || !error.issues.length || error.issues.some((i) => !fields.some((f) => f.name === i.path)))

  const field = (f: Field) => {
    const id = `ai-${kind}-${f.name}`
    const common = {
      id,
      value: values[f.name],
      required: f.required,
      'aria-invalid': fieldInvalid(error, f.name),
      'aria-describedby': `${id}-error`,
      onInput: (e: { currentTarget: { value: string } }) => set(f.name)(e.currentTarget.value),
    }
    if (f.type === 'number') return <NumberField id={id} label={f.label} path={f.name} value={values[f.name] ?? ''} error={error} onInput={set(f.name)} />
    return (
      <>
        <label for={id}>{f.label}</label>
        {f.type === 'textarea' && <textarea {...common} rows={3} maxLength={f.max ?? PROMPT_LIMIT} />}
        {(f.type === 'text' || f.type === 'url') && <input {...common} type={f.type} placeholder={f.type === 'url' ? 'https://…' : undefined} />}
        {f.type === 'select' && (
          <select {...common}>
            {f.options?.map((o) => (
              <option value={o}>{o}</option>
            ))}
          </select>
        )}
        <FieldError error={error} path={f.name} id={`${id}-error`} />
      </>
    )
  }
  const wide = (f: Field) => f.type === 'textarea' || f.type === 'url'

  return (
    <form class="card stack" onSubmit={send} aria-labelledby="ai-form-title">
      <h2 id="ai-form-title">New {title.toLowerCase()} job</h2>
      {fields.filter(wide).map(field)}
      <div class="row">
        {fields
          .filter((f) => !wide(f))
          .map((f) => (
            <div class="stack">{field(f)}</div>
          ))}
      </div>
      <div class="toolbar">
        <button type="submit" disabled={busy}>
          {busy ? 'Submitting…' : submit}
        </button>
      </div>
      {unplaced ? <IssueList error={error} /> : <Notice>{done}</Notice>}
    </form>
  )
}
