import type { BaseIssue } from 'valibot'
import type { Issue } from '../errors.js'

type PathItem = { key: unknown }

/** Appends one key to a dotted path: `a` + 0 → `a[0]`, `a` + `b` → `a.b`. */
export function joinPath(base: string, key: string | number): string {
  if (typeof key === 'number') return `${base}[${key}]`
  if (!/^[A-Za-z_$][\w$-]*$/.test(key)) return `${base}[${JSON.stringify(key)}]`
  return base ? `${base}.${key}` : key
}

/** Formats a valibot issue path as `timeline.tracks[1].clips[0].asset.src`, under an optional prefix. */
export function formatPath(path: readonly PathItem[] | undefined, prefix = ''): string {
  let out = prefix
  for (const item of path ?? []) out = joinPath(out, item.key as string | number)
  return out
}

/**
 * Turns valibot issues into `{path, message}` pairs. A union whose every branch failed reports the branch
 * that got furthest (deepest path), which names the real culprit rather than "expected A | B".
 */
export function toIssues(issues: readonly BaseIssue<unknown>[], prefix = ''): Issue[] {
  const out: Issue[] = []
  for (const issue of issues) {
    const nested = issue.issues
    if (issue.type === 'union' && nested?.length && !issue.message.startsWith('must')) {
      const deepest = nested.reduce((a, b) => ((b.path?.length ?? 0) > (a.path?.length ?? 0) ? b : a))
      out.push(...toIssues([deepest], prefix))
      continue
    }
    // valibot words a missing key as "Invalid key: Expected "x" but received undefined".
    const unknownKey = issue.kind === 'schema' && /^Invalid key: Expected never/.test(issue.message)
    const message = unknownKey
      ? 'is not a known field'
      : issue.kind === 'schema' && issue.input === undefined && /^Invalid key/.test(issue.message)
        ? 'is required'
        : issue.message
    out.push({ path: formatPath(issue.path as PathItem[] | undefined, prefix), message })
  }
  return dedupe(out)
}

function dedupe(issues: Issue[]): Issue[] {
  const seen = new Set<string>()
  return issues.filter((i) => {
    const key = `${i.path}\u0000${i.message}`
    if (seen.has(key)) return false
    seen.add(key)
    return true
  })
}
