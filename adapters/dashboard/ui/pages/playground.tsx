import { useEffect, useMemo, useRef, useState } from 'preact/hooks'
import { api, ApiError, type Issue } from '../api'
import { Notice } from '../components'
import { locate, syntaxErrors } from '../json-path'
import { RenderDetail } from './renders'

const EXAMPLE = {
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
const DRAFT = 'reelforge.playground'

interface Marked extends Issue {
  line: number | null
  offset?: number
  length?: number
}

/** Playground: edit a timeline with its issues shown on the lines they concern; render it at preview size and watch. */
export function PlaygroundPage() {
  const [text, setText] = useState(() => sessionStorage.getItem(DRAFT) ?? JSON.stringify(EXAMPLE, null, 2))
  const [serverIssues, setServerIssues] = useState<{ text: string; issues: Issue[] }>({ text: '', issues: [] })
  const [preview, setPreview] = useState(true)
  const [submitting, setSubmitting] = useState(false)
  const [submitError, setSubmitError] = useState<Error>()
  const [jobId, setJobId] = useState<string>()
  const area = useRef<HTMLTextAreaElement>(null)
  const mirror = useRef<HTMLDivElement>(null)

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

  const issues: Marked[] = syntax.length
    ? syntax.map((s) => ({ path: '', message: s.message, line: s.line, offset: s.offset, length: 1 }))
    : serverIssues.text === text
      ? serverIssues.issues.map((i) => {
          const at = locate(text, i.path)
          return { ...i, line: at?.line ?? null, offset: at?.offset, length: at?.length }
        })
      : []
  const byLine = new Map<number, Marked[]>()
  for (const i of issues) if (i.line !== null) byLine.set(i.line, [...(byLine.get(i.line) ?? []), i])

  const select = (i: Marked) => {
    const el = area.current
    if (!el || i.offset === undefined) return
    el.focus()
    el.setSelectionRange(i.offset, i.offset + (i.length ?? 0))
  }
  const syncScroll = () => {
    if (area.current && mirror.current) mirror.current.style.transform = `translate(${-area.current.scrollLeft}px, ${-area.current.scrollTop}px)`
  }

  const submit = async (e: Event) => {
    e.preventDefault()
    setSubmitError(undefined)
    // biome-ignore lint/suspicious/noExplicitAny: a user's edit, validated by the server
    let edit: any
    try {
      edit = JSON.parse(text)
    } catch (err) {
      setSubmitError(new Error(`The timeline is not valid JSON: ${(err as Error).message}`))
      return
    }
    if (preview && edit && typeof edit === 'object' && edit.output && typeof edit.output === 'object') {
      edit = { ...edit, output: { ...edit.output, resolution: 'preview' } }
      delete edit.output.size
    }
    setSubmitting(true)
    try {
      const queued = await api<{ jobId: string }>('POST', '/v1/render', edit)
      setJobId(queued.jobId)
    } catch (err) {
      setSubmitError(err as Error)
      if (err instanceof ApiError && err.issues.length) setServerIssues({ text, issues: err.issues })
    } finally {
      setSubmitting(false)
    }
  }

  const lines = text.split('\n')
  return (
    <section aria-labelledby="playground-title">
      <h1 id="playground-title">Playground</h1>
      <form onSubmit={submit}>
        <label for="timeline-json">Timeline JSON (Shotstack format)</label>
        <div class={`editor${issues.length ? ' has-issues' : ''}`}>
          <div class="mirror" ref={mirror} aria-hidden="true">
            {lines.map((l, n) => (
              <div class={byLine.has(n + 1) ? 'line bad' : 'line'}>
                <span class="ghost">{l || ' '}</span>
                {byLine.get(n + 1)?.map((i) => (
                  <span class="inline-issue">
                    {'  ⚠ '}
                    {i.path ? `${i.path}: ` : ''}
                    {i.message}
                  </span>
                ))}
              </div>
            ))}
          </div>
          <textarea
            id="timeline-json"
            ref={area}
            value={text}
            spellcheck={false}
            wrap="off"
            rows={Math.min(30, Math.max(12, lines.length + 1))}
            aria-invalid={issues.length > 0}
            aria-describedby="timeline-issues"
            onInput={(e) => setText(e.currentTarget.value)}
            onScroll={syncScroll}
          />
        </div>
        <div id="timeline-issues" aria-live="polite">
          {issues.length === 0 ? (
            <p class="ok">{syntax.length || serverIssues.text !== text ? 'Checking…' : 'The timeline is valid.'}</p>
          ) : (
            <ul class="issues">
              {issues.map((i) => (
                <li>
                  <button type="button" class="link" onClick={() => select(i)}>
                    {i.line !== null ? `line ${i.line}` : 'edit'}
                  </button>{' '}
                  {i.path && <code>{i.path}</code>} {i.message}
                </li>
              ))}
            </ul>
          )}
        </div>
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
      {jobId && <RenderDetail id={jobId} compact key={jobId} />}
    </section>
  )
}
