import { useState } from 'preact/hooks'
import { api, type Me } from '../api'
import { IssueList, Notice, usePoll, when, TableHead } from '../components'
import { JobId } from '../job-id'

interface Key {
  id: string
  account_id: string
  prefix: string
  sandbox: boolean
  admin: boolean
  created_at: string
  revoked_at: string | null
}

/** Keys (admin keys only): every key by prefix, create (the clear key is shown once), revoke. */
export function KeysPage({ me }: { me: Me }) {
  if (!me.admin) {
    return (
      <section aria-labelledby="keys-title">
        <h1 id="keys-title">Keys</h1>
        <p>
          Managing keys needs an admin key. Sign in with one, or run <code>reelforge keys create --admin</code> on the server.
        </p>
      </section>
    )
  }
  return <KeyAdmin me={me} />
}

function KeyAdmin({ me }: { me: Me }) {
  const keys = usePoll(
    () => api<{ keys: Key[] }>('GET', '/v1/keys'),
    () => null,
  )
  const [sandbox, setSandbox] = useState(false)
  const [admin, setAdmin] = useState(false)
  const [sameAccount, setSameAccount] = useState(true)
  const [created, setCreated] = useState<{ key: string; id: string; signing_secret?: string }>()
  const [error, setError] = useState<Error>()
  const [note, setNote] = useState('')

  const create = async (e: Event) => {
    e.preventDefault()
    setError(undefined)
    try {
      setCreated(await api('POST', '/v1/keys', { sandbox, admin, ...(sameAccount ? { account_id: me.account_id } : {}) }))
      keys.reload()
    } catch (err) {
      setError(err as Error)
    }
  }
  const revoke = async (k: Key) => {
    if (!window.confirm(`Revoke key ${k.prefix}…? Clients using it stop working at once.`)) return
    setError(undefined)
    try {
      await api('DELETE', `/v1/keys/${k.id}`)
      setNote(`Key ${k.prefix}… revoked.`)
      keys.reload()
    } catch (err) {
      setError(err as Error)
    }
  }
  return (
    <section aria-labelledby="keys-title">
      <h1 id="keys-title">Keys</h1>
      <form class="stack card" onSubmit={create} aria-labelledby="new-key-title">
        <h2 id="new-key-title">New key</h2>
        <label class="check">
          <input type="checkbox" checked={sandbox} onChange={(e) => setSandbox(e.currentTarget.checked)} /> Sandbox (free, watermarked renders)
        </label>
        <label class="check">
          <input type="checkbox" checked={admin} onChange={(e) => setAdmin(e.currentTarget.checked)} /> Admin
        </label>
        <label class="check">
          <input type="checkbox" checked={sameAccount} onChange={(e) => setSameAccount(e.currentTarget.checked)} /> For this account (otherwise a new account)
        </label>
        <div class="toolbar">
          <button type="submit">Create key</button>
        </div>
        {created && (
          <div class="notice" role="status">
            <p>New key — copy it now, it is not shown again:</p>
            <p>
              <code class="secret" data-testid="new-key">
                {created.key}
              </code>
            </p>
            {created.signing_secret && (
              <p>
                Callback signing secret of the new account: <code class="secret">{created.signing_secret}</code>
              </p>
            )}
          </div>
        )}
      </form>
      <IssueList error={error ?? keys.error} />
      <Notice>{note}</Notice>
      <table class="cards">
        <TableHead columns={['Key', 'Account', 'Kind', 'Created', 'State']} actions />
        <tbody>
          {keys.data?.keys.map((k) => (
            <tr data-key={k.id}>
              <td data-label="Key">
                <code>{k.prefix}…</code>
                {k.id === me.key_id && ' (this key)'}
              </td>
              <td data-label="Account">
                <JobId id={k.account_id} what="account" />
              </td>
              <td data-label="Kind">
                {k.sandbox ? 'sandbox' : 'live'}
                {k.admin ? ', admin' : ''}
              </td>
              <td data-label="Created">{when(k.created_at)}</td>
              <td data-label="State">{k.revoked_at ? `revoked ${when(k.revoked_at)}` : 'active'}</td>
              <td data-label="Actions">
                {!k.revoked_at && k.id !== me.key_id && (
                  <button type="button" class="danger" onClick={() => revoke(k)} aria-label={`Revoke key ${k.prefix}`}>
                    Revoke
                  </button>
                )}
              </td>
            </tr>
          ))}
        </tbody>
      </table>
    </section>
  )
}
