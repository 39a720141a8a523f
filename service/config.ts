import { join, resolve } from 'node:path'
import type { FilePolicy, NetworkPolicy } from '../plugins/index.js'
import { DEFAULT_RATE_LIMITS, type RateLimits } from './accounts/rate-limit.js'

/** Request limits; each breach is a clear 4xx naming the limit. */
export interface Limits {
  /** Request body bytes (413 beyond). */
  bodyBytes: number
  tracks: number
  clips: number
  /** Seconds of timeline for sandbox and live keys (Shotstack's sandbox allows 10 minutes). */
  durationSandbox: number
  durationLive: number
  /** Output pixels per frame (4K). */
  pixels: number
  /** Characters of markup (`html` + `css`, or `svg` `src`) per asset: layout cost grows with it. */
  markupChars: number
  /** Characters of text per text-like asset (`text` of title, text, rich-text, captions, speech; an html asset's text content). */
  textChars: number
  /** Clips on one track. */
  clipsPerTrack: number
  /** Entries in an edit's `merge` list. */
  mergeFields: number
  /** Characters of the edit once its merge fields are filled in (a short value repeated in many places grows it). */
  mergedChars: number
  /**
   * A render's time budget: max(`renderMinSeconds`, `renderSecondsPerSecond` × its output seconds × its pixels
   * over 1080p's, at least 1), counted from the moment it starts; past it the job fails `E_TIME_LIMIT`. Env
   * `REELFORGE_RENDER_TIME_MIN_S`, `REELFORGE_RENDER_TIME_FACTOR`.
   */
  renderMinSeconds: number
  renderSecondsPerSecond: number
  /** One frame of `POST /v1/render/frame` (a preview): past it the request fails `E_TIME_LIMIT`. */
  frameSeconds: number
  /** Megabytes one render process (with its ffmpegs) may hold; past it the render fails `E_MEMORY_LIMIT`. Env `REELFORGE_RENDER_MEMORY_MB`. */
  renderMemoryMb: number
  /**
   * Preview sessions (`/v1/previews`) open at once on this server, and per API key; each holds a render process.
   * Env `REELFORGE_PREVIEWS`, `REELFORGE_PREVIEWS_PER_KEY`.
   */
  previews: number
  previewsPerKey: number
  /** Seconds without a request after which a preview session ends. Env `REELFORGE_PREVIEW_IDLE_S`. */
  previewIdleSeconds: number
}

export interface ServiceConfig {
  dataDir: string
  port: number
  host: string
  /** Public base URL for file links (behind a proxy); default `http://host:port`. */
  baseUrl?: string
  /** Renders at a time in this process (0 = accept jobs but render none here). */
  concurrency: number
  /**
   * Which way `offset.y` counts in edits sent to `/v1`: `down` (the seed's, default) or `up` (Shotstack's).
   * Env `REELFORGE_Y_AXIS`, `serve --y-axis`. Shotstack's own surface always counts up.
   */
  yAxis: 'down' | 'up'
  /** Serves Shotstack's wire protocol beside /v1 (`/edit`, `/serve`, `/ingest`). Env `REELFORGE_SHOTSTACK=1`, `serve --shotstack`. */
  shotstack: boolean
  /**
   * Renders of one account at a time, over every server sharing the database (embedded queue; 0 = no cap):
   * its other jobs wait while other accounts' run. Env `REELFORGE_ACCOUNT_CONCURRENCY`.
   */
  accountConcurrency: number
  /** A worker's lease on a job; renewed every third of it. */
  leaseMs: number
  /** A job interrupted this many times (crashes) is failed instead of retried. */
  maxAttempts: number
  limits: Limits
  /** Renderer cache directory (downloads). */
  cacheDir: string
  /** AI requests per minute (images, AI jobs, frame previews), per key and model: DEFAULT_RATE_LIMITS plus these. */
  rateLimits: RateLimits
  /**
   * SSRF guard for asset, font, callback and webhook URLs: private, loopback, link-local and metadata
   * addresses are refused unless allowed here (CIDRs; env `REELFORGE_ALLOW_NETWORKS=127.0.0.0/8,::1`).
   */
  network: NetworkPolicy
  /**
   * Local files a timeline may name: none by default (a source over the API is an http(s) URL, this service's
   * own file URL or `alias://`). Directories listed here (env `REELFORGE_ALLOW_FILES=/srv/media,/srv/fonts`)
   * are readable; paths are judged after realpath, so `..` and symlinks cannot leave them.
   */
  files: FilePolicy
  /**
   * Modules of plugins beyond the built-in ones (assets, transitions, effects, outputs…), each default-exporting a
   * plugin or a list of them; the server and every render process import them. Env `REELFORGE_PLUGINS` (paths,
   * comma-separated).
   */
  pluginModules: string[]
  /**
   * Render in separate processes (default), so a crash while rendering — the X server dying, a GL driver
   * fault — fails that job and not the service. `false` renders in this process (tests, debugging).
   */
  isolateRenders: boolean
  /**
   * Redis URL of a BullMQ queue (`redis://host:6379`): jobs are enqueued there for `reelforge worker`
   * processes instead of rendering in this process. Unset: the embedded in-process queue.
   */
  redisUrl?: string
  /**
   * With `redisUrl`: split each mp4 render into this many time segments, rendered at once by several workers
   * and joined without re-encoding (env `REELFORGE_SEGMENTS`). Default 1: whole renders.
   */
  segments?: number
  /**
   * PostgreSQL connection URL (`postgres://user:pass@host/db`) for jobs, keys, the wallet ledger, the webhook
   * outbox and images; env `REELFORGE_DATABASE_URL`. Unset: the embedded SQLite file `<dataDir>/reelforge.db`.
   */
  databaseUrl?: string
  /** Hosted sources (`/v1/sources`): what an account may keep and how many imports run at once in this process. */
  sources: SourceLimits
  /** Object storage for rendered files and generated images (default: `<dataDir>/files`); env `REELFORGE_S3_*`. */
  s3?: S3Config
  /**
   * A long random server secret: integration credentials (`PUT /v1/integrations/s3`) are encrypted at rest with
   * a key derived from it; env `REELFORGE_SECRET_KEY`. Unset: they are stored as given (never returned).
   */
  secretKey?: string
}

export interface SourceLimits {
  /** Bytes of hosted sources per account (env `REELFORGE_SOURCE_QUOTA_BYTES`; default 10 GiB). */
  quotaBytes: number
  /** The largest single file (env `REELFORGE_SOURCE_MAX_BYTES`; default 1 GiB, as render downloads). */
  maxFileBytes: number
  /** How long an upload URL stays usable (default 3600). */
  uploadTtlSeconds?: number
  /** With S3 storage: how often this process looks in the bucket for uploads sent to their presigned URL (default 2000). */
  uploadPollMs?: number
  /** …and for how long past a presigned URL's expiry, for a PUT begun in time (default 600000). */
  uploadGraceMs?: number
  /** Imports at a time in this process. */
  imports: number
}

/** S3-compatible object storage (AWS S3, MinIO, R2, …); credentials from the AWS SDK's usual chain unless given. */
export interface S3Config {
  bucket: string
  region?: string
  /** For S3-compatible services; path-style addressing is used with it. */
  endpoint?: string
  /** Key prefix inside the bucket, e.g. `reelforge/`. */
  prefix?: string
  accessKeyId?: string
  secretAccessKey?: string
}

/** S3 config from the environment: `REELFORGE_S3_BUCKET` (required), `_REGION`, `_ENDPOINT`, `_PREFIX`. */
export function s3ConfigFromEnv(env = process.env): S3Config | undefined {
  if (!env.REELFORGE_S3_BUCKET) return undefined
  // An empty variable is an unset one (`REELFORGE_S3_REGION=` in an env file), not a region named "".
  return {
    bucket: env.REELFORGE_S3_BUCKET,
    region: env.REELFORGE_S3_REGION || undefined,
    endpoint: env.REELFORGE_S3_ENDPOINT || undefined,
    prefix: env.REELFORGE_S3_PREFIX || undefined,
  }
}

export const DEFAULT_LIMITS: Limits = {
  bodyBytes: 5 * 1024 * 1024,
  tracks: 100,
  clips: 2000,
  durationSandbox: 600,
  durationLive: 3600,
  pixels: 3840 * 2160,
  markupChars: 256 * 1024,
  textChars: 10_000,
  clipsPerTrack: 1000,
  mergeFields: 500,
  mergedChars: 5 * 1024 * 1024,
  renderMinSeconds: 300,
  renderSecondsPerSecond: 30,
  frameSeconds: 20,
  renderMemoryMb: 4096,
  previews: 8,
  previewsPerKey: 2,
  previewIdleSeconds: 60,
}

/** The limits the environment sets (the render time and memory limits, the preview session limits), over the defaults. */
function limitsFromEnv(env = process.env): Partial<Limits> {
  const set = (name: string) => (env[name] ? wholeNumber(name, env[name]) : undefined)
  const picked = {
    renderMinSeconds: set('REELFORGE_RENDER_TIME_MIN_S'),
    renderSecondsPerSecond: set('REELFORGE_RENDER_TIME_FACTOR'),
    renderMemoryMb: set('REELFORGE_RENDER_MEMORY_MB'),
    previews: set('REELFORGE_PREVIEWS'),
    previewsPerKey: set('REELFORGE_PREVIEWS_PER_KEY'),
    previewIdleSeconds: set('REELFORGE_PREVIEW_IDLE_S'),
  }
  return Object.fromEntries(Object.entries(picked).filter(([, v]) => v !== undefined))
}

/** Embedded defaults: everything under `./data`, one render at a time. */
export function defaultConfig(overrides: Partial<ServiceConfig> = {}): ServiceConfig {
  const dataDir = resolve(overrides.dataDir ?? 'data')
  return {
    port: 3000,
    host: '127.0.0.1',
    concurrency: 1,
    accountConcurrency: wholeNumber('REELFORGE_ACCOUNT_CONCURRENCY', process.env.REELFORGE_ACCOUNT_CONCURRENCY),
    leaseMs: 15_000,
    maxAttempts: 3,
    cacheDir: join(dataDir, 'cache'),
    yAxis: yAxisFrom('REELFORGE_Y_AXIS', process.env.REELFORGE_Y_AXIS),
    shotstack: process.env.REELFORGE_SHOTSTACK === '1' || process.env.REELFORGE_SHOTSTACK === 'true',
    ...overrides,
    rateLimits: { ...DEFAULT_RATE_LIMITS, ...overrides.rateLimits },
    isolateRenders: overrides.isolateRenders ?? process.env.REELFORGE_ISOLATE_RENDERS !== '0',
    pluginModules: overrides.pluginModules ?? list(process.env.REELFORGE_PLUGINS).map((m) => (m.startsWith('.') || m.startsWith('/') ? resolve(m) : m)),
    network: overrides.network ?? { allow: list(process.env.REELFORGE_ALLOW_NETWORKS) },
    files: overrides.files ?? { allow: list(process.env.REELFORGE_ALLOW_FILES).map((dir) => resolve(dir)) },
    s3: 's3' in overrides ? overrides.s3 : s3ConfigFromEnv(),
    secretKey: 'secretKey' in overrides ? overrides.secretKey : process.env.REELFORGE_SECRET_KEY || undefined,
    databaseUrl: 'databaseUrl' in overrides ? overrides.databaseUrl : process.env.REELFORGE_DATABASE_URL || undefined,
    dataDir,
    limits: { ...DEFAULT_LIMITS, ...limitsFromEnv(), ...overrides.limits },
    sources: {
      quotaBytes: wholeNumber('REELFORGE_SOURCE_QUOTA_BYTES', process.env.REELFORGE_SOURCE_QUOTA_BYTES) || 10 * 1024 ** 3,
      maxFileBytes: wholeNumber('REELFORGE_SOURCE_MAX_BYTES', process.env.REELFORGE_SOURCE_MAX_BYTES) || 1024 ** 3,
      imports: 2,
      ...overrides.sources,
    },
  }
}

/** `down` or `up` (unset: `down`); anything else stops the start with where it came from. */
export function yAxisFrom(name: string, value: string | undefined): 'down' | 'up' {
  if (value === undefined || value === '' || value === 'down') return 'down'
  if (value === 'up') return 'up'
  throw new Error(`${name} must be down or up (got ${JSON.stringify(value)})`)
}

/** A whole-number environment variable (unset: 0); anything else stops the start with its name. */
function wholeNumber(name: string, value: string | undefined): number {
  if (value === undefined || value.trim() === '') return 0
  const n = Number(value)
  if (!Number.isInteger(n) || n < 0) throw new Error(`${name} must be a whole number, 0 or more (got ${JSON.stringify(value)})`)
  return n
}

/** A comma-separated environment variable as a list. */
const list = (value: string | undefined) =>
  (value ?? '')
    .split(',')
    .map((s) => s.trim())
    .filter(Boolean)

export const dbPath = (config: ServiceConfig) => join(config.dataDir, 'reelforge.db')
/** What `openDatabase` opens: the PostgreSQL URL when one is configured, else the SQLite file. */
export const dbTarget = (config: ServiceConfig) => config.databaseUrl ?? dbPath(config)
export const filesDir = (config: ServiceConfig) => join(config.dataDir, 'files')
export const workDir = (config: ServiceConfig) => join(config.dataDir, 'work')

/** Where clients reach this service: `baseUrl`, else `http://host:port` (read late: port 0 is known only after listen). */
export const publicBaseUrl = (config: ServiceConfig) => (config.baseUrl ?? `http://${config.host}:${config.port}`).replace(/\/+$/, '')

/** The public URL of a stored file: `<base>/v1/files/<key>`. */
export const fileUrl = (config: ServiceConfig, key: string) => `${publicBaseUrl(config)}/v1/files/${key}`
