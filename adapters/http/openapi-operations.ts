import type { RouteSpec } from './route.js'

/**
 * `operationId`s: client generators name their methods after them, so they are derived from method and path
 * (a new route gets one without thinking about it) and stay as they are once published. A spec whose path
 * reads badly as an operation names its own (`operationId`); so do these, whose specs (the render routes
 * and the document's own route, in app.ts) leave it to the table.
 */
const NAMED: Record<string, string> = {
  'delete /v1/render/:id': 'cancelRender',
  'post /v1/render/validate': 'validateRender',
  'post /v1/render/frame': 'renderFrame',
  'get /v1/openapi.json': 'getOpenApiDocument',
}

const pascal = (word: string) => word.charAt(0).toUpperCase() + word.slice(1)
const singular = (word: string) => word.replace(/ies$/, 'y').replace(/([^s])s$/, '$1')
const plural = (word: string) => (word.endsWith('s') ? word : word.endsWith('y') ? `${word.slice(0, -1)}ies` : `${word}s`)

/**
 * The camelCase id of an operation: a verb from the method, then the resource. `GET /v1/sources` is
 * `listSources`, `GET|PUT|DELETE /v1/sources/:id` are `get|update|deleteSource`, `POST /v1/sources` is
 * `createSource`, `PUT /v1/wallet/threshold` (no id: one per account) `setWalletThreshold`, and an action
 * after an id, `POST /v1/templates/:id/render`, is `renderTemplate`.
 */
export function operationId(r: RouteSpec): string {
  if (r.operationId) return r.operationId
  const fixed = NAMED[`${r.method} ${r.path}`]
  if (fixed) return fixed
  const parts = r.path
    .replace(/^\/v1\//, '/')
    .split('/')
    .filter(Boolean)
  const lastParam = parts.findLastIndex((p) => p.startsWith(':'))
  const action = lastParam >= 0 && lastParam < parts.length - 1 ? parts.pop() : undefined
  const words = parts.filter((p) => !p.startsWith(':')).flatMap((p) => p.split(/[^A-Za-z0-9]+/).filter(Boolean))
  const item = lastParam >= 0
  const noun = (last: (word: string) => string) => words.map((w, i) => pascal(i === words.length - 1 ? last(w) : singular(w))).join('')
  if (action) return r.method === 'post' ? `${action}${noun(singular)}` : `${r.method}${noun(singular)}${pascal(action)}`
  switch (r.method) {
    case 'get':
      return item ? `get${noun(singular)}` : `list${noun(plural)}`
    case 'post':
      return `create${noun(singular)}`
    case 'put':
      return `${item ? 'update' : 'set'}${noun(singular)}`
    default:
      return `${r.method}${noun(singular)}`
  }
}

/** Every operation's id, refusing two alike: a duplicate would make generated clients drop one method. */
export function operationIds(routes: readonly RouteSpec[]): Map<RouteSpec, string> {
  const ids = new Map<RouteSpec, string>()
  const seen = new Map<string, RouteSpec>()
  for (const r of routes) {
    const id = operationId(r)
    const other = seen.get(id)
    if (other) throw new Error(`OpenAPI: ${r.method} ${r.path} and ${other.method} ${other.path} are both operation ${id}`)
    seen.set(id, r)
    ids.set(r, id)
  }
  return ids
}
