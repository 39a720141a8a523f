import type { ComponentChildren } from 'preact'
import { useEffect, useRef, useState } from 'preact/hooks'
import { ApiError, type Issue, type Render } from './api'
import { shortId } from './job-id'

/**
 * Calls `load` now and then every `everyMs(lastResult)` ms while mounted (a function, so a page polls fast
 * only while something is moving). Returns the latest result, the latest error and a `reload`.
 */
export function usePoll<T>(load: () => Promise<T>, everyMs: (last: T | undefined) => number | null, deps: unknown[] = []) {
  const [data, setData] = useState<T>()
  const [error, setError] = useState<Error>()
  const tick = useRef<() => void>(() => {})
  useEffect(() => {
    let alive = true
    let timer: number | undefined
    const run = async () => {
      window.clearTimeout(timer)
      let last: T | undefined
      try {
        last = await load()
        if (!alive) return
        setData(last)
        setError(undefined)
      } catch (e) {
        if (alive) setError(e as Error)
      }
      const next = everyMs(last)
      if (alive && next !== null) timer = window.setTimeout(run, next)
    }
    tick.current = run
    void run()
    return () => {
      alive = false
      window.clearTimeout(timer)
    }
  }, deps)
  return { data, error, reload: () => tick.current() }
}

/** A live region: screen readers announce what it says when it changes. */
export function Notice({ error, children }: { error?: Error | string | null; children?: ComponentChildren }) {
  if (error)
    return (
      <p class="notice error" role="alert">
        {typeof error === 'string' ? error : error.message}
      </p>
    )
  return children ? (
    <p class="notice" role="status">
      {children}
    </p>
  ) : null
}

/** Issues (from an ApiError) that have no field of their own on the form. */
export function IssueList({ error, id }: { error?: Error; id?: string }) {
  if (!error) return null
  const issues: Issue[] = error instanceof ApiError ? error.issues : []
  return (
    <div class="notice error" role="alert" id={id}>
      <p>{error.message.split('\n')[0]}</p>
      {issues.length > 0 && (
        <ul>
          {issues.map((i) => (
            <li>
              <code>{i.path || '(root)'}</code> {i.message}
            </li>
          ))}
        </ul>
      )}
    </div>
  )
}

export const StatusBadge = ({ status }: { status: string }) => <span class={`badge badge-${status.toLowerCase()}`}>{status}</span>

export function Progress({ render }: { render: Pick<Render, 'progress' | 'status' | 'stage' | 'id'> }) {
  const pct = Math.round(render.progress * 100)
  return (
    <span class="progress">
      <progress max={1} value={render.progress} aria-label={`progress of render ${shortId(render.id)}`} />
      <span>{pct}%</span>
    </span>
  )
}

export const when = (iso: string | null) => (iso ? new Date(iso).toLocaleString() : '—')
export const seconds = (s: number | null) => (s === null ? '—' : `${s.toFixed(1)} s`)
export const credits = (n: number) => (Math.round(n * 100) / 100).toString()

export const Json = ({ value, label }: { value: unknown; label: string }) => (
  <section class="json-box" aria-label={label}>
    {/* biome-ignore lint/a11y/noNoninteractiveTabindex: a scrolling region must take keyboard focus to be scrolled (WCAG 2.1.1) */}
    <pre class="json" tabIndex={0}>
      {JSON.stringify(value, null, 2)}
    </pre>
  </section>
)

/** The finished file in the page: video, image or sound by its extension. */
export function Media({ render }: { render: Render }) {
  if (!render.url) return null
  const ext = /\.(\w+)(?:\?|$)/.exec(render.url)?.[1]?.toLowerCase() ?? ''
  if (['jpg', 'jpeg', 'png', 'bmp', 'gif'].includes(ext)) return <img class="media" src={render.url} alt={`output of render ${render.id}`} />
  // biome-ignore lint/a11y/useMediaCaption: a render's own output; it has captions only if the edit burned them in
  if (ext === 'mp3') return <audio class="media" controls src={render.url} aria-label={`output of render ${render.id}`} />
  return (
    // biome-ignore lint/a11y/useMediaCaption: a render's own output; it has captions only if the edit burned them in
    <video
      class="media"
      controls
      playsInline
      preload="metadata"
      src={render.url}
      poster={render.poster ?? undefined}
      aria-label={`output of render ${render.id}`}
    />
  )
}

/** The message an ApiError carries for one field, shown beside that field (and linked to it by `aria-describedby`). */
export function FieldError({ error, path, id }: { error?: Error; path: string; id: string }) {
  const issue = error instanceof ApiError ? error.issues.find((i) => i.path === path) : undefined
  return issue ? (
    <span class="field-error" id={id}>
      {issue.message}
    </span>
  ) : null
}
export const fieldInvalid = (error: Error | undefined, path: string) => error instanceof ApiError && error.issues.some((i) => i.path === path)

/** A labelled list filter: "all" (the empty value) or one of `options`. */
export const FilterSelect = ({ label, value, options, onChange }: { label: string; value: string; options: readonly string[]; onChange(v: string): void }) => (
  <label>
    {label}{' '}
    <select value={value} onChange={(e) => onChange(e.currentTarget.value)}>
      <option value="">all</option>
      {options.map((o) => (
        <option value={o}>{o}</option>
      ))}
    </select>
  </label>
)

/**
 * A table's column headings. Cells repeat each heading as `data-label` so narrow screens show it beside the value;
 * `actions` adds a last column with a heading read only by screen readers.
 */
export const TableHead = ({ columns, actions }: { columns: readonly string[]; actions?: boolean }) => (
  <thead>
    <tr>
      {columns.map((c) => (
        <th scope="col">{c}</th>
      ))}
      {actions && (
        <th scope="col">
          <span class="sr-only">Actions</span>
        </th>
      )}
    </tr>
  </thead>
)

/** A labelled number input whose error (from an ApiError naming `path`) is shown and linked beside it. */
export function NumberField(props: { id: string; label: string; path: string; value: string; error?: Error; onInput(v: string): void }) {
  return (
    <>
      <label for={props.id}>{props.label}</label>
      <input
        id={props.id}
        type="number"
        min={0}
        step="any"
        required
        value={props.value}
        onInput={(e) => props.onInput(e.currentTarget.value)}
        aria-invalid={fieldInvalid(props.error, props.path)}
        aria-describedby={`${props.id}-error`}
      />
      <FieldError error={props.error} path={props.path} id={`${props.id}-error`} />
    </>
  )
}

/**
 * A form's submit action: `busy` while its work runs, and what it threw as the form's `error` (through
 * `asError` when the form words it its own way), cleared on the next try.
 */
export function useAction(asError: (e: unknown) => Error = (e) => e as Error) {
  const [busy, setBusy] = useState(false)
  const [error, setError] = useState<Error>()
  const run = async (work: () => Promise<unknown>) => {
    setBusy(true)
    setError(undefined)
    try {
      await work()
    } catch (e) {
      setError(asError(e))
    } finally {
      setBusy(false)
    }
  }
  return { busy, error, setError, run }
}
