import type { ServedAsset } from '../../../service/assets/served.js'
import { failure, json } from './envelope.js'
import { deleteById, param } from './params.js'
import type { ShotstackDeps, ShotstackRoute } from './mount.js'

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

/** Shotstack's Serve API over finished renders' files (service/assets/served.ts). */
export function serveRoutes(d: ShotstackDeps): ShotstackRoute[] {
  return [
    {
      method: 'get',
      api: 'serve',
      path: '/assets/:id',
      handler: async (event, caller) => json(200, { data: assetData(await d.served.get(caller, param(event))) }),
    },
    {
      method: 'get',
      api: 'serve',
      path: '/assets/render/:id',
      handler: async (event, caller) => json(200, { data: (await d.served.ofRender(caller, param(event))).map(assetData) }),
    },
    {
      method: 'delete',
      api: 'serve',
      path: '/assets/:id',
      handler: deleteById((caller, id) => d.served.remove(caller, id)),
    },
    unsupported('post', 'serve', '/assets', 'transfers to other destinations'),
  ]
}

export function unsupported(method: ShotstackRoute['method'], api: ShotstackRoute['api'], path: string, what: string): ShotstackRoute {
  return { method, api, path, handler: async () => failure(501, `${what} is not supported by this server yet`) }
}
