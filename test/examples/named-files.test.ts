import { existsSync, readdirSync, readFileSync } from 'node:fs'
import { dirname, join, relative } from 'node:path'
import { test } from 'uvu'
import * as assert from 'uvu/assert'

// Every file README and docs/ name is in the repository: a newcomer who copies a command finds its edit, its CSV,
// the script or folder the text points at, and every picture and page a link opens.

const root = new URL('../..', import.meta.url).pathname
const docs = [
  'README.md',
  ...readdirSync(join(root, 'docs'), { recursive: true, encoding: 'utf8' })
    .filter((f) => f.endsWith('.md'))
    .map((f) => `docs/${f}`),
]
const TOP = ['adapters', 'benchmarks', 'core', 'docs', 'examples', 'plugins', 'scripts', 'service', 'test']
/** A name that stands for many files (`plugins/<kind>/`, `docs/*.md`, `…`), not one to look up. */
const pattern = (p: string) => /[<>*{}…$]/.test(p)
const trim = (p: string) => p.replace(/[.,:;)`]+$/, '')

/** Each `doc: path` the text names — in backticks, in a command, or as a link — with where it resolves. */
function named(doc: string): { said: string; path: string }[] {
  const text = readFileSync(join(root, doc), 'utf8')
  const found: { said: string; path: string }[] = []
  // Repository paths, anywhere in the text: `examples/card.json`, scripts/setup.sh, test/helpers/fakes/.
  for (const m of text.matchAll(new RegExp(`(?<![\\w./-])((?:${TOP.join('|')})/[\\w./-]*)`, 'g'))) {
    const said = trim(m[1]!)
    if (!pattern(text.slice(m.index, m.index + said.length + 1))) found.push({ said, path: join(root, said) })
  }
  // The file a command reads: `reelforge render card.json`, `--merge-file people.csv` (run from the repository).
  for (const m of text.matchAll(/reelforge (?:render|validate|still|preview) ([^\s'"-][^\s'"]*)|--merge-file ([^\s'"]+)/g)) {
    const said = trim(m[1] ?? m[2]!)
    if (!pattern(said) && !said.startsWith('data.')) found.push({ said, path: join(root, said) })
  }
  // Links and images: [text](path), relative to the page.
  for (const m of text.matchAll(/\]\(([^)#\s]+)(?:#[^)]*)?\)/g)) {
    const said = m[1]!
    if (!/^[a-z]+:/.test(said)) found.push({ said, path: join(root, dirname(doc), said) })
  }
  return found
}

test('README and docs name no file that is not in the repository', () => {
  const missing = docs.flatMap((doc) => named(doc).flatMap(({ said, path }) => (existsSync(path) ? [] : [`${doc}: ${said} (${relative(root, path)})`])))
  assert.equal(missing, [])
})

test('the check finds what README names: its commands, its examples, its scripts', () => {
  const said = named('README.md').map((n) => n.said)
  for (const want of ['examples/hello.json', 'scripts/setup.sh']) assert.ok(said.includes(want), `${want} in ${said.join(' ')}`)
  assert.ok(
    said.some((s) => s.endsWith('people.csv')),
    'the CSV of the --merge-file example',
  )
})

test.run()
