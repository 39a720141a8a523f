import { fileURLToPath } from 'node:url'
import { suite } from 'uvu'
import * as assert from 'uvu/assert'
import type { Browser, Locator, Page } from 'playwright-core'
import { launchBrowser, listen } from '../helpers/browser.js'
import { go, near, pixelAt, shot, signIn, unlabelledControls } from '../helpers/dashboard.js'
import { testService, type TestService } from '../helpers/service.js'

// The dashboard's visual editor in Debian's Chromium against a real server: pointer drags on the timeline and
// the preview, the inspector, keyboard shortcuts, templates and a render — each checked in the edit's JSON,
// in the frames the real renderer draws, and through the API.

const ctx = {} as { svc: TestService; http: Awaited<ReturnType<typeof listen>>; browser: Browser }
const test = suite('visual editor in a browser', ctx)
test.before(async () => {
  // A custom transition, effect and filter, as an operator's REELFORGE_PLUGINS would add them.
  const custom = fileURLToPath(new URL('../helpers/custom-look-plugins.ts', import.meta.url))
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
  await page.waitForFunction(() => document.querySelector('.timeline .clip[data-track="1"][data-clip="0"]')?.getAttribute('data-start') !== '0')
  const moved = await editOf(json)
  assert.ok(Math.abs(moved.timeline.tracks[1].clips[0].start - 2) <= FRAME, `start ${moved.timeline.tracks[1].clips[0].start}`)
  await shot(page, 'editor-dragged')

  // The end edge 80 px left: a second shorter.
  const b = (await shape.boundingBox())!
  await drag(page, { x: b.x + b.width - 3, y: b.y + b.height / 2 }, -80, 0)
  await page.waitForFunction(() => document.querySelector('.timeline .clip[data-track="1"][data-clip="0"]')?.getAttribute('data-length') !== '3')
  const trimmed = await editOf(json)
  assert.ok(Math.abs(trimmed.timeline.tracks[1].clips[0].length - 2) <= FRAME, `length ${trimmed.timeline.tracks[1].clips[0].length}`)
  assert.is(trimmed.timeline.tracks[1].clips[0].start, moved.timeline.tracks[1].clips[0].start, 'trimming the end keeps the start')

  // One row up: onto the title's track; the emptied track goes (the API refuses a track without clips).
  await drag(page, await middle(shape), 0, -44)
  await page.locator('.timeline .clip[data-track="0"][data-clip="1"]').waitFor()
  const across = await editOf(json)
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
  await shot(page, 'editor-inspector-colour')
  await page.close()
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

test.run()
