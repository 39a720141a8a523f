import type { SourceRecord as Source } from '../../../../service/api-types.js'
import { StatusBadge } from '../components'
import { shortId } from '../job-id'

/** The file's name: an upload's own, else the last path segment of its hosted URL or of the URL it came from. */
export function sourceName(s: Pick<Source, 'id' | 'url' | 'input_url' | 'filename'>): string {
  if (s.filename) return s.filename
  const from = s.url ?? s.input_url
  if (!from) return `upload ${shortId(s.id)}`
  try {
    const last = new URL(from).pathname.split('/').filter(Boolean).at(-1)
    return last ? decodeURIComponent(last) : from
  } catch {
    return from
  }
}

/** 1536 → "1.5 KiB". */
export function humanBytes(n: number | null): string {
  if (n === null) return '—'
  const units = ['B', 'KiB', 'MiB', 'GiB', 'TiB']
  let v = n
  let i = 0
  for (; v >= 1024 && i < units.length - 1; i++) v /= 1024
  return i ? `${v.toFixed(v < 10 ? 1 : 0)} ${units[i]}` : `${v} B`
}

/** Still moving: the import (or the upload's bytes) or one of its renditions. */
export const isMoving = (s: Source) =>
  s.status === 'queued' || s.status === 'importing' || (s.renditions ?? []).some((r) => r.status === 'queued' || r.status === 'processing')

/** A small preview: the image itself, a video's first frame (metadata only), or a sign for sound and fonts. */
export function Thumb({ s, name }: { s: Source; name: string }) {
  if (s.status !== 'ready' || !s.url) return <span class="thumb" aria-hidden="true" />
  if (s.type === 'image') return <img class="thumb" src={s.url} alt="" loading="lazy" />
  if (s.type === 'video') return <video class="thumb" src={`${s.url}#t=0.1`} preload="metadata" muted playsInline aria-label={`first frame of ${name}`} />
  return (
    <span class="thumb" aria-hidden="true">
      {s.type === 'audio' ? '♪' : 'Aa'}
    </span>
  )
}

/** A source's renditions (files made from it), each with its status and link once ready. */
export function Renditions({ s }: { s: Source }) {
  const list = s.renditions ?? []
  if (!list.length) return null
  return (
    <details class="renditions">
      <summary>
        {list.length} rendition{list.length === 1 ? '' : 's'}
      </summary>
      <ul>
        {list.map((r) => {
          const what = `${String(r.transformation?.format ?? r.content_type ?? 'file')}${r.width && r.height ? ` ${r.width}×${r.height}` : ''}`
          return (
            <li data-rendition={r.id} data-status={r.status}>
              <StatusBadge status={r.status} /> {r.url ? <a href={r.url}>{what}</a> : what}
              {r.error && <span class="error"> {r.error}</span>}
            </li>
          )
        })}
      </ul>
    </details>
  )
}
