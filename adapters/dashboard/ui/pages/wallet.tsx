import { useState } from 'preact/hooks'
import { api, type Me } from '../api'
import { credits, Notice, usePoll, when, TableHead, NumberField } from '../components'
import { JobId } from '../job-id'

interface WalletState {
  balance: number
  held: number
  available: number
  low_balance_threshold: number
}
interface Entry {
  id: number
  kind: string
  amount: number
  job_id: string | null
  note: string | null
  balance_after: number
  created_at: string
}

/** Wallet: balance, held and available credits, the ledger, the low-balance threshold (and deposits for admin keys). */
export function WalletPage({ me }: { me: Me }) {
  const wallet = usePoll(
    () => api<WalletState>('GET', '/v1/wallet'),
    () => 5000,
  )
  const ledger = usePoll(
    () => api<{ entries: Entry[] }>('GET', '/v1/wallet/ledger?limit=100'),
    () => 5000,
  )
  const [threshold, setThreshold] = useState('')
  const [amount, setAmount] = useState('')
  const [error, setError] = useState<Error>()
  const [note, setNote] = useState('')
  const send = async (e: Event, method: string, path: string, body: unknown, done: string) => {
    e.preventDefault()
    setError(undefined)
    try {
      await api(method, path, body)
      setNote(done)
      wallet.reload()
      ledger.reload()
    } catch (err) {
      setError(err as Error)
    }
  }
  const w = wallet.data
  return (
    <section aria-labelledby="wallet-title">
      <h1 id="wallet-title">Wallet</h1>
      <Notice error={wallet.error ?? ledger.error} />
      {w && (
        <dl class="facts big">
          <dt>Balance</dt>
          <dd data-testid="balance">{credits(w.balance)}</dd>
          <dt>Held by running jobs</dt>
          <dd>{credits(w.held)}</dd>
          <dt>Available</dt>
          <dd>{credits(w.available)}</dd>
          <dt>Low-balance threshold</dt>
          <dd>{credits(w.low_balance_threshold)}</dd>
        </dl>
      )}
      <div class="row">
        <form class="stack card" onSubmit={(e) => send(e, 'PUT', '/v1/wallet/threshold', { low_balance_threshold: Number(threshold) }, 'Threshold saved.')}>
          <NumberField
            id="threshold"
            label="Low-balance threshold (credits)"
            path="low_balance_threshold"
            value={threshold}
            error={error}
            onInput={setThreshold}
          />
          <button type="submit">Set threshold</button>
        </form>
        {me.admin && (
          <form
            class="stack card"
            onSubmit={(e) => send(e, 'POST', '/v1/wallet/deposits', { amount: Number(amount), note: 'dashboard deposit' }, 'Credits added.')}
          >
            <NumberField id="deposit" label="Add credits to this account (admin)" path="amount" value={amount} error={error} onInput={setAmount} />
            <button type="submit">Deposit</button>
          </form>
        )}
      </div>
      <Notice error={error && !(error as { issues?: unknown[] }).issues?.length ? error : undefined}>{note}</Notice>
      <h2>Ledger</h2>
      {ledger.data && !ledger.data.entries.length && <p>No entries yet.</p>}
      {ledger.data && ledger.data.entries.length > 0 && (
        <table class="cards">
          <TableHead columns={['When', 'Kind', 'Amount', 'Balance after', 'Job / note']} />
          <tbody>
            {ledger.data.entries.map((e) => (
              <tr>
                <td data-label="When">{when(e.created_at)}</td>
                <td data-label="Kind">{e.kind}</td>
                <td data-label="Amount">{credits(e.amount)}</td>
                <td data-label="Balance after">{credits(e.balance_after)}</td>
                <td data-label="Job / note">
                  {e.job_id ? <JobId id={e.job_id} what="render" href={`#/renders/${e.job_id}`} /> : null} {e.note}
                </td>
              </tr>
            ))}
          </tbody>
        </table>
      )}
    </section>
  )
}
