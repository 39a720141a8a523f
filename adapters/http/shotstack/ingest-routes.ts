import type { Principal } from '../../../service/accounts/keys.js'
import { ServiceError } from '../../../service/errors.js'
import { ingestSource } from '../../../service/sources/ingest.js'
import type { Source } from '../../../service/sources/store.js'
import { createUpload } from '../../../service/sources/upload.js'
import { readJson } from '../body.js'
import { json } from './envelope.js'
import type { ShotstackDeps, ShotstackRoute } from './mount.js'
import { deleteById, param } from './params.js'

/** `SourceResponseData`: json:api, camel-less names as Shotstack writes them (`input`, `source`, `created`). */
const sourceData = (s: Source) => ({
  type: 'source',
  id: s.id,
  attributes: {
    id: s.id,
    owner: s.accountId,
    ...(s.input_url ? { input: s.input_url } : {}),
    ...(s.url ? { source: s.url } : {}),
    status: s.status,
    ...(s.width !== null ? { width: s.width, height: s.height } : {}),
    ...(s.duration !== null ? { duration: s.duration } : {}),
    ...(s.fps !== null ? { fps: s.fps } : {}),
    ...(s.error ? { error: s.error } : {}),
    ...(s.renditions.length ? { outputs: { renditions: s.renditions.map(renditionData) } } : {}),
    created: s.created_at,
    updated: s.updated_at,
  },
})

/** `RenditionResponseAttributes`: only what is known (a queued rendition has no size yet). */
const renditionData = (r: Source['renditions'][number]) => ({
  id: r.id,
  status: r.status,
  ...(r.url ? { url: r.url } : {}),
  transformation: r.transformation,
  ...(r.width !== null ? { width: r.width, height: r.height } : {}),
  ...(r.duration !== null ? { duration: r.duration } : {}),
  ...(r.fps !== null ? { fps: r.fps } : {}),
  ...(r.error ? { error: r.error } : {}),
})

/**
 * Shotstack's Ingest API over hosted sources (service/sources/): fetch a source, read, list, delete, and
 * direct upload (the signed URL is this service's one-time PUT URL, or a presigned bucket URL on S3 storage).
 * Errors are `{ errors: [...] }`.
 */
export function ingestRoutes(d: ShotstackDeps): ShotstackRoute[] {
  const body = async (event: Parameters<ShotstackRoute['handler']>[0]) => (await readJson(event, d.config.limits.bodyBytes, { optional: true })) ?? {}
  return [
    {
      method: 'post',
      api: 'ingest',
      path: '/sources',
      handler: async (event, caller) => {
        const source = await ingestSource(d, caller, toV1(await body(event))).catch((e) => {
          throw asShotstackPaths(e)
        })
        return json(201, { data: { type: 'source', id: source.id } })
      },
    },
    {
      method: 'get',
      api: 'ingest',
      path: '/sources',
      handler: async (_e, caller) => json(200, { data: (await allSources(d, caller)).map(sourceData) }),
    },
    {
      method: 'get',
      api: 'ingest',
      path: '/sources/:id',
      handler: async (event, caller) => json(200, { data: sourceData(await d.sources.get(caller, param(event))) }),
    },
    { method: 'delete', api: 'ingest', path: '/sources/:id', handler: deleteById((caller, id) => d.sources.remove(caller, id)) },
    {
      method: 'post',
      api: 'ingest',
      path: '/upload',
      handler: async (event, caller) => {
        const { source, url, expiresAt } = await createUpload(d, caller, await body(event))
        return json(200, { data: { type: 'upload', id: source.id, attributes: { id: source.id, url, expires: expiresAt } } })
      },
    },
  ]
}

/** Every source of the caller, newest first: Shotstack's list has no paging, so this walks the store's pages. */
async function allSources(d: ShotstackDeps, caller: Principal): Promise<Source[]> {
  const all: Source[] = []
  for (let page: Source[] = []; ; ) {
    const last = page.at(-1)
    page = await d.sources.list(caller, { limit: 200, before: last?.created_at, beforeId: last?.id })
    all.push(...page)
    if (page.length < 200) return all
  }
}

/** Shotstack's source request as /v1's: `outputs.renditions` → `renditions`; destinations other than its own are not offered. */
function toV1(input: unknown): unknown {
  if (!input || typeof input !== 'object' || Array.isArray(input)) return input
  const { outputs, destinations, ...rest } = input as { outputs?: { renditions?: unknown }; destinations?: Array<{ provider?: string }> }
  const foreign = Array.isArray(destinations) ? destinations.findIndex((x) => x?.provider !== 'shotstack') : -1
  if (foreign >= 0)
    throw new ServiceError('E_VALIDATION', `destinations[${foreign}]: only the "shotstack" provider (this service's hosting) is supported for sources`, {
      issues: [{ path: `destinations[${foreign}]`, message: 'only the "shotstack" provider is supported for sources' }],
    })
  return outputs?.renditions !== undefined ? { ...rest, renditions: outputs.renditions } : rest
}

/** A /v1 validation error about `renditions…` names the field as the request wrote it: `outputs.renditions…`. */
function asShotstackPaths(e: unknown): unknown {
  if (!(e instanceof ServiceError) || !e.data?.issues) return e
  const rename = (text: string) => text.replace(/(^|[\s;(])renditions(?=[[.:\s]|$)/g, '$1outputs.renditions')
  const issues = e.data.issues.map((i) => ({ ...i, path: rename(i.path) }))
  return new ServiceError(e.code, rename(e.message), { ...e.data, issues })
}
