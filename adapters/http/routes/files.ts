import { Readable } from 'node:stream'
import type { H3Event } from 'h3'
import { ServiceError } from '../../../service/errors.js'
import { contentType, type Storage } from '../../../service/storage/storage.js'
import { defineRoutes } from '../route.js'
import { ErrorBodySchema } from '../schemas.js'

/**
 * Finished files with their content type and byte ranges (`206`), so a browser `<video>` can seek. No key
 * needed — like a signed storage URL the job id is unguessable (UUIDv4), and `<video src>` sends no headers.
 */
export function fileRoutes(storage: Storage) {
  const serve = async (event: H3Event, head: boolean) => {
    const { job = '', name = '' } = event.context.params ?? {}
    const file = await storage.open(`${job}/${name}`)
    if (!file) throw new ServiceError('E_NOT_FOUND', `no file ${job}/${name}`)
    const type = contentType(name)
    const headers: Record<string, string> = {
      'content-type': type,
      'accept-ranges': 'bytes',
      'cache-control': 'public, max-age=86400',
      'last-modified': file.mtime.toUTCString(),
      etag: `"${file.size.toString(16)}-${file.mtime.getTime().toString(16)}"`,
      // Users' own files (hosted sources: an SVG could hold script) share the dashboard's origin: opened as a page,
      // nothing in them runs or is guessed into another type. Media loaded by <video>/<img> ignores these.
      'x-content-type-options': 'nosniff',
      'content-security-policy': "default-src 'none'; sandbox",
    }
    const range = parseRange(event.req.headers.get('range'), file.size)
    if (range === 'invalid') return new Response(null, { status: 416, headers: { ...headers, 'content-range': `bytes */${file.size}` } })
    const [start, end] = range ?? [0, file.size - 1]
    headers['content-length'] = String(end - start + 1)
    if (range) headers['content-range'] = `bytes ${start}-${end}/${file.size}`
    const body = head || file.size === 0 ? null : (Readable.toWeb(file.read({ start, end })) as ReadableStream)
    return new Response(body, { status: range ? 206 : 200, headers })
  }
  const responses = {
    200: { description: 'the file', content: 'application/octet-stream' },
    206: { description: 'a byte range of the file', content: 'application/octet-stream' },
    404: { description: 'no such file', schema: ErrorBodySchema },
    416: { description: 'range not satisfiable' },
  }
  return defineRoutes([
    {
      method: 'get',
      path: '/v1/files/:job/:name',
      auth: 'none',
      summary: 'Download a finished file (byte ranges supported)',
      responses,
      handler: (e) => serve(e, false),
    },
    { method: 'head', path: '/v1/files/:job/:name', auth: 'none', summary: 'File size and type', responses, handler: (e) => serve(e, true) },
  ])
}

/** One `bytes=a-b`, `a-` or `-n` range; multi-ranges are served whole (null). */
export function parseRange(header: string | null, size: number): [number, number] | null | 'invalid' {
  if (!header) return null
  const m = /^bytes=(\d*)-(\d*)$/.exec(header.trim())
  if (!m || (!m[1] && !m[2])) return header.includes(',') ? null : 'invalid'
  let start: number, end: number
  if (!m[1]) {
    start = Math.max(0, size - Number(m[2]))
    end = size - 1
  } else {
    start = Number(m[1])
    end = m[2] ? Math.min(Number(m[2]), size - 1) : size - 1
  }
  return start > end || start >= size ? 'invalid' : [start, end]
}
