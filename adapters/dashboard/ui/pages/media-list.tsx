import { useEffect, useRef, useState } from 'preact/hooks'
import type { SourceRecord as Source } from '../../../../service/api-types.js'
import { api } from '../api'
import { seconds, StatusBadge, TableHead } from '../components'
import { humanBytes, Renditions, sourceName, Thumb } from './media-parts'
import { addToPlayground } from './media-playground'

/** Where the clipboard is out of reach (an insecure origin, a refusal): the URL, selected for copying by hand. */
function CopyBox({ url, name, onDone }: { url: string; name: string; onDone(): void }) {
  const ref = useRef<HTMLInputElement>(null)
  useEffect(() => {
    ref.current?.focus()
    ref.current?.select()
  }, [])
  return <input ref={ref} class="copy-box" readOnly value={url} aria-label={`URL of ${name} (selected: copy it)`} onBlur={onDone} />
}

type RowProps = { s: Source; onChange(): void; onNote(note: string | Error): void }

function SourceRow({ s, onChange, onNote }: RowProps) {
  const [armed, setArmed] = useState(false)
  const [manual, setManual] = useState(false)
  const name = sourceName(s)
  const copy = async () => {
    try {
      await navigator.clipboard.writeText(s.url!)
      onNote(`Copied the URL of ${name}.`)
    } catch {
      setManual(true)
    }
  }
  const remove = async () => {
    if (!armed) return setArmed(true)
    try {
      await api('DELETE', `/v1/sources/${s.id}`)
      onNote(`Deleted ${name}.`)
    } catch (err) {
      onNote(err as Error)
    }
    setArmed(false)
    onChange()
  }
  const use = () => {
    const refused = addToPlayground(s)
    if (refused) onNote(refused)
  }
  return (
    <tr data-source={s.id} data-name={name} data-status={s.status}>
      <td data-label="Preview">
        <Thumb s={s} name={name} />
      </td>
      <td data-label="Name" class="name">
        <span>
          {name}
          <Renditions s={s} />
        </span>
      </td>
      <td data-label="Type">{s.type ?? '—'}</td>
      <td data-label="Status">
        <span>
          <StatusBadge status={s.status} />
          {s.error && <span class="error source-error"> {s.error}</span>}
        </span>
      </td>
      <td data-label="Size" class="num">
        {humanBytes(s.bytes)}
      </td>
      <td data-label="Dimensions" class="num">
        {s.width && s.height ? `${s.width}×${s.height}` : '—'}
      </td>
      <td data-label="Duration" class="num">
        {seconds(s.duration)}
      </td>
      <td data-label="Actions">
        <div class="actions">
          {s.url && s.status === 'ready' && (
            <>
              {manual ? (
                <CopyBox url={s.url} name={name} onDone={() => setManual(false)} />
              ) : (
                <button type="button" onClick={copy} aria-label={`Copy URL of ${name}`}>
                  Copy URL
                </button>
              )}
              <button type="button" onClick={use} aria-label={`Use in playground: ${name}`}>
                Use in playground
              </button>
            </>
          )}
          <button type="button" class="danger" onClick={remove} aria-label={armed ? `Delete for good: ${name}` : `Delete ${name}`}>
            {armed ? 'Delete for good' : 'Delete'}
          </button>
          {armed && (
            <button type="button" onClick={() => setArmed(false)} aria-label={`Keep ${name}`}>
              Keep
            </button>
          )}
        </div>
      </td>
    </tr>
  )
}

export const SourceTable = ({ sources, ...props }: Omit<RowProps, 's'> & { sources: Source[] }) => (
  <table class="cards media-table">
    <TableHead columns={['Preview', 'Name', 'Type', 'Status', 'Size', 'Dimensions', 'Duration']} actions />
    <tbody>
      {sources.map((s) => (
        <SourceRow s={s} key={s.id} {...props} />
      ))}
    </tbody>
  </table>
)
