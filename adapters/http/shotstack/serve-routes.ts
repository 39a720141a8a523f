import type { ServedAsset } from '../../../service/assets/served.js'
import { ServiceError } from '../../../service/errors.js'
import { failure, json } from './envelope.js'
import { deleteById, param } from './params.js'
import type { ShotstackDeps, ShotstackRoute } from './mount.js'
import { transferAsset, transferAssetData, transferRoutes } from './transfer-routes.js'

/** `AssetResponseData` of Shotstack's Serve API. */
const assetData = (a: ServedAsset) => ({
  type: 'asset',
  attributes: {
    id: a.id,
    owner: a.accountId,
    region: 'local',
    renderId: a.renderId,
    providerId: a.id,
    filename: a.filename,
    url: a.status === 'ready' ? a.url : undefined,
    status: a.status,
    created: a.createdAt,
    updated: a.updatedAt,
  },
})

/**
 * Shotstack's Serve API over finished renders' files (service/assets/served.ts) and the assets transfers made
 * (transfer-routes.ts): an id or render id finds either; a transfer's id lists its assets, beside the render's
 * own when the client named a transfer after the render.
 */
export function serveRoutes(d: ShotstackDeps): ShotstackRoute[] {
  return [
    {
      method: 'get',
      api: 'serve',
      path: '/assets/:id',
      handler: async (event, caller) => {
        const transferred = await transferAsset(d, caller, param(event))
        return json(200, { data: transferred ? transferAssetData(transferred) : assetData(await d.served.get(caller, param(event))) })
      },
    },
    {
      method: 'get',
      api: 'serve',
      path: '/assets/render/:id',
      handler: async (event, caller) => {
        const transferred = (await d.transfers.store.ofTransfer(caller, param(event))).map(transferAssetData)
        const rendered = await d.served.ofRender(caller, param(event)).catch((e) => {
          if (transferred.length && e instanceof ServiceError && e.code === 'E_NOT_FOUND') return []
          throw e
        })
        return json(200, { data: [...rendered.map(assetData), ...transferred] })
      },
    },
    {
      method: 'delete',
      api: 'serve',
      path: '/assets/:id',
      handler: deleteById(async (caller, id) => {
        const transferred = await transferAsset(d, caller, id)
        return transferred ? d.transfers.remove(transferred) : d.served.remove(caller, id)
      }),
    },
    ...transferRoutes(d),
  ]
}

export function unsupported(method: ShotstackRoute['method'], api: ShotstackRoute['api'], path: string, what: string): ShotstackRoute {
  return { method, api, path, handler: async () => failure(501, `${what} is not supported by this server yet`) }
}
