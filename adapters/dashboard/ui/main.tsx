import { render } from 'preact'
import { useEffect, useState } from 'preact/hooks'
import { api, ApiError, session, SIGNED_OUT, type Me } from './api'
import { Notice, useAction } from './components'
import { EditorPage } from './editor/editor-page'
import { AiPage } from './pages/ai'
import { ImagesPage } from './pages/images'
import { KeysPage } from './pages/keys'
import { MediaPage } from './pages/media'
import { PlaygroundPage } from './pages/playground'
import { RendersPage } from './pages/renders'
import { TemplatesPage } from './pages/templates'
import { WalletPage } from './pages/wallet'
import { WebhooksPage } from './pages/webhooks'
import './style.css'

const PAGES = [
  ['renders', 'Renders'],
  ['playground', 'Playground'],
  ['editor', 'Editor'],
  ['templates', 'Templates'],
  ['media', 'Media'],
  ['images', 'Images'],
  ['ai', 'AI'],
  ['webhooks', 'Webhooks'],
  ['wallet', 'Wallet'],
  ['keys', 'Keys'],
] as const
type Page = (typeof PAGES)[number][0]

/** `#/renders/<id>` → ['renders', '<id>']: the hash names pages only, never credentials. */
function useRoute(): [Page, string | undefined] {
  const read = (): [Page, string | undefined] => {
    const [, page, param] = location.hash.split('/')
    return [PAGES.some(([p]) => p === page) ? (page as Page) : 'renders', param || undefined]
  }
  const [route, setRoute] = useState(read)
  useEffect(() => {
    const on = () => setRoute(read())
    window.addEventListener('hashchange', on)
    return () => window.removeEventListener('hashchange', on)
  }, [])
  return route
}

function SignIn({ onSignedIn, reason }: { onSignedIn: (me: Me) => void; reason?: string }) {
  const [key, setKey] = useState('')
  const { busy, error, run } = useAction((err) =>
    err instanceof ApiError && err.status === 401 ? new Error('That key is not valid (or was revoked).') : (err as Error),
  )
  const submit = (e: Event) => {
    e.preventDefault()
    run(async () => {
      const me = await api<Me>('GET', '/v1/me', undefined, key.trim())
      session.set(key.trim())
      onSignedIn(me)
    })
  }
  return (
    <main id="main" class="signin">
      <h1>reelforge</h1>
      <form class="stack card" onSubmit={submit}>
        <label for="api-key">API key</label>
        <input
          id="api-key"
          type="password"
          autoComplete="off"
          required
          placeholder="rf_live_…"
          value={key}
          onInput={(e) => setKey(e.currentTarget.value)}
          aria-describedby="signin-help"
        />
        <p id="signin-help" class="muted">
          Kept in this browser for every tab until you sign out (in any tab); never sent in a link.
        </p>
        <button type="submit" disabled={busy}>
          {busy ? 'Signing in…' : 'Sign in'}
        </button>
        <Notice error={error ?? reason} />
      </form>
    </main>
  )
}

function App() {
  const [me, setMe] = useState<Me | null>()
  const [reason, setReason] = useState<string>()
  const [page, param] = useRoute()
  useEffect(() => {
    // The stored key, checked: a refused one is removed (from every tab); any other failure keeps it for a retry.
    const check = (key: string | null) => {
      if (!key) return setMe(null)
      api<Me>('GET', '/v1/me', undefined, key).then(
        (m) => key === session.key() && (setReason(undefined), setMe(m)),
        (e) => {
          if (e instanceof ApiError && e.status === 401) session.clear()
          setMe(null)
          setReason(e instanceof ApiError && e.status === 401 ? undefined : `Could not check the key: ${(e as Error).message}`)
        },
      )
    }
    check(session.key())
    // Another tab signed in (this one follows) or out (so is this one, at once).
    const stop = session.onChange((key) => (key ? check(key) : (setMe(null), setReason('Signed out in another tab.'))))
    const out = () => (session.clear(), setMe(null), setReason('Your key stopped working (revoked?). Sign in again.'))
    window.addEventListener(SIGNED_OUT, out)
    return () => (stop(), window.removeEventListener(SIGNED_OUT, out))
  }, [])
  useEffect(() => {
    const title = PAGES.find(([p]) => p === page)?.[1]
    document.title = `${title} · reelforge`
  }, [page])
  if (me === undefined) return <p role="status">Loading…</p>
  if (me === null) return <SignIn onSignedIn={(m) => (setReason(undefined), setMe(m))} reason={reason} />
  const signOut = () => (session.clear(), setReason(undefined), setMe(null))
  return (
    <>
      <a class="skip" href="#main">
        Skip to content
      </a>
      <header class="top">
        <span class="brand">reelforge</span>
        <nav aria-label="Dashboard">
          <ul>
            {PAGES.map(([p, label]) => (
              <li>
                <a href={`#/${p}`} aria-current={p === page ? 'page' : undefined}>
                  {label}
                </a>
              </li>
            ))}
          </ul>
        </nav>
        <span class="who">
          {me.sandbox ? 'sandbox' : 'live'}
          {me.admin ? ' · admin' : ''}{' '}
          <button type="button" class="link" onClick={signOut}>
            Sign out
          </button>
        </span>
      </header>
      <main id="main" tabIndex={-1} class={page === 'editor' ? 'wide' : undefined}>
        {page === 'renders' && <RendersPage id={param} />}
        {page === 'playground' && <PlaygroundPage me={me} />}
        {page === 'editor' && <EditorPage me={me} />}
        {page === 'templates' && <TemplatesPage id={param} />}
        {page === 'media' && <MediaPage />}
        {page === 'images' && <ImagesPage />}
        {page === 'ai' && <AiPage kind={param} />}
        {page === 'webhooks' && <WebhooksPage />}
        {page === 'wallet' && <WalletPage me={me} />}
        {page === 'keys' && <KeysPage me={me} />}
      </main>
    </>
  )
}

render(<App />, document.getElementById('app')!)
