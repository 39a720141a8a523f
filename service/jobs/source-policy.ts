import { invalidTimeline, type Issue, type ValidEdit } from '../../core/index.js'
import { checkUrl, fileRefusal, isLocalSource, type FilePolicy, type NetworkPolicy } from '../../plugins/index.js'
import { publicBaseUrl, type ServiceConfig } from '../config.js'
import { clientPaths } from './render-task.js'
import { STORAGE_KEY } from '../storage/storage.js'

/** What a source in a timeline sent over the API may be. */
export interface SourcePolicy {
  /** This service's public URL: `<base>/v1/files/<key>` (and the bare `/v1/files/<key>`) are its own files. */
  baseUrl: string
  files: FilePolicy
  network: NetworkPolicy
}

const SCHEMES = "must be an http(s) URL, a URL of this service's files (/v1/files/…) or alias://name"

/**
 * Every source a validated edit names, with its path: each `src` / `inputSrc` string anywhere in the
 * timeline (asset plugins of any kind, the soundtrack, fonts) — found by key, so an asset kind added later is
 * covered too. Markup held in `src` (an `svg` asset) is not a source.
 */
export function sourcesOf(edit: ValidEdit): { path: string; src: string }[] {
  const found: { path: string; src: string }[] = []
  const walk = (value: unknown, path: string) => {
    if (Array.isArray(value)) return value.forEach((v, i) => walk(v, `${path}[${i}]`))
    if (!value || typeof value !== 'object') return
    for (const [key, v] of Object.entries(value)) {
      if ((key === 'src' || key === 'inputSrc') && typeof v === 'string' && !v.trimStart().startsWith('<')) found.push({ path: `${path}.${key}`, src: v })
      else walk(v, `${path}.${key}`)
    }
  }
  walk(edit.timeline, 'timeline')
  return found
}

/** The storage key of one of this service's own file URLs, else undefined. */
export function ownFileKey(src: string, baseUrl: string): string | undefined {
  const base = `${baseUrl.replace(/\/+$/, '')}/v1/files/`
  const key = src.startsWith(base) ? src.slice(base.length) : src.startsWith('/v1/files/') ? src.slice('/v1/files/'.length) : undefined
  return key !== undefined && STORAGE_KEY.test(key) ? key : undefined
}

/** What works where a local file does not (the refusal says it: a newcomer's edit names files on their disk). */
const LOCAL_INSTEAD =
  'give an http(s) URL, or upload the file (POST /v1/upload, or POST /ingest/v1/upload on the Shotstack API) and use its url; an operator can allow folders with REELFORGE_ALLOW_FILES'

/**
 * Checks every source of an edit submitted over the API: `http(s)` through the SSRF guard, this service's
 * own files, `alias://`, and local paths only inside the operator's allowed directories. Throws one
 * `E_TIMELINE_INVALID` listing each refused source by its path (merge values were applied before, so a
 * path arriving through `merge` is judged too). `rename` maps edit paths to the request's own (stitch); a
 * source `given` says is not there yet (a template's `{{ URL }}`) is left to the render that merges it.
 */
export async function checkSources(
  edit: ValidEdit,
  policy: SourcePolicy,
  rename: (path: string) => string = (p) => p,
  given: (path: string) => boolean = () => true,
): Promise<void> {
  const judged = new Map<string, Promise<string | undefined>>()
  const judge = (src: string): Promise<string | undefined> => {
    if (src.startsWith('alias://') || ownFileKey(src, policy.baseUrl)) return Promise.resolve(undefined)
    if (isLocalSource(src)) return fileRefusal(src, policy.files, '/').then((refused) => refused && `${refused}: ${LOCAL_INSTEAD}`)
    if (/^https?:\/\//i.test(src)) return checkUrl(src, policy.network)
    return Promise.resolve(SCHEMES)
  }
  const sources = sourcesOf(edit).filter(({ path }) => given(path))
  const verdicts = await Promise.all(sources.map(({ src }) => judged.get(src) ?? (judged.set(src, judge(src)), judged.get(src)!)))
  const issues: Issue[] = sources.flatMap(({ path }, i) => (verdicts[i] ? [{ path: rename(path), message: verdicts[i]! }] : []))
  if (issues.length) throw invalidTimeline(issues)
}

/** The service's source policy, from its config. */
export const sourcePolicy = (config: ServiceConfig): SourcePolicy => ({ baseUrl: publicBaseUrl(config), files: config.files, network: config.network })

/** A stitch's clips become the one track of its edit: name them as the request does (`clips[2].src`). */
export const stitchPath = (path: string) => clientPaths({ sandbox: false, kind: 'stitch' }, path)
