import { useState } from 'preact/hooks'
import { SOURCE_STATUSES, SOURCE_TYPES, type SourceRecord as Source } from '../../../../service/api-types.js'
import { api } from '../api'
import { FieldError, fieldInvalid, FilterSelect, Notice, usePoll, useAction } from '../components'
import { SourceTable } from './media-list'
import { isMoving, sourceName } from './media-parts'
import { UploadZone } from './media-upload'

/** The rendition most users want of a video: normalised for editing (the issue's "phone footage to 1080p30"). */
const EDITING_COPY = { format: 'mp4', resolution: '1080', fps: 30 }

/** Import from a URL: the service fetches the file; the field shows why a URL is refused. */
function ImportForm({ onChange }: { onChange(): void }) {
  const [url, setUrl] = useState('')
  const [copy, setCopy] = useState(false)
  const { busy, error, run } = useAction()
  const [done, setDone] = useState('')
  const submit = (e: Event) => {
    e.preventDefault()
    setDone('')
    run(async () => {
      const s = await api<Source>('POST', '/v1/sources', { url: url.trim(), ...(copy ? { renditions: [EDITING_COPY] } : {}) })
      setDone(`Importing ${sourceName(s)}; it is listed below.`)
      setUrl('')
      onChange()
    })
  }
  return (
    <form class="card stack" onSubmit={submit} aria-labelledby="import-title">
      <h2 id="import-title">Import from a URL</h2>
      <label for="media-url">File URL</label>
      <input
        id="media-url"
        type="url"
        required
        placeholder="https://example.com/clip.mp4"
        value={url}
        onInput={(e) => setUrl(e.currentTarget.value)}
        aria-invalid={fieldInvalid(error, 'url')}
        aria-describedby="media-url-error"
      />
      <FieldError error={error} path="url" id="media-url-error" />
      <label class="check">
        <input type="checkbox" checked={copy} onChange={(e) => setCopy(e.currentTarget.checked)} />
        Also make an editing copy: 1080p, 30 fps, H.264 mp4 (phone footage, odd frame rates)
      </label>
      <div class="toolbar">
        <button type="submit" disabled={busy}>
          {busy ? 'Importing…' : 'Import'}
        </button>
      </div>
      <Notice error={fieldInvalid(error, 'url') ? undefined : error}>{done}</Notice>
    </form>
  )
}

/** Media: the account's hosted sources — upload or import, watch them become ready, copy or use their URLs. */
export function MediaPage() {
  const [type, setType] = useState('')
  const [status, setStatus] = useState('')
  const [note, setNote] = useState<string | Error>()
  const list = usePoll(
    () => {
      const q = new URLSearchParams({ limit: '100' })
      if (type) q.set('type', type)
      if (status) q.set('status', status)
      return api<{ sources: Source[]; next: string | null }>('GET', `/v1/sources?${q}`)
    },
    (last) => (last?.sources.some(isMoving) ? 1000 : null),
    [type, status],
  )
  const sources = list.data?.sources
  return (
    <section aria-labelledby="media-title">
      <h1 id="media-title">Media</h1>
      <p class="muted">
        Video, image, audio and font files kept by this service. A ready file's URL works as <code>src</code> in any timeline.
      </p>
      <div class="row media-forms">
        <UploadZone onChange={list.reload} />
        <ImportForm onChange={list.reload} />
      </div>
      <h2>Files</h2>
      <div class="toolbar">
        <FilterSelect label="Type" value={type} options={SOURCE_TYPES} onChange={setType} />
        <FilterSelect label="Status" value={status} options={SOURCE_STATUSES} onChange={setStatus} />
      </div>
      <Notice error={list.error} />
      <Notice error={note instanceof Error ? note : undefined}>{typeof note === 'string' ? note : ''}</Notice>
      {sources && !sources.length && <p>{type || status ? 'No files match these filters.' : 'No media yet: upload a file or import one from a URL.'}</p>}
      {sources && sources.length > 0 && <SourceTable sources={sources} onChange={list.reload} onNote={setNote} />}
      {list.data?.next && <p class="muted">Showing the newest {sources?.length}.</p>}
    </section>
  )
}
