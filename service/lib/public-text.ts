import { basename } from 'node:path'
import type { Issue } from '../../core/index.js'

/**
 * An absolute file-system path inside a message: a `/` that starts a word (not a URL's path after its host,
 * not `//` after a scheme) followed by two or more segments. This service's own routes (`/v1/…`, Shotstack's
 * `/edit/…`) are URLs, not files, and stay.
 */
const FILE_URL = /file:\/\/[^\s"'`<>|;,()[\]{}*?]*/gi
const SERVER_PATH = /(?<![\w:/.~%-])\/(?!(?:v1|edit|serve|ingest|stage|dashboard)\/)[^\s"'`<>|;,()[\]{}*?]+\/[^\s"'`<>|;,()[\]{}*?]*/g

/**
 * The address in a socket error (`connect ECONNREFUSED 10.0.0.5:9000`, `getaddrinfo ENOTFOUND minio.internal`):
 * the host or IP and port of whatever the server was reaching — storage, the database, another service.
 */
const SOCKET_ADDRESS = /\b(connect|getaddrinfo|lookup\w*|query\w*) (E[A-Z_]{3,}) [^\s,;)'"]+/g

/**
 * Text an API client may see: every server path replaced by `…/<file name>` and the address dropped from
 * socket errors, so no answer, job error, warning or webhook reveals the server's layout or the hosts it
 * reaches (the client still sees which file its clip named, and that a connection was refused). The server
 * log keeps the full text: `log` is called with it when anything was replaced.
 */
export function publicText(text: string, log?: (full: string) => void): string {
  const clean = text
    .replace(SOCKET_ADDRESS, '$1 $2')
    .replace(FILE_URL, (url) => `file://…/${basename(url)}`)
    .replace(SERVER_PATH, (path) => `…/${basename(path.replace(/[.:]+$/, ''))}${/[.:]+$/.exec(path)?.[0] ?? ''}`)
  if (clean !== text) log?.(text)
  return clean
}

/** `publicText` over issues or warnings (their paths are edit paths, never files). */
export const publicIssues = <T extends Issue>(issues: readonly T[]): T[] => issues.map((i) => ({ ...i, message: publicText(i.message) }))
