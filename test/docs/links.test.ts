import { existsSync, readFileSync } from 'node:fs'
import { dirname, join, normalize } from 'node:path'
import { test } from 'uvu'
import * as assert from 'uvu/assert'
import { documents } from '../helpers/runnable.js'
import { root } from '../helpers/serve-child.js'

// README is short and points into docs/, and the docs point at each other and at the code: a link whose file or
// section moved, or a path in the tree that no longer exists, sends a newcomer nowhere. Both are checked here.

const read = (file: string) => readFileSync(join(root, file), 'utf8')
/** Outside fenced blocks: what a reader sees as prose, where links and paths are named. */
const prose = (markdown: string) => markdown.replace(/^\s*```[\s\S]*?^\s*```/gm, '')

/** GitHub's anchors of a document's headings: lower case, punctuation dropped, spaces as hyphens, repeats numbered. */
function anchors(markdown: string): Set<string> {
  const seen = new Map<string, number>()
  const out = new Set<string>()
  for (const [, heading] of prose(markdown).matchAll(/^#{1,6} (.+)$/gm)) {
    const slug = heading!
      .trim()
      .toLowerCase()
      .replace(/[^\p{L}\p{N}\s_-]/gu, '')
      .replace(/\s/g, '-')
    const n = seen.get(slug) ?? 0
    seen.set(slug, n + 1)
    out.add(n ? `${slug}-${n}` : slug)
  }
  return out
}

const linking = [...documents(), 'CONTRIBUTING.md', 'benchmarks/README.md']

test('every relative link reaches a file, and its #section a heading there', () => {
  const broken: string[] = []
  for (const file of linking)
    for (const [, target] of prose(read(file)).matchAll(/\]\(([^)\s]+)\)/g)) {
      if (/^[a-z]+:/.test(target!)) continue
      const [path, anchor] = target!.split('#') as [string, string | undefined]
      const to = path ? normalize(join(dirname(file), path)) : file
      if (!existsSync(join(root, to))) broken.push(`${file}: ${target} (no ${to})`)
      else if (anchor && to.endsWith('.md') && !anchors(read(to)).has(anchor)) broken.push(`${file}: ${target} (no such heading in ${to})`)
    }
  assert.equal(broken, [])
})

test('every path of the tree that README and docs/ name exists', () => {
  const top =
    /^(?:core|plugins|service|adapters|test|scripts|benchmarks|docs|examples)\/|^(?:index|kit|service-entry)\.ts$|^(?:README|CONTRIBUTING|CHANGELOG)\.md$/
  const missing: string[] = []
  for (const file of documents())
    for (const [, named] of read(file).matchAll(/`([^`\s]+)`/g)) {
      // Patterns and placeholders (`outage-*.test.ts`, `plugins/<kind>/`) name no one file.
      if (!top.test(named!) || /[*<>{}…]/.test(named!)) continue
      if (!existsSync(join(root, named!.replace(/[.,:;)]+$/, '')))) missing.push(`${file}: ${named}`)
    }
  assert.equal(missing, [])
})

test.run()
