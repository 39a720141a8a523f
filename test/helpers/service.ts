import { join } from 'node:path'
import { createService, type Service, type ServiceOverrides } from '../../adapters/http/create-service.js'
import { defaultConfig, type ServiceConfig } from '../../service/config.js'
import { tempDir } from './media.js'
import { freshPostgres, TEST_STORE } from './postgres.js'

export interface TestService extends Service {
  /** A live key and a sandbox key, on two different accounts. */
  live: string
  sandbox: string
  /** The live key's account and its callback signing secret. */
  liveAccount: string
  signingSecret: string
  /** `app.request` with the key as Bearer and JSON handling. */
  call(
    method: string,
    path: string,
    opts?: { key?: string | null; body?: unknown; headers?: Record<string, string>; raw?: string },
  ): Promise<{ status: number; body: any; headers: Headers }>
  /** Polls a job until it reaches one of `statuses`. */
  waitFor(jobId: string, statuses: string[], key?: string, timeoutMs?: number): Promise<any>
}

/** Receivers and fake vendors listen on loopback, which the SSRF guard refuses unless allowed. */
export const LOOPBACK = { allow: ['127.0.0.0/8', '::1'] }

/**
 * A service on a temp data dir, with its queue not started unless `start` is set. Its store is SQLite, or
 * an empty PostgreSQL schema when the suite runs with `REELFORGE_TEST_STORE=postgres` (or `store` says so).
 */
export async function testService(
  opts: { start?: boolean; config?: Partial<ServiceConfig>; credits?: number; overrides?: ServiceOverrides; store?: 'sqlite' | 'postgres' } = {},
): Promise<TestService> {
  const dir = tempDir('reelforge-svc-')
  const databaseUrl = (opts.store ?? TEST_STORE) === 'postgres' ? await freshPostgres() : undefined
  const config = defaultConfig({
    dataDir: dir,
    baseUrl: 'http://reelforge.test',
    leaseMs: 2000,
    cacheDir: join(dir, 'cache'),
    network: LOOPBACK,
    databaseUrl,
    ...opts.config,
  })
  const service = await createService(config, opts.overrides)
  const liveKey = await service.keys.create()
  const live = liveKey.key
  const sandbox = (await service.keys.create({ sandbox: true })).key
  if (opts.credits !== 0) await service.wallet.deposit(liveKey.record.accountId, opts.credits ?? 1_000_000, 'test funds')
  if (opts.start) await service.start()
  const call: TestService['call'] = async (method, path, o = {}) => {
    const key = o.key === undefined ? live : o.key
    const headers: Record<string, string> = { ...(key ? { authorization: `Bearer ${key}` } : {}), ...o.headers }
    let body: string | undefined = o.raw
    if (o.body !== undefined) (body = JSON.stringify(o.body)), (headers['content-type'] ??= 'application/json')
    const res = await service.app.request(path, { method, headers, body })
    const text = await res.text()
    let parsed: unknown = text
    try {
      parsed = JSON.parse(text)
    } catch {
      // not JSON (files)
    }
    return { status: res.status, body: parsed, headers: res.headers }
  }
  const waitFor: TestService['waitFor'] = async (jobId, statuses, key = live, timeoutMs = 60_000) => {
    const until = Date.now() + timeoutMs
    for (;;) {
      const { body } = await call('GET', `/v1/render/${jobId}`, { key })
      if (statuses.includes(body.status)) return body
      if (Date.now() > until) throw new Error(`job ${jobId} still ${body.status} (${body.stage}) after ${timeoutMs} ms`)
      await new Promise((r) => setTimeout(r, 50))
    }
  }
  return { ...service, live, sandbox, liveAccount: liveKey.record.accountId, signingSecret: liveKey.signingSecret!, call, waitFor }
}

/** A small valid edit. */
export const titleEdit = (seconds = 1, output: object = {}) => ({
  timeline: { background: '#000000', tracks: [{ clips: [{ asset: { type: 'title', text: 'hello' }, start: 0, length: seconds }] }] },
  output: { format: 'mp4', size: { width: 160, height: 90 }, fps: 25, ...output },
})
