import { join } from 'node:path'
import { fileURLToPath } from 'node:url'
import { suite } from 'uvu'
import * as assert from 'uvu/assert'
import type { Browser, Locator, Page } from 'playwright-core'
import { launchBrowser, listen } from '../helpers/browser.js'
import { go, near, pixelAt, shot, signIn, unlabelledControls } from '../helpers/dashboard.js'
import { solidPng, tempDir } from '../helpers/media.js'
import { DEFAULT_LIMITS } from '../../service/config.js'
import { testService, type TestService } from '../helpers/service.js'
import { runnable } from '../helpers/serve-child.js'

// The dashboard's visual editor in Debian's Chromium against a real server: pointer drags on the timeline and
// the preview, the inspector, keyboard shortcuts, templates and a render — each checked in the edit's JSON,
// in the frames the real renderer draws, and through the API.

const ctx = {} as { svc: TestService; http: Awaited<ReturnType<typeof listen>>; browser: Browser }
const test = suite('visual editor in a browser', ctx)
test.before(async () => {
  // A custom transition, effect, filter and fit, as an operator's REELFORGE_PLUGINS would add them.
  const custom = runnable(fileURLToPath(new URL('../helpers/custom-look-plugins.ts', import.meta.url)))
  ctx.svc = await testService({ start: true, config: { pluginModules: [custom] } })
  ctx.http = await listen(ctx.svc)
  ctx.browser = await launchBrowser()
})
test.after(async () => {
  await ctx.browser?.close()
  await ctx.http?.close()
  await ctx.svc?.close()
})

/** A title on top, a red rectangle under it, on a 320×180 frame at 25 fps. */
const EDIT = {
  timeline: {
    background: '#000000',
    tracks: [
      { clips: [{ asset: { type: 'title', text: 'Hello', style: 'minimal' }, start: 0, length: 2 }] },
      {
        clips: [
          {
            asset: { type: 'shape', shape: 'rectangle', width: 100, height: 60, rectangle: { width: 100, height: 60 }, fill: { color: '#ff0000' } },
            start: 0,
            length: 3,
          },
        ],
      },
    ],
  },
  output: { format: 'mp4', size: { width: 320, height: 180 }, fps: 25 },
}
const FRAME = 1 / 25

/** Opens the editor with `edit` typed into its JSON view; the timeline follows. */
async function openEditor(page: Page, edit: object, at = { url: ctx.http.url, key: ctx.svc.live }) {
  await signIn(page, at.url, at.key)
  await go(page, 'Editor')
  const json = page.getByLabel('Timeline JSON (Shotstack format)')
  await json.fill(JSON.stringify(edit, null, 2))
  await page.locator('.clip').first().waitFor()
  return json
}
const editOf = async (json: Locator) => JSON.parse(await json.inputValue())
/** Waits (a few seconds at most) for the JSON view to read `text`: it reprints after the change has drawn. */
const jsonReads = (page: Page, text: string) =>
  page.waitForFunction((t) => (document.querySelector('#timeline-json') as HTMLTextAreaElement | null)?.value === t, text, { timeout: 5000 }).catch(() => {})
const clip = (page: Page, track: number, index: number) => page.locator(`.timeline .clip[data-track="${track}"][data-clip="${index}"]`)

/** Polls the JSON view until its edit passes `ok` (a few seconds at most), and returns it. */
async function editWhen(json: Locator, ok: (edit: any) => boolean): Promise<any> {
  const until = Date.now() + 5000
  let edit = await editOf(json)
  while (!ok(edit) && Date.now() < until) {
    await new Promise((r) => setTimeout(r, 100))
    edit = await editOf(json)
  }
  return edit
}

/** Presses at `from`, moves in small steps by (dx, dy) and lets go, as a hand on a mouse would. */
async function drag(page: Page, from: { x: number; y: number }, dx: number, dy: number, opts: { alt?: boolean } = {}) {
  await page.mouse.move(from.x, from.y)
  await page.mouse.down()
  if (opts.alt) await page.keyboard.down('Alt')
  for (let i = 1; i <= 10; i++) await page.mouse.move(from.x + (dx * i) / 10, from.y + (dy * i) / 10)
  await page.mouse.up()
  if (opts.alt) await page.keyboard.up('Alt')
}
/** The middle of an element, scrolled into view first (the mouse works in the viewport). */
const middle = async (l: Locator) => {
  await l.scrollIntoViewIfNeeded()
  const b = (await l.boundingBox())!
  return { x: b.x + b.width / 2, y: b.y + b.height / 2 }
}

test('timeline: drag a clip 2 s right, trim its end, move it to another track; undo restores the JSON exactly, redo re-applies', async () => {
  const page = await ctx.browser.newPage({ viewport: { width: 1400, height: 1000 } })
  const json = await openEditor(page, EDIT)
  const original = await json.inputValue()
  const shape = clip(page, 1, 0)
  assert.is(await shape.getAttribute('data-start'), '0')
  assert.is(await shape.getAttribute('data-length'), '3')
  assert.match((await shape.getAttribute('aria-label')) ?? '', /^shape “rectangle”, track 2, from 0 s for 3 s$/)
  await shot(page, 'editor-loaded')

  // 80 px a second at the default zoom: 160 px is 2 s.
  await drag(page, await middle(shape), 160, 0)
  const moved = await editWhen(json, (e) => e.timeline.tracks[1].clips[0].start !== 0)
  assert.ok(Math.abs(moved.timeline.tracks[1].clips[0].start - 2) <= FRAME, `start ${moved.timeline.tracks[1].clips[0].start}`)
  await shot(page, 'editor-dragged')

  // The end edge 80 px left: a second shorter.
  const b = (await shape.boundingBox())!
  await drag(page, { x: b.x + b.width - 3, y: b.y + b.height / 2 }, -80, 0)
  const trimmed = await editWhen(json, (e) => e.timeline.tracks[1].clips[0].length !== 3)
  assert.ok(Math.abs(trimmed.timeline.tracks[1].clips[0].length - 2) <= FRAME, `length ${trimmed.timeline.tracks[1].clips[0].length}`)
  assert.is(trimmed.timeline.tracks[1].clips[0].start, moved.timeline.tracks[1].clips[0].start, 'trimming the end keeps the start')

  // One row up: onto the title's track; the emptied track goes (the API refuses a track without clips).
  await drag(page, await middle(shape), 0, -44)
  await page.locator('.timeline .clip[data-track="0"][data-clip="1"]').waitFor()
  const across = await editWhen(json, (e) => e.timeline.tracks.length === 1)
  assert.is(across.timeline.tracks.length, 1)
  assert.equal(
    across.timeline.tracks[0].clips.map((c: { asset: { type: string } }) => c.asset.type),
    ['title', 'shape'],
  )
  await shot(page, 'editor-moved-track')

  // Undo three times with the button and the keys: the very text it began with.
  await page.getByRole('button', { name: 'Undo' }).click()
  await page.keyboard.press('Control+z')
  await page.keyboard.press('Control+z')
  await jsonReads(page, original)
  assert.is(await json.inputValue(), original, 'undo gives back the JSON exactly')
  assert.is(await page.getByRole('button', { name: 'Undo' }).getAttribute('title'), 'Undo Edit the JSON', 'back at the edit as typed')
  // Redo all three (button, Ctrl+Shift+Z, Ctrl+Y).
  await page.getByRole('button', { name: 'Redo' }).click()
  await page.keyboard.press('Control+Shift+z')
  await page.keyboard.press('Control+y')
  await jsonReads(page, JSON.stringify(across, null, 2))
  assert.equal(await editOf(json), across, 'redo re-applies every change')
  assert.equal(await unlabelledControls(page), [])
  await page.close()
})

/** One red 100×60 rectangle in the middle of a black 320×180 frame for 2 s. */
const SHAPE = {
  timeline: {
    background: '#000000',
    tracks: [
      {
        clips: [
          {
            asset: { type: 'shape', shape: 'rectangle', width: 100, height: 60, rectangle: { width: 100, height: 60 }, fill: { color: '#ff0000' } },
            start: 0,
            length: 2,
          },
        ],
      },
    ],
  },
  output: { format: 'mp4', size: { width: 320, height: 180 }, fps: 25 },
}

/** Waits until the preview's frame has `rgb` at (fx, fy) — the renderer's picture, read back from the page. */
async function frameShows(page: Page, fx: number, fy: number, rgb: number[], what: string) {
  const until = Date.now() + 60_000
  let last: number[] = []
  while (Date.now() < until) {
    const loaded = await page
      .locator('.preview img.frame')
      .evaluate((img: HTMLImageElement) => img.complete && img.naturalWidth > 0)
      .catch(() => false)
    if (loaded && near((last = await pixelAt(page, '.preview img.frame', fx, fy)), rgb)) return
    await page.waitForTimeout(200)
  }
  assert.unreachable(`${what}: the frame shows ${last} at (${fx}, ${fy}), not ${rgb}`)
}

const RED = [255, 0, 0]
const GREEN = [0, 255, 0]
const BLACK = [0, 0, 0]

test('inspector: a colour picked for the selected clip turns the preview frame that colour', async () => {
  const page = await ctx.browser.newPage({ viewport: { width: 1400, height: 1000 } })
  const json = await openEditor(page, SHAPE)
  await frameShows(page, 0.5, 0.5, RED, 'the rectangle before')
  await clip(page, 0, 0).click()
  const colour = page.getByLabel('asset.fill.color', { exact: true })
  assert.is(await colour.inputValue(), '#ff0000', "the picker holds the clip's colour")
  await colour.fill('#00ff00')
  await frameShows(page, 0.5, 0.5, GREEN, 'the rectangle after')
  assert.is((await editOf(json)).timeline.tracks[0].clips[0].asset.fill.color, '#00ff00')
  await frameShows(page, 0.1, 0.1, BLACK, 'the background around it')
  // The lists come from the renderer's registry: the custom plugins loaded into this server are offered too.
  const options = (label: string) => page.getByLabel(label, { exact: true }).locator('option').allTextContents()
  assert.ok((await options('filter')).includes('greenTest'), 'a custom filter')
  assert.ok((await options('fit')).includes('thirdTest') && (await options('fit')).includes('contain'), 'a custom fit beside Shotstack’s')
  assert.ok((await options('effect')).includes('wobbleTest'), 'a custom effect')
  assert.ok((await options('transition.in')).includes('irisTest'), 'a custom transition')
  assert.ok((await options('transition.in')).includes('fadeSlow'), 'a built-in one at another speed')
  await shot(page, 'editor-inspector-colour')

  // A value the API refuses: its own message beside the field, and the clip's bar flagged.
  const length = page.getByLabel('length', { exact: true })
  await length.fill('-3')
  await length.press('Tab')
  const said = page.locator('.insp-field[data-path="length"] .field-error')
  await said.waitFor({ timeout: 15_000 })
  const api = await ctx.svc.call('POST', '/v1/render/validate', { body: await editOf(json) })
  assert.is(await said.textContent(), api.body.issues.find((i: { path: string }) => i.path === 'timeline.tracks[0].clips[0].length')?.message)
  assert.is(await length.getAttribute('aria-invalid'), 'true')
  assert.ok(await clip(page, 0, 0).evaluate((el) => el.classList.contains('has-issue')), 'the bar is flagged')
  await shot(page, 'editor-inspector-issue')
  await page.close()
})

/** A red rectangle for the first second, then a green one: which second the playhead is in shows in the frame. */
const RED_THEN_GREEN = {
  ...SHAPE,
  timeline: {
    background: '#000000',
    tracks: [
      {
        clips: [0, 1].map((start) => ({
          asset: { ...SHAPE.timeline.tracks[0]!.clips[0]!.asset, fill: { color: start ? '#00ff00' : '#ff0000' } },
          start,
          length: 1,
        })),
      },
    ],
  },
}

/** The frame the page shows and `POST /v1/render/frame`'s frame of `edit` at `time`, both as the page decodes them: equal pixel for pixel? */
const sameAsFrameEndpoint = (page: Page, key: string, edit: object, time: number) =>
  // No named functions inside: the page has none of the helpers tsx would wrap them in.
  page.evaluate(
    async ({ key, body }) => {
      const img = document.querySelector('.preview img.frame') as HTMLImageElement
      const headers = { authorization: `Bearer ${key}`, 'content-type': 'application/json', 'x-test': 'compare' }
      const res = await fetch('/v1/render/frame', { method: 'POST', headers, body })
      const drawn = await createImageBitmap(await res.blob())
      const { width, height } = drawn
      if (width !== img.naturalWidth || height !== img.naturalHeight) return `sizes differ: ${width}×${height}, ${img.naturalWidth}×${img.naturalHeight}`
      const [a, b] = [img, drawn].map((picture) => {
        const c = Object.assign(document.createElement('canvas'), { width, height }).getContext('2d')!
        c.drawImage(picture, 0, 0)
        return c.getImageData(0, 0, width, height).data
      })
      const differ = a!.findIndex((v, i) => v !== b![i])
      return differ < 0 ? 'same' : `differ at byte ${differ}: ${a![differ]} ≠ ${b![differ]}`
    },
    { key, body: JSON.stringify({ ...edit, time }) },
  )

test('scrubbing draws through a preview session: opened once, changed with the edit, the frame endpoint’s pixels, ended with the page', async () => {
  // A key of its own, so the sessions seen are this page's.
  const key = (await ctx.svc.keys.create()).key
  const page = await ctx.browser.newPage({ viewport: { width: 1400, height: 1000 } })
  const asked: string[] = []
  const sessions = new Set<string>()
  page.on('request', (r) => {
    const { pathname } = new URL(r.url())
    if (r.headers()['x-test'] === 'compare') return // the test's own comparison below
    const id = /^\/v1\/previews\/([0-9a-f-]{36})/.exec(pathname)?.[1]
    if (id) sessions.add(id)
    if (pathname.startsWith('/v1/previews') || pathname === '/v1/render/frame') asked.push(`${r.method()} ${pathname.replace(id ?? '-', '{id}')}`)
  })
  const json = await openEditor(page, RED_THEN_GREEN, { url: ctx.http.url, key })
  await frameShows(page, 0.5, 0.5, RED, 'the first second')
  // Scrubbing: the ruler pressed at 0 s and dragged to 1.5 s (80 px a second).
  const playhead = page.getByRole('slider', { name: 'Playhead' })
  await playhead.scrollIntoViewIfNeeded()
  const ruler = (await playhead.boundingBox())!
  await drag(page, { x: ruler.x + 2, y: ruler.y + ruler.height / 2 }, 120, 0)
  await frameShows(page, 0.5, 0.5, GREEN, 'the second second')
  const time = Number(await page.locator('.preview img.frame').getAttribute('data-time'))
  assert.ok(time >= 1 && time <= 2, `the frame shown is of ${time} s`)
  assert.is(await sameAsFrameEndpoint(page, key, await editOf(json), time), 'same', 'the session’s frame is the frame endpoint’s')
  assert.is(sessions.size, 1, 'one session')
  const [id] = [...sessions]
  const before = (await ctx.svc.call('GET', `/v1/previews/${id}`, { key })).body.revision

  // A changed edit goes to the same session (PUT), and its frame follows.
  const edit = await editOf(json)
  edit.timeline.tracks[0].clips[1].asset.fill.color = '#0000ff'
  await json.fill(JSON.stringify(edit, null, 2))
  await frameShows(page, 0.5, 0.5, [0, 0, 255], 'the recoloured second second')
  assert.is(await sameAsFrameEndpoint(page, key, edit, time), 'same', 'after the change too')
  const held = await ctx.svc.call('GET', `/v1/previews/${id}`, { key })
  assert.is(held.status, 200)
  assert.is(held.body.revision, before + 1, 'the session was given the changed edit')

  const count = (what: string) => asked.filter((a) => a === what).length
  assert.ok(count('GET /v1/previews/{id}/frame') >= 3, `frames came from the session: ${asked.join(', ')}`)
  assert.is(count('POST /v1/previews'), 1, `opened once: ${asked.join(', ')}`)
  assert.is(count('POST /v1/render/frame'), 0, 'no frame drawn the other way')
  assert.is(sessions.size, 1, 'the same session throughout')
  await shot(page, 'editor-preview-session')

  // A session that has gone (deleted here behind the page's back, as an idle one ends): the page opens another.
  assert.is((await ctx.svc.call('DELETE', `/v1/previews/${id}`, { key })).status, 200)
  await playhead.press('Home')
  await frameShows(page, 0.5, 0.5, RED, 'the first second again')
  assert.is(count('POST /v1/previews'), 2, `opened again: ${asked.join(', ')}`)
  assert.is(count('POST /v1/render/frame'), 0, 'still no frame drawn the other way')
  const reopened = [...sessions].find((s) => s !== id)!
  assert.is((await ctx.svc.call('GET', `/v1/previews/${reopened}`, { key })).status, 200)

  // Leaving the page ends the session at once (pagehide), not when it would idle out.
  await page.goto('about:blank')
  const gone = async () => (await ctx.svc.call('GET', `/v1/previews/${reopened}`, { key })).status === 404
  const until = Date.now() + 5000
  while (!(await gone()) && Date.now() < until) await new Promise((r) => setTimeout(r, 100))
  assert.ok(await gone(), 'the session is deleted')
  await page.close()
})

test('a server that holds no session for the page (429: all taken): frames come from POST /v1/render/frame, the same pixels', async () => {
  const full = await testService({ config: { limits: { ...DEFAULT_LIMITS, previews: 0 } } })
  const http = await listen(full)
  const page = await ctx.browser.newPage({ viewport: { width: 1400, height: 1000 } })
  const asked: string[] = []
  page.on('request', (r) => r.headers()['x-test'] !== 'compare' && asked.push(`${r.method()} ${new URL(r.url()).pathname}`))
  try {
    const json = await openEditor(page, RED_THEN_GREEN, { url: http.url, key: full.live })
    await frameShows(page, 0.5, 0.5, RED, 'the first second')
    const playhead = page.getByRole('slider', { name: 'Playhead' })
    await playhead.press('Shift+ArrowRight')
    await frameShows(page, 0.5, 0.5, GREEN, 'the second second')
    assert.is(await sameAsFrameEndpoint(page, full.live, await editOf(json), 1), 'same')
    assert.is(asked.filter((a) => a === 'POST /v1/previews').length, 1, `asked once, refused: ${asked.join(', ')}`)
    assert.ok(asked.filter((a) => a === 'POST /v1/render/frame').length >= 2, 'frames drawn the other way')
    assert.not.ok(
      asked.some((a) => /^(GET|PUT) \/v1\/previews/.test(a)),
      'no session used',
    )
  } finally {
    await page.close()
    await http.close()
    await full.close()
  }
})

/**
 * Drags the rectangle's box on the preview 40 px right and 30 px down (screen pixels) and returns the
 * offset written and the preview's size on screen; the next frame must show the rectangle moved down.
 */
async function dragOnPreview(page: Page, json: Locator) {
  await frameShows(page, 0.5, 0.5, RED, 'the rectangle in the middle')
  const box = page.locator('.preview .object[data-track="0"][data-clip="0"]')
  const from = await middle(box)
  const stage = (await page.locator('.preview .stage').boundingBox())!
  await drag(page, from, 40, 30)
  await page.waitForFunction(
    () => !!document.querySelector('#timeline-json') && (document.querySelector('#timeline-json') as HTMLTextAreaElement).value.includes('"offset"'),
  )
  const offset = (await editOf(json)).timeline.tracks[0].clips[0].offset
  // It spanned y 60–120 of 180; moved down it now covers y 128, which was black before.
  await frameShows(page, 0.5, 128 / 180, RED, 'the rectangle moved down')
  await frameShows(page, 0.5, 62 / 180, BLACK, 'and no longer at its old top')
  return { offset, stage }
}

test("preview: dragging an object down and right sets offset in this server's y-axis (down), and the frame follows", async () => {
  const page = await ctx.browser.newPage({ viewport: { width: 1400, height: 1000 } })
  const json = await openEditor(page, SHAPE)
  const { offset, stage } = await dragOnPreview(page, json)
  assert.ok(Math.abs(offset.x - 40 / stage.width) < 0.01, `offset.x ${offset.x} ≈ ${40 / stage.width}`)
  assert.ok(Math.abs(offset.y - 30 / stage.height) < 0.01, `offset.y ${offset.y} ≈ +${30 / stage.height} (y counts down here)`)
  assert.ok(await page.locator('.preview .object.selected').count(), 'the dragged object is selected')
  await shot(page, 'editor-preview-drag')
  await page.close()
})

test("preview: on a server whose y-axis counts up (Shotstack's), the same drag writes a negative offset.y", async () => {
  const up = await testService({ config: { yAxis: 'up' } })
  const http = await listen(up)
  const page = await ctx.browser.newPage({ viewport: { width: 1400, height: 1000 } })
  try {
    const json = await openEditor(page, SHAPE, { url: http.url, key: up.live })
    const { offset, stage } = await dragOnPreview(page, json)
    assert.ok(Math.abs(offset.y + 30 / stage.height) < 0.01, `offset.y ${offset.y} ≈ -${30 / stage.height}`)
    assert.ok(offset.x > 0)
  } finally {
    await page.close()
    await http.close()
    await up.close()
  }
})

test('keyboard only: Tab to a clip, Enter selects it, arrows nudge it a frame and a second, Delete removes it, Ctrl+Z brings it back', async () => {
  const page = await ctx.browser.newPage({ viewport: { width: 1400, height: 1000 } })
  const json = await openEditor(page, EDIT)
  // From the timeline's last button: the playhead, the title, then the rectangle.
  await page.getByRole('button', { name: 'Zoom in' }).focus()
  await page.keyboard.press('Tab')
  assert.is(await page.evaluate(() => document.activeElement?.getAttribute('aria-label')), 'Playhead')
  await page.keyboard.press('Tab')
  await page.keyboard.press('Tab')
  const shape = clip(page, 1, 0)
  assert.ok(await shape.evaluate((el) => el === document.activeElement), 'the rectangle has the focus')
  await page.keyboard.press('Enter')
  assert.is(await shape.getAttribute('aria-pressed'), 'true', 'Enter selected it')
  // Space plays from where the focus is — a clip too, as the hint says — and pauses; the selection stays.
  const play = page.locator('.editor-page button', { hasText: /^(Play|Pause)$/ })
  await page.keyboard.press(' ')
  assert.is(await play.getAttribute('aria-pressed'), 'true', 'Space on the focused clip plays')
  await page.keyboard.press(' ')
  assert.is(await play.getAttribute('aria-pressed'), 'false', 'and pauses')
  assert.is(await shape.getAttribute('aria-pressed'), 'true', 'the clip still selected')

  await page.keyboard.press('ArrowRight')
  let edit = await editWhen(json, (e) => e.timeline.tracks[1].clips[0].start !== 0)
  assert.is(edit.timeline.tracks[1].clips[0].start, FRAME, 'one frame later')
  await page.keyboard.press('Shift+ArrowRight')
  edit = await editWhen(json, (e) => e.timeline.tracks[1].clips[0].start !== FRAME)
  assert.is(edit.timeline.tracks[1].clips[0].start, 1 + FRAME, 'a second more')
  await page.keyboard.press('ArrowLeft')
  edit = await editWhen(json, (e) => e.timeline.tracks[1].clips[0].start !== 1 + FRAME)
  assert.is(edit.timeline.tracks[1].clips[0].start, 1, 'and a frame back')
  await shot(page, 'editor-keyboard-nudged')

  await page.keyboard.press('Delete')
  edit = await editWhen(json, (e) => e.timeline.tracks.length === 1)
  assert.equal(
    edit.timeline.tracks.map((t: { clips: unknown[] }) => t.clips.length),
    [1],
    'the rectangle and its emptied track are gone',
  )
  assert.is(await page.locator('.timeline .clip').count(), 1)
  await shot(page, 'editor-keyboard-deleted')

  await page.keyboard.press('Control+z')
  edit = await editWhen(json, (e) => e.timeline.tracks.length === 2)
  assert.is(edit.timeline.tracks[1].clips[0].start, 1, 'back where it was nudged to')
  assert.is(await clip(page, 1, 0).getAttribute('aria-pressed'), 'true', 'and selected again')
  await page.close()
})

test('a template with placeholders: open it, rearrange it, fill a sample value the preview draws, save it, render it to COMPLETE', async () => {
  const made = await ctx.svc.call('POST', '/v1/templates', {
    body: {
      name: 'Promo card',
      template: {
        timeline: {
          background: '#000000',
          tracks: [
            { clips: [{ asset: { type: 'title', text: '{{ HEADLINE }}', style: 'minimal', position: 'top' }, start: 0, length: 2 }] },
            {
              clips: [
                {
                  asset: { type: 'shape', shape: 'rectangle', width: 100, height: 60, rectangle: { width: 100, height: 60 }, fill: { color: '{{ COLOUR }}' } },
                  start: 0,
                  length: 2,
                },
              ],
            },
          ],
        },
        output: { format: 'mp4', size: { width: 320, height: 180 }, fps: 25 },
        merge: [
          { find: 'HEADLINE', replace: 'Hello' },
          { find: 'COLOUR', replace: '#ff0000' },
        ],
      },
    },
  })
  assert.is(made.status, 201, JSON.stringify(made.body))
  const id = made.body.id
  const page = await ctx.browser.newPage({ viewport: { width: 1400, height: 1000 } })
  await signIn(page, ctx.http.url, ctx.svc.live)
  await go(page, 'Editor')
  await page.getByLabel('Template', { exact: true }).selectOption({ label: 'Promo card' })
  await page.getByRole('button', { name: 'Open', exact: true }).click()
  await page.getByText('Opened template Promo card.').waitFor()
  const json = page.getByLabel('Timeline JSON (Shotstack format)')

  // The merge fields panel: each placeholder, the field it feeds and its sample value.
  const panel = page.getByRole('region', { name: 'Merge fields' })
  assert.is(await panel.getByLabel('HEADLINE').inputValue(), 'Hello')
  assert.is(await panel.getByLabel('COLOUR').inputValue(), '#ff0000')
  assert.match((await panel.locator('li[data-merge="COLOUR"]').textContent()) ?? '', /feeds tracks\[1\]\.clips\[0\]\.asset\.fill\.color/)
  await frameShows(page, 0.5, 0.5, RED, 'the rectangle in its sample colour')

  // A new sample value: the preview draws with it.
  await panel.getByLabel('COLOUR').fill('#00ff00')
  await panel.getByLabel('COLOUR').press('Tab')
  await frameShows(page, 0.5, 0.5, GREEN, 'the rectangle in the new sample colour')
  await panel.getByLabel('HEADLINE').fill('Big sale')
  await panel.getByLabel('HEADLINE').press('Tab')
  // Rearranged: the rectangle one second later.
  await drag(page, await middle(clip(page, 1, 0)), 80, 0)
  const edit = await editWhen(json, (e) => e.timeline.tracks[1].clips[0].start === 1)
  assert.is(edit.timeline.tracks[1].clips[0].start, 1)
  await shot(page, 'editor-template-open')

  await page.getByRole('button', { name: 'Save template Promo card' }).click()
  await page.getByText(/Template Promo card saved/).waitFor()
  const saved = (await ctx.svc.call('GET', `/v1/templates/${id}`)).body
  assert.equal(saved.template.merge, [
    { find: 'HEADLINE', replace: 'Big sale' },
    { find: 'COLOUR', replace: '#00ff00' },
  ])
  assert.is(saved.template.timeline.tracks[1].clips[0].start, 1, 'the rearranged timeline is saved')
  assert.is(saved.template.timeline.tracks[0].clips[0].asset.text, '{{ HEADLINE }}', 'placeholders stay placeholders')
  assert.is(saved.template.timeline.tracks[1].clips[0].asset.fill.color, '{{ COLOUR }}')

  // Render it from the editor, followed to the end.
  await page.getByRole('button', { name: 'Render', exact: true }).click()
  const detail = page.locator('.render-detail[data-status="COMPLETE"]')
  await detail.waitFor({ timeout: 120_000 })
  const jobId = await detail.getAttribute('data-render')
  const job = (await ctx.svc.call('GET', `/v1/render/${jobId}?data=true`)).body
  assert.is(job.status, 'COMPLETE')
  assert.equal(job.data.merge, saved.template.merge, 'rendered with the sample values')
  await shot(page, 'editor-template-rendered')
  assert.equal(await unlabelledControls(page), [])
  await page.close()
})

test('JSON view: typing moves the bar; broken JSON is shown at its line and column while the timeline keeps the last good edit', async () => {
  const page = await ctx.browser.newPage({ viewport: { width: 1400, height: 1000 } })
  const json = await openEditor(page, EDIT)
  const later = structuredClone(EDIT)
  later.timeline.tracks[1]!.clips[0]!.start = 1.5
  await json.fill(JSON.stringify(later, null, 2))
  await page.waitForFunction(() => document.querySelector('.timeline .clip[data-track="1"][data-clip="0"]')?.getAttribute('data-start') === '1.5')
  assert.match((await clip(page, 1, 0).getAttribute('aria-label')) ?? '', /from 1\.5 s for 3 s/)

  const broken = JSON.stringify(later, null, 2).replace('"length": 3', '"length": 3,,')
  await json.fill(broken)
  const line = broken.split('\n').findIndex((l) => l.includes('3,,')) + 1
  await page
    .locator('#timeline-issues')
    .getByText(new RegExp(`JSON syntax error: .* at line ${line}, column \\d+`))
    .waitFor()
  assert.is(await page.locator('.editor .line.bad').count(), 1, 'the line is marked')
  assert.is(await clip(page, 1, 0).getAttribute('data-start'), '1.5', 'the timeline keeps the last good edit')
  await shot(page, 'editor-json-broken')
  await json.fill(JSON.stringify(later, null, 2))
  await page.getByText('The timeline is valid.').waitFor({ timeout: 15_000 })
  await page.close()
})

test('snapping to whole seconds (Alt: none), multi-select, duplicate and a drag of both', async () => {
  const page = await ctx.browser.newPage({ viewport: { width: 1400, height: 1000 } })
  const json = await openEditor(page, EDIT)
  const title = clip(page, 0, 0)
  // 83 px is 1.0375 s: close enough to 1 s to snap there.
  await drag(page, await middle(title), 83, 0)
  let edit = await editWhen(json, (e) => e.timeline.tracks[0].clips[0].start !== 0)
  assert.is(edit.timeline.tracks[0].clips[0].start, 1, 'snapped to the whole second')
  await page.keyboard.press('Control+z')
  await editWhen(json, (e) => e.timeline.tracks[0].clips[0].start === 0)
  await drag(page, await middle(title), 83, 0, { alt: true })
  edit = await editWhen(json, (e) => e.timeline.tracks[0].clips[0].start !== 0)
  assert.is(edit.timeline.tracks[0].clips[0].start, 1.04, 'with Alt, where it was let go (on a frame)')
  await page.keyboard.press('Control+z')
  await editWhen(json, (e) => e.timeline.tracks[0].clips[0].start === 0)

  // Click one, Shift+click the other: both selected; Ctrl+D copies each after itself.
  await title.click()
  await clip(page, 1, 0).click({ modifiers: ['Shift'] })
  assert.is(await page.locator('.timeline .clip[aria-pressed="true"]').count(), 2)
  await page.keyboard.press('Control+d')
  edit = await editWhen(json, (e) => e.timeline.tracks[0].clips.length === 2)
  assert.equal(
    edit.timeline.tracks.map((t: { clips: { start: number; length: number }[] }) => t.clips.map((c) => [c.start, c.length])),
    [
      [
        [0, 2],
        [2, 2],
      ],
      [
        [0, 3],
        [3, 3],
      ],
    ],
  )
  assert.is(await page.locator('.timeline .clip[aria-pressed="true"]').count(), 2, 'the copies are selected')
  // Dragging one of the selected copies moves both.
  await drag(page, await middle(clip(page, 0, 1)), 80, 0)
  edit = await editWhen(json, (e) => e.timeline.tracks[0].clips[1].start !== 2)
  assert.equal([edit.timeline.tracks[0].clips[1].start, edit.timeline.tracks[1].clips[1].start], [3, 4])
  await shot(page, 'editor-multi-select')
  await page.close()
})

test('adding clips: a title at the playhead, a URL, an AI asset and an uploaded image from the library', async () => {
  const png = await solidPng(join(tempDir('reelforge-editor-'), 'logo.png'), 64, 32, '#3449c9')
  const page = await ctx.browser.newPage({ viewport: { width: 1400, height: 1000 } })
  const json = await openEditor(page, EDIT)
  // The playhead to 1 s by keyboard (a second per Shift+arrow).
  await page.getByRole('slider', { name: 'Playhead' }).focus()
  await page.keyboard.press('Shift+ArrowRight')
  assert.is(await page.getByRole('slider', { name: 'Playhead' }).getAttribute('aria-valuenow'), '1')
  await page.getByText('Add a clip').click()

  await page.getByRole('button', { name: 'Add title' }).click()
  let edit = await editWhen(json, (e) => e.timeline.tracks.length === 3)
  assert.equal(
    edit.timeline.tracks[0].clips[0],
    { asset: { type: 'title', text: 'A new title', style: 'minimal' }, start: 1, length: 3 },
    'on a new top track, at the playhead',
  )

  await page.getByLabel('URL', { exact: true }).fill('https://example.com/cat.png')
  await page.getByRole('button', { name: 'Add URL' }).click()
  edit = await editWhen(json, (e) => e.timeline.tracks.length === 4)
  assert.equal(edit.timeline.tracks[0].clips[0].asset, { type: 'image', src: 'https://example.com/cat.png' })
  // A URL the frame cannot load (no network here) is marked beside its field, not only under the preview.
  await clip(page, 0, 0).click()
  const unloaded = page.locator('.insp-field[data-path="asset.src"] .field-error')
  await unloaded.waitFor({ timeout: 20_000 })
  assert.match((await unloaded.textContent()) ?? '', /example\.com\/cat\.png/)

  await page.getByLabel('Prompt', { exact: true }).fill('a red fox in the snow')
  await page.getByRole('button', { name: 'Add AI asset' }).click()
  edit = await editWhen(json, (e) => e.timeline.tracks.length === 5)
  assert.equal(edit.timeline.tracks[0].clips[0].asset, { type: 'text-to-image', prompt: 'a red fox in the snow' })

  await page.getByLabel('Upload a file').setInputFiles(png)
  edit = await editWhen(json, (e) => e.timeline.tracks.length === 6)
  const src = edit.timeline.tracks[0].clips[0].asset.src as string
  assert.equal(edit.timeline.tracks[0].clips[0].asset.type, 'image')
  const sources = (await ctx.svc.call('GET', '/v1/sources')).body.sources as { url: string; filename: string }[]
  assert.is(sources.find((s) => s.filename === 'logo.png')?.url, src, 'the uploaded source, hosted')
  await page.locator('.library li').first().waitFor()
  assert.match((await page.locator('.library').textContent()) ?? '', /Add logo\.png/, 'and in the media library')
  assert.is(await page.locator('.timeline .clip').count(), 6)
  // The URL's clip is on the third track now: the frame of this edit names it there, and the uploaded image on
  // top (selected) is not marked with the error the URL's clip had when it was on top.
  await page.locator('#preview-error', { hasText: 'tracks[2].clips[0].asset.src' }).waitFor({ timeout: 20_000 })
  assert.is(await page.locator('.insp-field[data-path="asset.src"] .field-error').count(), 0)
  await shot(page, 'editor-added-clips')
  await page.close()
})

test('play: the playhead runs in real time and the preview draws frames along it, until paused', async () => {
  const page = await ctx.browser.newPage({ viewport: { width: 1400, height: 1000 } })
  await openEditor(page, EDIT)
  await page.locator('.preview img.frame:not(.stale)').waitFor({ timeout: 60_000 })
  const play = page.getByRole('button', { name: 'Play', exact: true })
  await play.click()
  assert.is(await page.getByRole('button', { name: 'Pause' }).getAttribute('aria-pressed'), 'true')
  // Frames of later times arrive while it plays.
  await page.waitForFunction(() => Number((document.querySelector('.preview img.frame') as HTMLImageElement | null)?.dataset.time) > 0.2, undefined, {
    timeout: 30_000,
  })
  await page.getByRole('button', { name: 'Pause' }).click()
  const at = Number(await page.getByRole('slider', { name: 'Playhead' }).getAttribute('aria-valuenow'))
  assert.ok(at > 0.2 && at <= 3, `the playhead moved on: ${at}`)
  await page.waitForTimeout(300)
  assert.is(Number(await page.getByRole('slider', { name: 'Playhead' }).getAttribute('aria-valuenow')), at, 'and stays once paused')
  await shot(page, 'editor-played')
  await page.close()
})

test.run()
