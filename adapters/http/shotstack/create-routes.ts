import type { GeneratedAsset } from '../../../service/create/assets.js'
import { readJson } from '../body.js'
import { json } from './envelope.js'
import type { ShotstackDeps, ShotstackRoute } from './mount.js'
import { param } from './params.js'

/** `GeneratedAssetResponseData`: json:api, the asset's `url` once it is done, and why it failed when it did. */
const assetData = (a: GeneratedAsset) => ({
  type: 'asset',
  id: a.id,
  attributes: {
    owner: a.owner,
    provider: a.provider,
    type: a.type,
    ...(a.url ? { url: a.url } : {}),
    status: a.status,
    ...(a.status === 'failed' && a.error ? { error: a.error } : {}),
    created: a.created,
    updated: a.updated,
  },
})

/**
 * Shotstack's Create API over generated assets (service/create/): generate one with a provider's service, read it
 * back until it is `done`. Errors are `{ errors: [...] }` (`GeneratedAssetErrorResponse`), as the Ingest API's.
 */
export function createRoutes(d: ShotstackDeps): ShotstackRoute[] {
  return [
    {
      method: 'post',
      api: 'create',
      path: '/assets',
      handler: async (event, caller) => {
        const asset = await d.generatedAssets.submit(caller, await readJson(event, d.config.limits.bodyBytes))
        return json(201, { data: assetData(asset) })
      },
    },
    {
      method: 'get',
      api: 'create',
      path: '/assets/:id',
      handler: async (event, caller) => json(200, { data: assetData(await d.generatedAssets.get(caller, param(event))) }),
    },
  ]
}
