import { api } from '../api'
import { Notice, useAction } from '../components'
import { openInEditor, openInPlayground } from '../drafts'

/**
 * What a render's page does with the edit it rendered: Re-render submits that edit again (`POST /v1/render`, a
 * new render, charged as one) and opens the new render's page; Open in playground and Open in editor make it
 * that page's draft, to change and render from there.
 */
export function RenderActions({ edit }: { edit: object }) {
  const { busy, error, run } = useAction()
  const again = () =>
    run(async () => {
      const { jobId } = await api<{ jobId: string }>('POST', '/v1/render', edit)
      location.hash = `#/renders/${jobId}`
    })
  return (
    <>
      <div class="toolbar">
        <button type="button" onClick={again} disabled={busy}>
          {busy ? 'Submitting…' : 'Re-render'}
        </button>
        <button type="button" onClick={() => openInPlayground(edit)}>
          Open in playground
        </button>
        <button type="button" onClick={() => openInEditor(edit)}>
          Open in editor
        </button>
      </div>
      <Notice error={error} />
    </>
  )
}
