import { useEffect, useState } from 'preact/hooks'
import type { SourceRecord as Source } from '../../../../service/api-types.js'
import { api } from '../api.js'
import { Notice } from '../components.js'
import { sourceName } from '../pages/media-parts.js'
import { put } from '../pages/media-upload.js'
import { getIn, isObj, type Obj, setIn } from './edit-doc.js'
import { AI_ASSETS, type AiAssetType, clipFromAi, clipFromSource, clipFromUrl, QUICK, quickClip } from './new-clips.js'
import { addClip } from './ops.js'
import type { EditorStore } from './store.js'

/** A font joins `timeline.fonts` (once); any other source becomes a clip. */
function withSource(edit: Obj, s: Source, at: number): { edit: Obj; selected: Obj[] } {
  if (s.type !== 'font') return addClip(edit, clipFromSource(s, at))
  const fonts = getIn(edit, ['timeline', 'fonts'])
  const list = Array.isArray(fonts) ? fonts : []
  if (list.some((f) => isObj(f) && f.src === s.url)) return { edit, selected: [] }
  return { edit: setIn(edit, ['timeline', 'fonts'], [...list, { src: s.url }]) as Obj, selected: [] }
}

/**
 * Adds clips at the playhead, each on a new top track: from the media library (`GET /v1/sources`), a URL, a
 * file uploaded here (`POST /v1/upload`, then its PUT), an AI asset (drawn by the server's providers when the
 * edit renders), or a title, text or shape to start from.
 */
export function AddClip({ store, playhead, onFontsChanged }: { store: EditorStore; playhead: number; onFontsChanged(): void }) {
  const [sources, setSources] = useState<Source[]>([])
  const [reload, setReload] = useState(0)
  const [url, setUrl] = useState('')
  const [urlType, setUrlType] = useState<'video' | 'image' | 'audio'>('image')
  const [aiType, setAiType] = useState<AiAssetType>('text-to-image')
  const [words, setWords] = useState('')
  const [note, setNote] = useState<{ error?: Error; text?: string }>({})
  useEffect(() => {
    api<{ sources: Source[] }>('GET', '/v1/sources?status=ready&limit=50').then(
      (r) => setSources(r.sources),
      () => {},
    )
  }, [reload])

  const add = (label: string, make: (edit: Obj) => { edit: Obj; selected: Obj[] }) => {
    const r = make(store.current().edit)
    store.change(label, r.edit, r.selected)
    setNote({ text: `${label}.` })
  }
  const addSource = (s: Source) => {
    add(s.type === 'font' ? `Font ${sourceName(s)} added to timeline.fonts` : `Added ${sourceName(s)}`, (e) => withSource(e, s, playhead))
    if (s.type === 'font') onFontsChanged()
  }
  const upload = async (file: File | undefined) => {
    if (!file) return
    setNote({ text: `Uploading ${file.name}…` })
    try {
      const { url: to } = await api<{ url: string }>('POST', '/v1/upload', { filename: file.name, proxy: true })
      const s = await put(to, file, () => {})
      if (s.status !== 'ready') throw new Error(s.error ?? `the upload ended ${s.status}`)
      setReload((n) => n + 1)
      addSource(s)
    } catch (e) {
      setNote({ error: e as Error })
    }
  }

  return (
    <details class="card add-clip">
      <summary>Add a clip</summary>
      <p class="muted">Clips are added at the playhead, on a new track above the others.</p>
      <div class="toolbar">
        {Object.keys(QUICK).map((name) => (
          <button type="button" onClick={() => add(`Added a ${name.toLowerCase()}`, (e) => addClip(e, quickClip(name, playhead)))}>
            Add {name.toLowerCase()}
          </button>
        ))}
      </div>
      <h3>Media library</h3>
      {sources.length === 0 ? (
        <p class="muted">No ready media yet: upload a file below or on the Media page.</p>
      ) : (
        <ul class="library">
          {sources.map((s) => (
            <li data-source={s.id}>
              <button type="button" onClick={() => addSource(s)}>
                Add {sourceName(s)}
              </button>{' '}
              <span class="muted">{s.type}</span>
            </li>
          ))}
        </ul>
      )}
      <label for="add-upload">Upload a file</label> <input id="add-upload" type="file" onChange={(e) => void upload(e.currentTarget.files?.[0])} />
      <form class="toolbar" onSubmit={(e) => (e.preventDefault(), url && add(`Added ${url}`, (ed) => addClip(ed, clipFromUrl(urlType, url, playhead))))}>
        <label for="add-url">URL</label>
        <input id="add-url" type="url" value={url} placeholder="https://…" onInput={(e) => setUrl(e.currentTarget.value)} />
        <select aria-label="URL kind" value={urlType} onChange={(e) => setUrlType(e.currentTarget.value as typeof urlType)}>
          <option value="image">image</option>
          <option value="video">video</option>
          <option value="audio">audio</option>
        </select>
        <button type="submit">Add URL</button>
      </form>
      <form class="toolbar" onSubmit={(e) => (e.preventDefault(), words && add(`Added ${aiType}`, (ed) => addClip(ed, clipFromAi(aiType, words, playhead))))}>
        <select aria-label="AI asset" value={aiType} onChange={(e) => setAiType(e.currentTarget.value as AiAssetType)}>
          {Object.keys(AI_ASSETS).map((t) => (
            <option value={t}>{t}</option>
          ))}
        </select>
        <label for="add-ai">{aiType === 'text-to-speech' ? 'Text to speak' : 'Prompt'}</label>
        <input id="add-ai" value={words} onInput={(e) => setWords(e.currentTarget.value)} />
        <button type="submit">Add AI asset</button>
      </form>
      <Notice error={note.error}>{note.text}</Notice>
    </details>
  )
}
