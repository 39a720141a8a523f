import { useEffect, useMemo, useState } from 'preact/hooks'
import { api, ApiError, type Issue, type Me } from '../api'
import { Notice, useAction } from '../components'
import { syntaxErrors } from '../json-path'
import { FramePreview } from './frame-preview'
import { PLAYGROUND_DRAFT as DRAFT } from '../drafts'
import { EditingBar, SaveAsTemplate } from './playground-template'
import { RenderDetail } from './render-detail'
import { markIssues, parseEdit, TimelineEditor } from './timeline-editor'

export const EXAMPLE = {
  timeline: {
    background: '#1a1a2e',
    tracks: [
      { clips: [{ asset: { type: 'title', text: 'Hello from the playground', style: 'minimal' }, start: 0, length: 2, transition: { in: 'fade' } }] },
      {
        clips: [
          {
            asset: { type: 'html', html: '<p>reelforge</p>', css: 'p { color: #f0c040; font-size: 40px; }', width: 400, height: 80 },
            start: 0,
            length: 2,
            position: 'bottom',
          },
        ],
      },
    ],
  },
  output: { format: 'mp4', resolution: 'preview' },
}
/**
 * Which way offset.y counts in what this page submits: the server's /v1 setting, which differs from Shotstack's
 * unless the operator chose `up` — an edit copied from Shotstack otherwise lands mirrored.
 */
export const YAxisNote = ({ axis }: { axis: Me['y_axis'] }) =>
  axis === 'up' ? (
    <>
      <code>offset.y</code> counts upwards (this server's /v1 default, <code>serve --y-axis</code>), as Shotstack does.
    </>
  ) : (
    <>
      <code>offset.y</code> counts downwards (this server's /v1 default, <code>serve --y-axis</code>); Shotstack counts upwards.
    </>
  )

/** Playground: edit a timeline with its issues shown on the lines they concern; render it at preview size and watch. */
export function PlaygroundPage({ me }: { me: Me }) {
  const [text, setText] = useState(() => sessionStorage.getItem(DRAFT) ?? JSON.stringify(EXAMPLE, null, 2))
  const [serverIssues, setServerIssues] = useState<{ text: string; issues: Issue[] }>({ text: '', issues: [] })
  const [preview, setPreview] = useState(true)
  const {
    busy: submitting,
    error: submitError,
    setError: setSubmitError,
    run,
  } = useAction((err) => {
    if (err instanceof ApiError && err.issues.length) showIssues(err.issues)
    return err as Error
  })
  const [jobId, setJobId] = useState<string>()

  const syntax = useMemo(() => syntaxErrors(text), [text])
  // Ask the server (the same validation and limits as a submit) once typing pauses and the JSON parses.
  useEffect(() => {
    sessionStorage.setItem(DRAFT, text)
    if (syntax.length) return
    const t = window.setTimeout(async () => {
      try {
        const r = await api<{ valid: boolean; issues: Issue[] }>('POST', '/v1/render/validate', text)
        setServerIssues({ text, issues: r.issues })
      } catch (e) {
        setServerIssues({ text, issues: e instanceof ApiError ? (e.issues.length ? e.issues : [{ path: '', message: e.message }]) : [] })
      }
    }, 350)
    return () => window.clearTimeout(t)
  }, [text, syntax.length])
  // Issues from a render or a template save of this text are drawn in the editor as the validation's are.
  const showIssues = (issues: Issue[]) => setServerIssues({ text, issues })

  const submit = (e: Event) => {
    e.preventDefault()
    let edit = parseEdit(text)
    if (edit instanceof Error) return setSubmitError(edit)
    if (preview && edit.output && typeof edit.output === 'object') {
      const { size: _, ...output } = edit.output as Record<string, unknown>
      edit = { ...edit, output: { ...output, resolution: 'preview' } }
    }
    run(async () => setJobId((await api<{ jobId: string }>('POST', '/v1/render', edit)).jobId))
  }

  return (
    <section aria-labelledby="playground-title">
      <h1 id="playground-title">Playground</h1>
      <EditingBar text={text} onIssues={showIssues} />
      <form onSubmit={submit}>
        <TimelineEditor
          text={text}
          onInput={(t) => (setText(t), setSubmitError(undefined))}
          issues={markIssues(text, syntax, serverIssues)}
          checking={syntax.length > 0 || serverIssues.text !== text}
          note={<YAxisNote axis={me.y_axis} />}
        />
        <div class="toolbar">
          <label class="check">
            <input type="checkbox" checked={preview} onChange={(e) => setPreview(e.currentTarget.checked)} /> Render at preview resolution
          </label>
          <button type="button" onClick={() => setText(JSON.stringify(EXAMPLE, null, 2))}>
            Reset example
          </button>
          <button type="submit" disabled={submitting}>
            {submitting ? 'Submitting…' : 'Render'}
          </button>
        </div>
        <Notice error={submitError} />
      </form>
      {/* The result where the button is, not at the foot of a long page. */}
      {jobId && <RenderDetail id={jobId} compact key={jobId} />}
      <FramePreview text={text} />
      <SaveAsTemplate text={text} onIssues={showIssues} />
    </section>
  )
}
