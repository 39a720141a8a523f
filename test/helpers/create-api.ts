import { writeFile } from 'node:fs/promises'
import { createServer } from 'node:http'
import { join } from 'node:path'
import { toNodeHandler } from 'h3'
// Shotstack's official Node SDK, unchanged: its CreateApi and the provider models its users build.
import Shotstack from 'shotstack-sdk'
import * as assert from 'uvu/assert'
import { probe } from '../../core/index.js'
import type { ProviderPlugin } from '../../core/index.js'
import { aiProvidersFromConfig } from '../../plugins/index.js'
import { tempDir } from './media.js'
import { freePort } from './serve-child.js'
import { testService } from './service.js'

/**
 * A service with Shotstack's surface listening on loopback (its files' URLs reachable by `fetch`), its AI vendors
 * those `env` configures, `images` its image vendors (none by default), and SDK `CreateApi` clients for its
 * sandbox and live keys.
 */
export async function createApiService(env: Record<string, string> = {}, images: ProviderPlugin[] = []) {
  const port = await freePort()
  const base = `http://127.0.0.1:${port}`
  const svc = await testService({
    start: true,
    config: { shotstack: true, baseUrl: base },
    overrides: { aiProviders: aiProvidersFromConfig(env), providers: images },
  })
  const server = createServer(toNodeHandler(svc.app))
  await new Promise<void>((r) => server.listen(port, '127.0.0.1', r))
  const createApi = (environment: 'stage' | 'v1', key: string) => {
    const client = new Shotstack.ApiClient(`${base}/create/${environment}`)
    client.authentications.DeveloperKey.apiKey = key
    return new Shotstack.CreateApi(client)
  }
  const close = async () => {
    server.closeAllConnections()
    await new Promise<void>((r) => server.close(() => r()))
    await svc.close()
  }
  return { svc, base, createApi, stage: createApi('stage', svc.sandbox), v1: createApi('v1', svc.live), close }
}

/** Posts an asset with the SDK, polls it until it is done or failed, and returns both answers. */
export async function generate(api: any, asset: unknown) {
  const posted = await api.postGenerateAsset(asset)
  const id = posted.data.id
  for (const until = Date.now() + 120_000; Date.now() < until; await new Promise((r) => setTimeout(r, 200))) {
    const got = await api.getGeneratedAsset(id)
    if (got.data.attributes.status === 'done' || got.data.attributes.status === 'failed') return { id, posted: posted.data, done: got.data.attributes }
  }
  throw new Error(`asset ${id} never finished`)
}

const downloads = tempDir('reelforge-create-')
/** The asset's file, downloaded from its url. */
export async function download(url: string, name: string) {
  const res = await fetch(url)
  assert.is(res.status, 200, url)
  const path = join(downloads, name)
  const bytes = Buffer.from(await res.arrayBuffer())
  await writeFile(path, bytes)
  return { path, bytes }
}

/** What ffprobe sees in a file: the picture's size, whether there is sound, the length. */
export async function media(path: string) {
  const info = await probe(path)
  const video = info.streams.find((s) => s.type === 'video')
  return { video: video && [video.width, video.height], audio: info.streams.some((s) => s.type === 'audio'), duration: info.duration ?? 0 }
}

/** The SDK's rejection: its HTTP status and the Create API's `{ errors: [{ status, title, detail }] }`. */
export async function refusal(p: Promise<unknown>) {
  const e: any = await p.then(
    () => assert.unreachable('should have been refused'),
    (x) => x,
  )
  return { status: e.status as number, body: e.response.body }
}
