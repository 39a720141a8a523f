import type { ComponentChildren } from 'preact'
import { useRef } from 'preact/hooks'
import type { Issue } from '../api'
import { describeJsonError } from '../json-error'
import { locate } from '../json-path'

/** An issue with the place in the text it concerns (null line: no place found, listed only). */
export interface Marked extends Issue {
  line: number | null
  offset?: number
  length?: number
}

/**
 * The issues to draw: syntax errors while the JSON does not parse, else the server's issues — only those it
 * gave for this very text, so stale ones never point at lines that have since moved.
 */
export function markIssues(text: string, syntax: { line: number; offset: number; message: string }[], server: { text: string; issues: Issue[] }): Marked[] {
  if (syntax.length) return syntax.map((s) => ({ path: '', message: s.message, line: s.line, offset: s.offset, length: 1 }))
  if (server.text !== text) return []
  return server.issues.map((i) => {
    const at = locate(text, i.path)
    return { ...i, line: at?.line ?? null, offset: at?.offset, length: at?.length }
  })
}

/** The editor's text as an edit, or an Error saying why it is not one (shown as the form's notice). */
export function parseEdit(text: string): Record<string, unknown> | Error {
  try {
    const edit = JSON.parse(text)
    return edit && typeof edit === 'object' && !Array.isArray(edit) ? edit : new Error('The timeline must be a JSON object.')
  } catch (err) {
    return new Error(`The timeline is not valid JSON: ${describeJsonError(err, text)}.`)
  }
}

/**
 * The timeline textarea over a mirror that draws each issue after its line, and the list of issues, each of
 * which selects its place in the text. `note` sits between the label and the editor and describes the textarea.
 */
export function TimelineEditor(props: { text: string; onInput(text: string): void; issues: Marked[]; checking: boolean; note?: ComponentChildren }) {
  const { text, issues } = props
  const area = useRef<HTMLTextAreaElement>(null)
  const mirror = useRef<HTMLDivElement>(null)
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
  const lines = text.split('\n')
  return (
    <>
      <label for="timeline-json">Timeline JSON (Shotstack format)</label>
      {props.note && (
        <p class="hint" id="timeline-note">
          {props.note}
        </p>
      )}
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
          aria-describedby={props.note ? 'timeline-note timeline-issues' : 'timeline-issues'}
          onInput={(e) => props.onInput(e.currentTarget.value)}
          onScroll={syncScroll}
        />
      </div>
      <div id="timeline-issues" aria-live="polite">
        {issues.length === 0 ? (
          <p class="ok">{props.checking ? 'Checking…' : 'The timeline is valid.'}</p>
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
    </>
  )
}
