import { test } from 'uvu'
import * as assert from 'uvu/assert'
import { createService } from '../../../adapters/http/create-service.js'
import { aiProvidersFromConfig } from '../../../plugins/index.js'
import { fakeDid } from '../../helpers/fakes/did.js'
import { testService } from '../../helpers/service.js'

// A process that stops while a Create API asset is being made leaves its row `processing` and its price held. The
// next process on the same database must make it, charge it once — and /v1's AI job runner, which resumes the
// same table, must leave it to the Create API's runner rather than fail it as a job of a kind it does not run.

test('an avatar left processing by a stopped process is made and charged once by the next one', async () => {
  const did = await fakeDid({ pendingPolls: 0 })
  const providers = () => aiProvidersFromConfig({ DID_API_KEY: 'ZGlkQHRlc3Q:did-secret', DID_BASE_URL: did.url })
  const first = await testService({ config: { shotstack: true }, overrides: { aiProviders: providers() } })
  const headers = { 'x-api-key': first.live, 'content-type': 'application/json' }
  const body = JSON.stringify({ provider: 'd-id', options: { type: 'text-to-avatar', text: 'Back after a restart.', avatar: 'jack' } })
  const before = (await first.wallet.state(first.liveAccount)).balance
  const posted = (await (await first.app.request('/create/v1/assets', { method: 'POST', headers, body })).json()) as any
  assert.is(posted.data.attributes.status, 'queued')
  await first.db.run("UPDATE ai_jobs SET status = 'processing', provider = 'did-avatar' WHERE id = ?", [posted.data.id])
  assert.is((await first.wallet.state(first.liveAccount)).held, 20, 'the price is held while it is made')
  await first.close()

  const second = await createService(first.config, { aiProviders: providers() })
  try {
    await second.start()
    let asset: any
    for (const until = Date.now() + 60_000; Date.now() < until; await new Promise((r) => setTimeout(r, 100))) {
      asset = (await (await second.app.request(`/create/v1/assets/${posted.data.id}`, { headers })).json()) as any
      if (asset.data.attributes.status === 'done' || asset.data.attributes.status === 'failed') break
    }
    assert.is(asset.data.attributes.status, 'done', JSON.stringify(asset))
    const wallet = await second.wallet.state(first.liveAccount)
    assert.equal([wallet.balance, wallet.held], [before - 20, 0], 'charged once, nothing left held')
    assert.is(did.requests.filter((r) => r.method === 'POST').length, 1, 'D-ID was asked once')
  } finally {
    await second.close()
    await did.close()
  }
})

test.run()
