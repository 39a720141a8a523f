import { existsSync } from 'node:fs'
import { readFile } from 'node:fs/promises'
import { fileURLToPath } from 'node:url'
import type { H3, H3Event } from 'h3'
import { errorResponse } from '../http/errors.js'

const TYPES: Record<string, string> = {
  js: 'text/javascript; charset=utf-8',
  css: 'text/css; charset=utf-8',
  map: 'application/json',
  html: 'text/html; charset=utf-8',
}

/**
 * The page may only run its own bundled script and talk to this server; rendered media and generated images
 * may come from a public base URL or object storage elsewhere, hence http(s) for img and media.
 */
const CSP =
  "default-src 'self'; script-src 'self'; style-src 'self'; img-src 'self' data: blob: http: https:; media-src 'self' blob: http: https:; connect-src 'self'; frame-ancestors 'none'; base-uri 'none'; form-action 'self'"

/** `dist/dashboard`, built before packing or by the set-up script — from a source checkout (tsx) or the compiled package. */
export function dashboardDir(): string | undefined {
  for (const up of ['../../dist/dashboard', '../../dashboard']) {
    const dir = fileURLToPath(new URL(up, import.meta.url))
    if (existsSync(`${dir}/index.html`)) return dir
  }
  return undefined
}

/**
 * Serves the dashboard: `/dashboard` (the page; the app routes by `#/…`) and its bundled assets, and sends
 * `/` there (302: a person who opens the server's address lands on it). Not part of the /v1 API, so not in
 * the OpenAPI document; every API call the page makes carries the signed-in key.
 */
export function mountDashboard(app: H3, dir = dashboardDir()): void {
  const send = async (event: H3Event, name: string) => {
    if (!dir) return errorResponse(503, 'E_DASHBOARD_MISSING', 'the dashboard is not built: run `npm run build:dashboard`')
    if (!/^[\w-]+(\.[\w-]+)*$/.test(name)) return errorResponse(404, 'E_NOT_FOUND', `no dashboard file ${name}`)
    const body = await readFile(`${dir}/${name}`).catch(() => undefined)
    if (!body) return errorResponse(404, 'E_NOT_FOUND', `no dashboard file ${name}`)
    const type = TYPES[name.split('.').pop()!] ?? 'application/octet-stream'
    const headers: Record<string, string> = { 'content-type': type, 'cache-control': 'no-cache', 'x-content-type-options': 'nosniff' }
    if (name === 'index.html') Object.assign(headers, { 'content-security-policy': CSP, 'referrer-policy': 'no-referrer', 'x-frame-options': 'DENY' })
    return new Response(event.req.method === 'HEAD' ? null : body, { headers })
  }
  app.get('/', () => new Response(null, { status: 302, headers: { location: '/dashboard' } }))
  app.get('/dashboard', (e) => send(e, 'index.html'))
  app.get('/dashboard/', (e) => send(e, 'index.html'))
  app.get('/dashboard/assets/:name', (e) => send(e, e.context.params?.name ?? ''))
}
