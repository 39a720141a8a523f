import { useEffect, useRef, useState } from 'preact/hooks'

/**
 * An id, short: its last 8 digits. Ids are UUIDv7, whose first digits are the creation time, so jobs made in
 * the same second share them; the last ones are random.
 */
export const shortId = (id: string) => id.slice(-8)

/** Where the clipboard is out of reach (plain http, a refusal): the whole id, selected for copying by hand. */
function SelectedId({ id, what, onDone }: { id: string; what: string; onDone(): void }) {
  const ref = useRef<HTMLInputElement>(null)
  useEffect(() => {
    ref.current?.focus()
    ref.current?.select()
  }, [])
  return <input ref={ref} class="id-box" readOnly value={id} size={36} aria-label={`${what} id (selected: copy it)`} onBlur={onDone} />
}

/**
 * How the dashboard shows every job, render, image, source or account id: short (or `whole`) in monospace,
 * the whole id as its tooltip, and a button that copies the whole id — the one the API and the CLI take.
 */
export function JobId({ id, what, href, whole = false }: { id: string; what: string; href?: string; whole?: boolean }) {
  const [state, setState] = useState<'idle' | 'copied' | 'manual'>('idle')
  useEffect(() => {
    if (state !== 'copied') return
    const t = window.setTimeout(() => setState('idle'), 2000)
    return () => window.clearTimeout(t)
  }, [state])
  const copy = async () => {
    try {
      await navigator.clipboard.writeText(id)
      setState('copied')
    } catch {
      setState('manual')
    }
  }
  const code = (
    <code class="id" title={id}>
      {whole ? id : shortId(id)}
    </code>
  )
  return (
    <span class="job-id" data-id={id}>
      {state === 'manual' ? <SelectedId id={id} what={what} onDone={() => setState('idle')} /> : href ? <a href={href}>{code}</a> : code}
      <button type="button" class="copy-id" onClick={copy} aria-label={`Copy ${what} id ${shortId(id)}`}>
        {state === 'copied' ? 'Copied' : 'Copy'}
      </button>
      <span class="sr-only" role="status">
        {state === 'copied' ? `Copied the id of ${what} ${shortId(id)}.` : ''}
      </span>
    </span>
  )
}
