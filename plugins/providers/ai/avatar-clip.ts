import { randomBytes } from 'node:crypto'
import { writeFile } from 'node:fs/promises'
import { join } from 'node:path'
import { probe, RenderError } from '../../../core/index.js'
import { type HttpOptions, providerRequest, upstreamError } from '../http.js'

// What the avatar vendors (D-ID, HeyGen) share: finding a stock presenter or voice by the name Shotstack's Create
// API uses, and keeping the vendor's finished clip — a video with the voice, as it was made.

/**
 * The vendor id for `name`: `configured[name]` when the operator mapped it, an id given as is, else the first
 * listed entry whose name is `name` or whose id starts with it (`jack` → D-ID's `jack-Pt27VkP3hW`, `Angela` →
 * HeyGen's `Angela-inTshirt-20220820`), case-insensitively. `list` is asked only when needed, once per provider.
 */
export async function resolveByName(
  vendor: string,
  what: 'avatar' | 'voice',
  name: string,
  o: { configured?: Record<string, string>; isId?: (s: string) => boolean; list: () => Promise<Array<{ id: string; name?: string }>> },
): Promise<string> {
  const mapped = o.configured?.[name] ?? o.configured?.[name.toLowerCase()]
  if (mapped) return mapped
  if (o.isId?.(name)) return name
  const want = name.toLowerCase()
  const all = await o.list()
  const found =
    all.find((x) => x.name?.toLowerCase() === want) ?? all.find((x) => x.id.toLowerCase().startsWith(want) && /^[-_@.]/.test(x.id.slice(want.length)))
  if (!found)
    throw new RenderError('E_PROVIDER_FAILED', `${vendor}: no ${what} named "${name}" on this account (${all.length} listed)`, { vendor, retryable: false })
  return found.id
}

/** Remembers one successful answer (a vendor's presenter or voice list) for the provider's life; a failure is asked again. */
export function once<T>(load: () => Promise<T>): () => Promise<T> {
  let pending: Promise<T> | undefined
  return () => {
    pending ??= load().catch((e) => {
      pending = undefined
      throw e
    })
    return pending
  }
}

/** Downloads the vendor's finished clip (a signed URL, fetched without the key) and checks it is a video with sound. */
export async function keepTalkingClip(
  vendor: string,
  url: string,
  o: HttpOptions & { workDir: string; signal: AbortSignal },
): Promise<{ path: string; duration: number }> {
  const file = await providerRequest(vendor, url, { method: 'GET', signal: o.signal }, o)
  if (file.status !== 200) throw upstreamError(vendor, file, 'cannot download the video')
  const path = join(o.workDir, `${vendor}-${randomBytes(6).toString('hex')}.mp4`)
  await writeFile(path, file.body)
  const info = await probe(path, { signal: o.signal }).catch(() => undefined)
  const video = info?.streams.find((s) => s.type === 'video')
  if (!info || !video) throw new RenderError('E_PROVIDER_FAILED', `${vendor}: the downloaded result is not a video`, { vendor })
  const duration = info.duration ?? video.duration
  if (!duration) throw new RenderError('E_PROVIDER_FAILED', `${vendor}: the downloaded video has no duration`, { vendor })
  return { path, duration }
}
