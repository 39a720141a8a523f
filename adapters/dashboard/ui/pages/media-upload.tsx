import { useState } from 'preact/hooks'
import type { SourceRecord as Source } from '../../../../service/api-types.js'
import { api } from '../api'
import { StatusBadge } from '../components'

interface Upload {
  key: number
  name: string
  loaded: number
  total: number
  source?: Source
  error?: string
}
let nextKey = 0

/**
 * One PUT of the file to its upload URL, with no key (the URL holds the one-time token), reporting progress.
 * The dashboard's CSP connects to its own origin only, so a public base URL naming another host is reached
 * by the same path here. Resolves with the source (ready or failed); rejects with the server's message.
 */
export function put(url: string, file: File, onProgress: (loaded: number, total: number) => void): Promise<Source> {
  const u = new URL(url, location.href)
  return new Promise((resolve, reject) => {
    const xhr = new XMLHttpRequest()
    xhr.open('PUT', u.origin === location.origin ? u.href : `${u.pathname}${u.search}`)
    xhr.upload.onprogress = (e) => onProgress(e.loaded, e.lengthComputable ? e.total : file.size)
    xhr.onload = () => {
      let body: { id?: string; error?: { message?: string } } | undefined
      try {
        body = JSON.parse(xhr.responseText)
      } catch {
        body = undefined
      }
      if (xhr.status === 200 && body?.id) resolve(body as Source)
      else reject(new Error(body?.error?.message ?? (xhr.status === 413 ? 'the file is too large' : `the upload failed (HTTP ${xhr.status})`)))
    }
    xhr.onerror = () => reject(new Error('the upload was cut off (a network error, or the file is too large)'))
    xhr.send(file)
  })
}

/** How one upload stands: its bar, then what the file turned out to be (or why it failed). */
function UploadItem({ u }: { u: Upload }) {
  const status = u.error ? 'failed' : (u.source?.status ?? 'uploading')
  const error = u.error ?? u.source?.error
  return (
    <li data-upload={u.name} data-status={status}>
      <span class="name">{u.name}</span>
      <progress max={u.total || 1} value={u.loaded} aria-label={`upload of ${u.name}`} />
      {status === 'uploading' ? (
        <span>{u.total ? Math.round((u.loaded / u.total) * 100) : 0}%</span>
      ) : (
        <span role="status">
          <StatusBadge status={status} />
          {u.source?.status === 'ready' && ` ${u.source.type}`}
          {error && <span class="error"> {error}</span>}
        </span>
      )}
    </li>
  )
}

/** Upload by drag and drop or the file input: each file gets an upload URL, then goes there with a progress bar. */
export function UploadZone({ onChange }: { onChange(): void }) {
  const [uploads, setUploads] = useState<Upload[]>([])
  const [over, setOver] = useState(false)
  const update = (key: number, patch: Partial<Upload>) => setUploads((all) => all.map((u) => (u.key === key ? { ...u, ...patch } : u)))

  const start = (files: FileList | null | undefined) => {
    for (const file of Array.from(files ?? [])) {
      const key = nextKey++
      setUploads((all) => [{ key, name: file.name, loaded: 0, total: file.size }, ...all])
      void (async () => {
        try {
          // `proxy`: this service's own upload URL even on S3 storage, as the page's CSP allows no other origin.
          const body = { filename: file.name, proxy: true, ...(file.type ? { content_type: file.type } : {}) }
          const { url } = await api<{ id: string; url: string }>('POST', '/v1/upload', body)
          onChange()
          const source = await put(url, file, (loaded, total) => update(key, { loaded, total }))
          update(key, { source, loaded: file.size, total: file.size })
        } catch (err) {
          update(key, { error: (err as Error).message })
        }
        onChange()
      })()
    }
  }
  const drop = (e: DragEvent) => {
    e.preventDefault()
    setOver(false)
    start(e.dataTransfer?.files)
  }

  return (
    <section class="card" aria-labelledby="upload-title">
      <h2 id="upload-title">Upload</h2>
      {/* biome-ignore lint/a11y/noStaticElementInteractions: a drop target for pointer users; the file input inside is the keyboard's way to the same */}
      <div class={over ? 'dropzone over' : 'dropzone'} onDragOver={(e) => (e.preventDefault(), setOver(true))} onDragLeave={() => setOver(false)} onDrop={drop}>
        <p>Drop video, image, audio or font files here, or choose them:</p>
        <label for="media-files">Files to upload</label>
        <input
          id="media-files"
          type="file"
          multiple
          onChange={(e) => {
            start(e.currentTarget.files)
            e.currentTarget.value = ''
          }}
        />
      </div>
      {uploads.length > 0 && (
        <ul class="uploads" aria-label="Uploads">
          {uploads.map((u) => (
            <UploadItem u={u} key={u.key} />
          ))}
        </ul>
      )}
    </section>
  )
}
