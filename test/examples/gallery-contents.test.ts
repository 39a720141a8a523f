import { readdirSync, readFileSync, statSync } from 'node:fs'
import { basename, join } from 'node:path'
import { test } from 'uvu'
import * as assert from 'uvu/assert'
import { parseCsv } from '../../adapters/cli/csv.js'
import { builtinAssets } from '../../plugins/assets/index.js'

// What examples/ holds and how docs/examples.md shows it, without rendering (gallery-renders.test.ts renders):
// every asset type the renderer registers is in some example, as are the features issue 37 lists; every example
// has its entry, command and thumbnail in the gallery page, and every thumbnail and media file belongs to one.

const root = new URL('../..', import.meta.url).pathname
const names = readdirSync(join(root, 'examples'))
  .filter((f) => f.endsWith('.json'))
  .map((f) => basename(f, '.json'))
  .sort()
type Json = Record<string, any>
const edits = new Map(names.map((n) => [n, JSON.parse(readFileSync(join(root, 'examples', `${n}.json`), 'utf8')) as Json]))
const clipsOf = (e: Json): Json[] => e.timeline.tracks.flatMap((t: Json) => t.clips)
/** The examples in which `has` holds for some clip. */
const withClip = (has: (c: Json) => boolean) => names.filter((n) => clipsOf(edits.get(n)!).some(has))
const page = readFileSync(join(root, 'docs', 'examples.md'), 'utf8')
/** Each example's section of the gallery page: the `## ` heading that names its file, to the next heading. */
const sectionOf = (n: string) => page.split(/\n(?=## )/).filter((s) => s.startsWith('## ') && s.split('\n')[0]!.includes(`examples/${n}.json`))

test('at least 12 examples, and every asset type the renderer registers is in one of them', () => {
  assert.ok(names.length >= 12, `${names.length} examples`)
  const used = new Set(names.flatMap((n) => clipsOf(edits.get(n)!).map((c) => c.asset.type)))
  const registered = builtinAssets.map((a) => a.name)
  assert.is(registered.length, 16, "Shotstack's sixteen asset types")
  assert.equal(
    registered.filter((t) => !used.has(t)),
    [],
    'asset types no example uses',
  )
})

test('transitions, effects, filters, captions, luma mattes, html, rich text, a soundtrack and keyframes are shown', () => {
  const shown = {
    transition: withClip((c) => !!c.transition),
    'gl transition': withClip((c) => /^gl:/.test(c.transition?.in ?? c.transition?.out ?? '')),
    effect: withClip((c) => !!c.effect),
    filter: withClip((c) => !!c.filter),
    caption: withClip((c) => c.asset.type === 'caption' || c.asset.type === 'rich-caption'),
    'spoken caption': withClip((c) => c.asset.type === 'rich-caption' && /^alias:\/\//.test(c.asset.src)),
    luma: withClip((c) => c.asset.type === 'luma'),
    html: withClip((c) => c.asset.type === 'html' || c.asset.type === 'html5'),
    'rich text': withClip((c) => c.asset.type === 'rich-text'),
    keyframes: withClip((c) => [c.offset?.x, c.opacity, c.scale].some(Array.isArray)),
    soundtrack: names.filter((n) => !!edits.get(n)!.timeline.soundtrack),
    gif: names.filter((n) => edits.get(n)!.output.format === 'gif'),
  }
  const missing = Object.entries(shown).flatMap(([what, where]) => (where.length ? [] : [what]))
  assert.equal(missing, [], 'features no example shows')
})

test('the AI assets run on the free local engines: a prompt, an image to animate, a voice', () => {
  const ai = ['text-to-image', 'image-to-video', 'text-to-speech']
  for (const type of ai) assert.ok(withClip((c) => c.asset.type === type).length, type)
  assert.ok(withClip((c) => c.asset.type === 'video' && typeof c.asset.prompt === 'string').length, 'a video made from a prompt')
})

test("card.json is a template: people.csv fills every placeholder it has, and the edit's own merge does too", () => {
  const text = readFileSync(join(root, 'examples', 'card.json'), 'utf8')
  const placeholders = [...new Set([...text.matchAll(/\{\{\s*(\w+)\s*\}\}/g)].map((m) => m[1]!))].sort()
  assert.equal(placeholders, ['COLOR', 'NAME', 'ROLE'])
  const rows = parseCsv(readFileSync(join(root, 'examples', 'people.csv'), 'utf8'))
  assert.ok(rows.length >= 3, `${rows.length} rows`)
  for (const row of rows) assert.equal(Object.keys(row).sort(), placeholders, 'each row fills each placeholder')
  assert.equal(
    edits
      .get('card')!
      .merge.map((m: Json) => m.find)
      .sort(),
    placeholders,
  )
})

test("three of Shotstack's docs examples, each saying where it comes from", () => {
  const shotstack = names.filter((n) => n.startsWith('shotstack-'))
  assert.ok(shotstack.length >= 3, shotstack.join(', '))
  for (const n of shotstack) assert.match(sectionOf(n)[0] ?? '', /\]\(https:\/\/(shotstack\.io|github\.com\/shotstack)\//, `${n}: a link to its source`)
})

test('docs/examples.md: each example has its command and its thumbnail, and each thumbnail has its example', () => {
  for (const n of names) {
    const sections = sectionOf(n)
    assert.is(sections.length, 1, `${n}: one section`)
    assert.ok(sections[0]!.includes(`npx reelforge render examples/${n}.json`), `${n}: the command to render it`)
    assert.ok(sections[0]!.includes(`](gallery/${n}.png)`), `${n}: its thumbnail`)
  }
  const thumbs = readdirSync(join(root, 'docs', 'gallery')).map((f) => basename(f, '.png'))
  assert.equal(thumbs.sort(), names, 'one thumbnail per example, none left over')
})

test('examples/media: every file is used by an example, and the folder stays small', () => {
  const media = readdirSync(join(root, 'examples', 'media'))
  const texts = names.map((n) => readFileSync(join(root, 'examples', `${n}.json`), 'utf8')).join('\n')
  assert.equal(
    media.filter((f) => !texts.includes(`media/${f}`)),
    [],
    'media no example uses',
  )
  const kb = media.reduce((sum, f) => sum + statSync(join(root, 'examples', 'media', f)).size, 0) / 1024
  assert.ok(kb < 400, `examples/media holds ${kb.toFixed(0)} KB`)
  const thumbsKb = readdirSync(join(root, 'docs', 'gallery')).reduce((sum, f) => sum + statSync(join(root, 'docs', 'gallery', f)).size, 0) / 1024
  assert.ok(thumbsKb < 600, `docs/gallery holds ${thumbsKb.toFixed(0)} KB`)
})

test.run()
