import type { Principal } from '../../../service/accounts/keys.js'
import type { TransferAsset } from '../../../service/assets/transfer-store.js'
import { readJson } from '../body.js'
import { json } from './envelope.js'
import type { ShotstackDeps, ShotstackRoute } from './mount.js'

/**
 * `AssetResponseData` of an asset a transfer made, one per destination: `renderId` is the transfer's `id`,
 * `providerId` the object key in the user's bucket (this asset's id for reelforge's own hosting, as Shotstack's),
 * and — beside Shotstack's fields — `provider` and, when its copy failed, `error`.
 */
export const transferAssetData = (a: TransferAsset) => ({
  type: 'asset',
  attributes: {
    id: a.id,
    owner: a.accountId,
    region: 'local',
    renderId: a.transferId,
    provider: a.provider,
    ...(a.providerId ? { providerId: a.providerId } : {}),
    ...(a.filename ? { filename: a.filename } : {}),
    ...(a.status === 'ready' && a.url ? { url: a.url } : {}),
    status: a.status,
    ...(a.error ? { error: a.error } : {}),
    created: a.createdAt,
    updated: a.updatedAt,
  },
})

/** The caller's transfer asset with this id, if it is one (else it may be a render's served asset). */
export const transferAsset = (d: ShotstackDeps, caller: Principal, id: string) => d.transfers.store.find(caller, id)

/**
 * Shotstack's Transfer Asset (`POST /serve/{env}/assets`): `{ url, id, destinations }` answered at once with
 * `TransferResponse` — `queued` while any destination has a copy to make, `failed` when none can be sent to.
 * Each destination's outcome is its asset's: `GET /serve/{env}/assets/render/{id}` lists them.
 */
export function transferRoutes(d: ShotstackDeps): ShotstackRoute[] {
  return [
    {
      method: 'post',
      api: 'serve',
      path: '/assets',
      handler: async (event, caller) => {
        const assets = await d.transfers.submit(caller, await readJson(event, d.config.limits.bodyBytes))
        const first = assets[0]!
        const status = assets.some((a) => a.status === 'importing') ? 'queued' : 'failed'
        return json(200, { data: { type: 'asset', attributes: { id: first.transferId, owner: caller.accountId, status, created: first.createdAt } } })
      },
    },
  ]
}
