import { useState } from 'preact/hooks'
import { IMAGE_MODELS, IMAGE_SIZES, IMAGE_STYLES, PROMPT_LIMIT, type ImageModel } from '../../../../service/vocabulary.js'
import type { ImageRecord as Image } from '../../../../service/api-types.js'
import { api, ApiError } from '../api'
import { credits, FieldError, fieldInvalid, IssueList, Notice, usePoll, when, useAction } from '../components'
import { JobId, shortId } from '../job-id'

/** Images: generate with the model, size and style controls the API offers; the account's gallery. */
export function ImagesPage() {
  const [prompt, setPrompt] = useState('')
  const [model, setModel] = useState<ImageModel>('flux')
  const [size, setSize] = useState('1024x1024')
  const [style, setStyle] = useState('natural')
  const { busy, error, run } = useAction()
  const [made, setMade] = useState<Image>()
  const gallery = usePoll(
    () => api<{ images: Image[] }>('GET', '/v1/ai/image?limit=60'),
    () => null,
  )
  const styles = IMAGE_STYLES[model]

  const generate = (e: Event) => {
    e.preventDefault()
    const [width, height] = size.split('x').map(Number)
    run(async () => {
      setMade(await api<Image>('POST', '/v1/ai/image', { prompt, model, width, height, style: styles.includes(style) ? style : 'natural' }))
      gallery.reload()
    })
  }
  const unplaced = error instanceof ApiError && error.issues.some((i) => !['prompt', 'model', 'width', 'style'].includes(i.path))

  return (
    <section aria-labelledby="images-title">
      <h1 id="images-title">Images</h1>
      <form class="stack" onSubmit={generate}>
        <label for="img-prompt">Prompt</label>
        <textarea
          id="img-prompt"
          required
          maxLength={PROMPT_LIMIT}
          rows={3}
          value={prompt}
          onInput={(e) => setPrompt(e.currentTarget.value)}
          aria-invalid={fieldInvalid(error, 'prompt')}
          aria-describedby="img-prompt-error"
        />
        <FieldError error={error} path="prompt" id="img-prompt-error" />
        <div class="row">
          <label>
            Model
            <select value={model} onChange={(e) => setModel(e.currentTarget.value as ImageModel)}>
              {IMAGE_MODELS.map((m) => (
                <option value={m}>{m}</option>
              ))}
            </select>
          </label>
          <label>
            Size
            <select value={size} onChange={(e) => setSize(e.currentTarget.value)} aria-invalid={fieldInvalid(error, 'width')} aria-describedby="img-size-error">
              {IMAGE_SIZES.map((s) => (
                <option value={s}>{s.replace('x', ' × ')}</option>
              ))}
            </select>
          </label>
          <label>
            Style
            <select
              value={styles.includes(style) ? style : 'natural'}
              onChange={(e) => setStyle(e.currentTarget.value)}
              aria-invalid={fieldInvalid(error, 'style')}
              aria-describedby="img-style-error"
            >
              {styles.map((s) => (
                <option value={s}>{s}</option>
              ))}
            </select>
          </label>
        </div>
        <FieldError error={error} path="width" id="img-size-error" />
        <FieldError error={error} path="style" id="img-style-error" />
        <div class="toolbar">
          <button type="submit" disabled={busy}>
            {busy ? 'Generating…' : 'Generate'}
          </button>
        </div>
        {error && (!(error instanceof ApiError) || !error.issues.length || unplaced) && <IssueList error={error} />}
        {made && (
          <Notice>
            Made image <JobId id={made.id} what="image" /> with {made.provider ?? made.model} ({credits(made.credits_used)} credits).
          </Notice>
        )}
      </form>
      <h2>Gallery</h2>
      <Notice error={gallery.error} />
      {gallery.data && !gallery.data.images.length && <p>No images yet.</p>}
      <ul class="gallery">
        {gallery.data?.images.map((img) => (
          <li data-image={img.id}>
            <figure>
              {img.url ? (
                <a href={img.url}>
                  <img src={img.url} alt={`${img.model} result ${shortId(img.id)}`} loading="lazy" width={img.width} height={img.height} />
                </a>
              ) : (
                <div class="placeholder">{img.status}</div>
              )}
              <figcaption>
                <JobId id={img.id} what="image" /> · {img.model} · {img.width}×{img.height} · {when(img.created_at)}
                {img.error && (
                  <>
                    {' '}
                    · <span class="error">{img.error}</span>
                  </>
                )}
              </figcaption>
            </figure>
          </li>
        ))}
      </ul>
    </section>
  )
}
