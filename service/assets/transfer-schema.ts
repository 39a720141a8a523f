import * as v from 'valibot'
import { show } from '../../core/index.js'
import { publicBaseUrl, type ServiceConfig } from '../config.js'
import { checkDestinations, parseDestination } from '../destinations/schema.js'
import type { IntegrationStore } from '../destinations/integrations.js'
import { ServiceError } from '../errors.js'
import { STORAGE_KEY, type Storage } from '../storage/storage.js'
import { checkTargetUrl, parseBody } from '../lib/validate.js'

const noControl = v.check((s: string) => !/[\u0000-\u001f]/.test(s), 'must not contain control characters')

/** Shotstack's `Transfer`: the file's URL, the client's id for it (not necessarily unique), where to send it. */
export const TransferSchema = v.looseObject({
  url: v.pipe(
    v.string(),
    v.url((i) => `must be an absolute URL, got ${show(i.input)}`),
    v.regex(/^https?:\/\//i, 'must be an http(s) URL'),
    v.maxLength(2048),
  ),
  id: v.pipe(v.string(), v.minLength(1, 'must not be empty'), v.maxLength(255), noControl),
  destinations: v.pipe(
    v.array(v.looseObject({ provider: v.string() }), 'must be an array of destinations'),
    v.minLength(1, 'must name at least one destination'),
    v.maxLength(20, 'must name at most 20 destinations'),
  ),
})

/** A checked transfer: each destination with why it cannot be sent, when reelforge cannot send to it. */
export interface TransferRequest {
  id: string
  url: string
  destinations: { destination: { provider: string; [k: string]: unknown }; error?: string }[]
}

/** The storage key behind one of this service's own file URLs (`<base>/v1/files/<key>`); undefined for any other URL. */
export function ownFileKey(config: ServiceConfig, url: string): string | undefined {
  const prefix = `${publicBaseUrl(config)}/v1/files/`
  if (!url.startsWith(prefix)) return undefined
  const key = url.slice(prefix.length).split(/[?#]/)[0]!
  return STORAGE_KEY.test(key) ? key : undefined
}

/**
 * A `POST /serve/{env}/assets` body, checked as renders' destinations are (400 naming `url`, `id` or
 * `destinations[i]`, an s3 one needing the account's credentials). A URL of this service's own files is read from
 * storage and must still be there; any other passes the SSRF guard now, and its download again on every hop.
 */
export async function parseTransfer(
  d: { config: ServiceConfig; storage: Pick<Storage, 'open'>; integrations: Pick<IntegrationStore, 'hasS3'> },
  accountId: string,
  body: unknown,
): Promise<TransferRequest> {
  const input = parseBody(TransferSchema, body)
  const own = ownFileKey(d.config, input.url)
  if (own === undefined) await checkTargetUrl('url', input.url, d.config.network)
  else if (!(await d.storage.open(own))) {
    const message = 'no file at this URL on this service (deleted, or never there)'
    throw new ServiceError('E_VALIDATION', `url: ${message}`, { issues: [{ path: 'url', message }] })
  }
  await checkDestinations(input.destinations, { network: d.config.network, hasS3: () => d.integrations.hasS3(accountId), at: 'destinations' })
  const destinations = input.destinations.map((raw, i) => {
    const parsed = parseDestination(raw, i, [], 'destinations')
    return { destination: raw, error: 'unsupported' in parsed ? `reelforge cannot send to "${parsed.provider}"` : undefined }
  })
  return { id: input.id, url: input.url, destinations }
}
