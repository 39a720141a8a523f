import { existsSync, readdirSync, readFileSync } from 'node:fs'
import { join } from 'node:path'
import { suite } from 'uvu'
import * as assert from 'uvu/assert'
import { unwrap } from '../../adapters/compat/rewrite.js'
import { createRenderer } from '../../index.js'
import { DEFAULT_LIMITS } from '../../service/config.js'
import { checkInputBounds, checkMergeBounds } from '../../service/jobs/input-bounds.js'
import { checkLimits } from '../../service/jobs/limits.js'

// The input bounds are generous enough for real work: every real edit in the compat corpus (../shared/compat,
// when present beside the repository, and the fixtures) passes them with the default limits.

const FIXTURES = join(import.meta.dirname, '..', 'fixtures', 'compat')
const SHARED = join(import.meta.dirname, '..', '..', '..', 'shared', 'compat')
const corpus = [FIXTURES, ...(existsSync(SHARED) ? [SHARED] : [])].flatMap((dir) =>
  readdirSync(dir)
    .filter((f) => f.endsWith('.json'))
    .map((f) => join(dir, f)),
)

const bounds = suite('input bounds')

bounds('every real edit of the compat corpus is within the default limits', () => {
  if (!existsSync(SHARED)) console.warn(`  note: ${SHARED} is not present; only the fixtures were checked`)
  const renderer = createRenderer()
  let checked = 0
  for (const file of corpus) {
    const body = unwrap(JSON.parse(readFileSync(file, 'utf8'))) as Record<string, unknown>
    checkMergeBounds(body, DEFAULT_LIMITS)
    let edit: ReturnType<typeof renderer.validate>['edit']
    try {
      edit = renderer.validate(body).edit
    } catch {
      continue // an edit the schema refuses (the corpus keeps a few on purpose) never reaches the bounds
    }
    checkInputBounds(edit, DEFAULT_LIMITS)
    checkLimits(edit, DEFAULT_LIMITS, false)
    checked++
  }
  assert.ok(checked >= Math.min(corpus.length, existsSync(SHARED) ? 100 : 2), `${checked} of ${corpus.length} edits checked`)
})

bounds('the picture a render writes is held to the pixel limit too, scaleTo included', () => {
  const renderer = createRenderer()
  const small = { ...DEFAULT_LIMITS, pixels: 1920 * 1080 }
  const edit = (output: object) =>
    renderer.validate({
      timeline: { tracks: [{ clips: [{ asset: { type: 'title', text: 'x' }, start: 0, length: 1 }] }] },
      output: { format: 'mp4', ...output },
    }).edit
  checkLimits(edit({ size: { width: 1280, height: 720 }, scaleTo: '1080' }), small, false)
  assert.throws(
    () => checkLimits(edit({ size: { width: 1280, height: 720 }, scaleTo: '4k' }), small, false),
    /output: 3840x2160 output exceeds the limit of 2073600 pixels/,
  )
  assert.throws(() => checkLimits(edit({ resolution: 'hd', scaleTo: '4k' }), small, false), /3840x2160/)
})

bounds('a merge bomb is refused from its placeholders, before it is built', () => {
  const placeholders = Array.from({ length: 50_000 }, () => '{{ V }}').join('')
  const body = {
    timeline: { tracks: [{ clips: [{ asset: { type: 'title', text: placeholders }, start: 0, length: 1 }] }] },
    merge: [{ find: 'V', replace: 'x'.repeat(1000) }],
  }
  assert.throws(() => checkMergeBounds(body, DEFAULT_LIMITS), /would be 5\d{7} characters once its merge fields are filled in/)
})

bounds.run()
