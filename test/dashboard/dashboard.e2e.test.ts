import { writeFileSync } from 'node:fs'
import { basename, join } from 'node:path'
import { suite } from 'uvu'
import * as assert from 'uvu/assert'
import type { Browser, Page } from 'playwright-core'
import { ffmpegArgs, runFfmpeg } from '../../core/index.js'
import { ManualClock } from '../../service/lib/clock.js'
import { RETRY_SCHEDULE_MS } from '../../service/webhooks/outbox.js'
import { launchBrowser, listen, SCREENSHOTS } from '../helpers/browser.js'
import { go, near, pixelAt, shot, signIn as signInAt, unlabelledControls } from '../helpers/dashboard.js'
import { tempDir } from '../helpers/media.js'
import { startPythonServer } from '../helpers/python-http.js'
import { startReceiver } from '../helpers/receiver.js'
import { espeakSpeech } from '../helpers/transcription.js'
import { testService, type TestService } from '../helpers/service.js'

// The dashboard in Debian's Chromium against a real server: real renders, real webhook deliveries; the
// retry schedule (hours) is walked with a manual clock.

const ctx = {} as {
  svc: TestService
  clock: ManualClock
  http: Awaited<ReturnType<typeof listen>>
  browser: Browser
  receiver: Awaited<ReturnType<typeof startReceiver>>
  admin: string
}
const test = suite('dashboard in a browser', ctx)
test.before(async () => {
  ctx.clock = new ManualClock()
  ctx.svc = await testService({ start: true, overrides: { clock: ctx.clock } })
  ctx.admin = (await ctx.svc.keys.create({ admin: true, accountId: ctx.svc.liveAccount })).key
  ctx.http = await listen(ctx.svc)
  ctx.receiver = await startReceiver()
  ctx.browser = await launchBrowser()
})
test.after(async () => {
  await ctx.browser?.close()
  await ctx.http?.close()
  await ctx.receiver?.close()
  await ctx.svc?.close()
})

const signIn = (page: Page, key: string) => signInAt(page, ctx.http.url, key)

test('sign in, see inline validation, render from the playground to COMPLETE and play the video', async () => {
  const page = await ctx.browser.newPage({ viewport: { width: 1280, height: 900 } })
  const bad = await ctx.browser.newPage()
  await bad.goto(`${ctx.http.url}/dashboard`)
  await bad.getByLabel('API key').fill('rf_live_wrong')
  await bad.getByRole('button', { name: 'Sign in' }).click()
  await bad.getByText('That key is not valid').waitFor()
  await bad.close()

  await signIn(page, ctx.svc.live)
  await go(page, 'Playground')
  const editor = page.getByLabel('Timeline JSON (Shotstack format)')
  await page.getByText('The timeline is valid.').waitFor({ timeout: 15_000 })

  // A broken edit: the issue appears on the line of its path, and in the list.
  const broken = JSON.parse(await editor.inputValue())
  broken.timeline.tracks[0].clips[0].length = -3
  await editor.fill(JSON.stringify(broken, null, 2))
  const inline = page.locator('.editor .line.bad .inline-issue')
  await inline.first().waitFor({ timeout: 15_000 })
  assert.match((await inline.first().textContent()) ?? '', /timeline\.tracks\[0\]\.clips\[0\]\.length/)
  const badLine = await page.locator('.editor .line').evaluateAll((lines) => lines.findIndex((l) => l.classList.contains('bad')) + 1)
  const text = await editor.inputValue()
  assert.match(text.split('\n')[badLine - 1]!, /"length": -3/, 'marked on the line that holds the value')
  assert.is(await editor.getAttribute('aria-invalid'), 'true')
  await shot(page, 'playground-invalid')
  await page.getByRole('button', { name: `line ${badLine}` }).click()
  assert.is(
    await editor.evaluate((el: HTMLTextAreaElement) => el.value.slice(el.selectionStart, el.selectionEnd)),
    '"length": -3',
    'the issue selects its field',
  )

  await page.getByRole('button', { name: 'Reset example' }).click()
  await page.getByText('The timeline is valid.').waitFor({ timeout: 15_000 })
  await page.getByRole('button', { name: 'Render', exact: true }).click()
  const detail = page.locator('.render-detail[data-status="COMPLETE"]')
  await detail.waitFor({ timeout: 120_000 })
  const video = detail.locator('video')
  await page.waitForFunction(() => ((document.querySelector('.render-detail video') as HTMLVideoElement | null)?.readyState ?? 0) >= 1, undefined, {
    timeout: 20_000,
  })
  const meta = await video.evaluate((v: HTMLVideoElement) => ({ duration: v.duration, width: v.videoWidth, height: v.videoHeight, src: v.currentSrc }))
  assert.ok(Math.abs(meta.duration - 2) < 0.2, `video of the 2 s edit lasts ${meta.duration}`)
  assert.ok(meta.width > 0 && meta.width <= 512, `preview resolution, got ${meta.width}×${meta.height}`)
  assert.match(meta.src, /\/v1\/files\//)
  await shot(page, 'playground-complete')

  // The Renders page lists it; its page plays it and shows the submitted timeline.
  await go(page, 'Renders')
  const row = page.locator('tr[data-status="COMPLETE"]').first()
  await row.waitFor()
  await row.getByRole('link').click()
  await page.locator('.render-detail video').waitFor()
  await page.getByLabel('submitted timeline').waitFor()
  assert.match((await page.getByLabel('submitted timeline').textContent()) ?? '', /Hello from the playground/)
  assert.match((await page.getByLabel('submitted timeline').textContent()) ?? '', /"resolution": "preview"/)
  await shot(page, 'render-detail')
  assert.equal(await unlabelledControls(page), [])
  await page.close()
})

/** Blue for the first second, then red (a full-frame rectangle): a frame's colour says which second it is. */
const BLUE_THEN_RED = {
  timeline: {
    background: '#0000ff',
    tracks: [
      { clips: [{ asset: { type: 'shape', shape: 'rectangle', rectangle: { width: 320, height: 180 }, fill: { color: '#ff0000' } }, start: 1, length: 1 }] },
    ],
  },
  output: { format: 'mp4', size: { width: 320, height: 180 }, fps: 25, poster: { capture: 1.5 } },
}
/** The RGB of the frame preview's middle pixel. */
const middlePixel = (page: Page) => pixelAt(page, 'img.frame')
/** Scrubs the frame preview to `time` (as a release of the thumb does) and waits for that frame to show. */
async function scrubTo(page: Page, time: number) {
  await page.getByLabel('Time', { exact: true }).fill(String(time))
  await page.waitForFunction(
    (t) => {
      const img = document.querySelector('img.frame') as HTMLImageElement | null
      return !!img && img.dataset.time === String(t) && img.complete && img.naturalWidth > 0
    },
    time,
    { timeout: 20_000 },
  )
}

test('playground: syntax errors in words, a frame preview that scrubs, a render followed live with its poster', async () => {
  const page = await ctx.browser.newPage({ viewport: { width: 1280, height: 900 } })
  const requests: string[] = []
  page.on('request', (r) => requests.push(`${r.method()} ${new URL(r.url()).pathname}`))
  await signIn(page, ctx.svc.live)
  await go(page, 'Playground')
  const editor = page.getByLabel('Timeline JSON (Shotstack format)')
  await page.getByText('The timeline is valid.').waitFor({ timeout: 15_000 })

  // A missing comma and a missing end: each said in words at its line and column, never as an engine position.
  const issues = page.locator('#timeline-issues')
  await editor.fill('{\n  "timeline": {\n    "tracks": []\n  }\n  "output": {}\n}')
  await issues.getByText("JSON syntax error: expected ',' or '}' after property value at line 5, column 3").waitFor()
  await editor.fill('{\n  "timeline": {\n    "tracks": [\n')
  await issues.getByText('JSON syntax error: unexpected end of input at line 3, column 16').waitFor()
  await page.getByRole('button', { name: 'Render', exact: true }).click()
  await page.getByText('The timeline is not valid JSON: unexpected end of input at line 3, column 16.').waitFor()
  assert.not.match((await page.locator('main').textContent()) ?? '', /position \d|Unexpected end of JSON input/)
  await shot(page, 'playground-syntax')

  // Frame preview: the PNG at the edit's own size; scrubbing into the second second turns it red.
  await editor.fill(JSON.stringify(BLUE_THEN_RED, null, 2))
  await page.getByText('The timeline is valid.').waitFor({ timeout: 15_000 })
  assert.is(await page.getByLabel('Time', { exact: true }).getAttribute('max'), '2', 'the scrubber spans the edit')
  await scrubTo(page, 0.5)
  const size = await page.locator('img.frame').evaluate((img: HTMLImageElement) => [img.naturalWidth, img.naturalHeight])
  assert.equal(size, [320, 180], "the frame is drawn at the edit's output size")
  const blue = await middlePixel(page)
  assert.ok(near(blue, [0, 0, 255]), `blue at 0.5 s: ${blue}`)
  await scrubTo(page, 1.5)
  const red = await middlePixel(page)
  assert.ok(near(red, [255, 0, 0]), `red at 1.5 s: ${red}`)
  assert.is(requests.filter((r) => r === 'POST /v1/render/frame').length, 2, 'one frame asked per release')
  await shot(page, 'playground-frame')

  // An edit the server refuses: the preview says why, by path.
  const broken = structuredClone(BLUE_THEN_RED)
  broken.timeline.tracks[0]!.clips[0]!.length = -3
  await editor.fill(JSON.stringify(broken, null, 2))
  await page.getByRole('button', { name: 'Preview frame' }).click()
  await page.locator('#frame-error').getByText('timeline.tracks[0].clips[0].length').waitFor()

  // Render: the result opens under the Render button (not at the foot of the page), is scrolled into view, and
  // follows the render's events to COMPLETE, never polling its status.
  await editor.fill(JSON.stringify(BLUE_THEN_RED, null, 2))
  await page.getByText('The timeline is valid.').waitFor({ timeout: 15_000 })
  const button = page.getByRole('button', { name: 'Render', exact: true })
  await button.click()
  const detail = page.locator('.render-detail[data-status="COMPLETE"]')
  await detail.waitFor({ timeout: 120_000 })
  const id = (await detail.getAttribute('data-render'))!
  // The video first knows its size when its metadata arrives (the panel grows then); smooth scrolling may still be
  // moving: let both settle before reading where the panel is.
  await detail
    .locator('video')
    .evaluate((v: HTMLVideoElement) => v.readyState >= 1 || new Promise((done) => v.addEventListener('loadedmetadata', done, { once: true })))
  await page.waitForTimeout(800)
  const { top, bottom } = await detail.evaluate((el) => el.getBoundingClientRect())
  assert.ok(top >= -1 && bottom <= 900 + 1, `the whole result is in view (from ${top}px to ${bottom}px of 900)`)
  const below = top - (await button.evaluate((el) => el.getBoundingClientRect().bottom))
  assert.ok(below >= 0 && below < 80, `the result is right under the Render button (${below}px below it)`)
  assert.ok(
    await detail.evaluate((el) => !!(el.compareDocumentPosition(document.querySelector('#frame-title')!) & Node.DOCUMENT_POSITION_FOLLOWING)),
    'before the frame preview and the template form, not after them',
  )
  assert.is(requests.filter((r) => r === `GET /v1/render/${id}/events`).length, 1, 'followed through its events')
  assert.equal(
    requests.filter((r) => r === `GET /v1/render/${id}`),
    [],
    'no status polls',
  )
  const job = (await ctx.svc.call('GET', `/v1/render/${id}`)).body
  assert.match(job.poster ?? '', /\/v1\/files\//, 'the render has a poster')
  assert.is(await detail.locator('video').getAttribute('poster'), job.poster, 'the player shows it')
  assert.is(await detail.locator('h2 code').textContent(), id.slice(-8), 'its heading: the id, short and unique')
  assert.is(await detail.locator('.job-id code').textContent(), id, 'its facts: the whole id')
  assert.equal(await unlabelledControls(page), [])
  await shot(page, 'playground-live-complete')
  await page.close()
})

test('renders made in the same second show different ids, each copyable whole; a render page follows its events', async () => {
  const page = await ctx.browser.newPage({ viewport: { width: 1280, height: 900 }, permissions: ['clipboard-read', 'clipboard-write'] })
  const requests: string[] = []
  page.on('request', (r) => requests.push(`${r.method()} ${new URL(r.url()).pathname}`))
  const edit = {
    timeline: { tracks: [{ clips: [{ asset: { type: 'title', text: 'twin' }, start: 0, length: 3 }] }] },
    output: { format: 'mp4', resolution: 'preview' },
  }
  const submit = async (): Promise<string> => (await ctx.svc.call('POST', '/v1/render', { body: edit })).body.jobId
  const [a, b] = await Promise.all([submit(), submit()])
  assert.is(a.slice(0, 8), b.slice(0, 8), 'UUIDv7 ids made together begin alike (their time)')
  await signIn(page, ctx.svc.live)
  const shown = async (id: string) => (await page.locator(`tr[data-render="${id}"] .job-id code`).textContent())!
  await page.locator(`tr[data-render="${b}"]`).waitFor()
  assert.equal([await shown(a), await shown(b)], [a.slice(-8), b.slice(-8)])
  assert.is.not(await shown(a), await shown(b), 'two renders of the same second read differently')
  await page.getByRole('button', { name: `Copy render id ${a.slice(-8)}` }).click()
  await page.getByText(`Copied the id of render ${a.slice(-8)}.`).waitFor()
  assert.is(await page.evaluate(() => navigator.clipboard.readText()), a, 'the whole id is copied')

  // Its page: the whole id, and the render followed to its end with one read of the submitted edit.
  await page.locator(`tr[data-render="${a}"] .job-id a`).click()
  await page.locator(`.render-detail[data-render="${a}"][data-status="COMPLETE"]`).waitFor({ timeout: 120_000 })
  assert.is(await page.locator('.render-detail .job-id code').textContent(), a)
  assert.ok(requests.filter((r) => r === `GET /v1/render/${a}`).length <= 1, `no status polls: ${requests.filter((r) => r.includes(a))}`)
  await ctx.svc.waitFor(b, ['COMPLETE'], ctx.svc.live, 120_000)
  await shot(page, 'render-ids')

  // Where the events cannot be read (here: refused), the playground's result falls back to polling, and still ends.
  await page.route('**/v1/render/*/events', (route) => route.abort())
  await go(page, 'Playground')
  await page.getByRole('button', { name: 'Reset example' }).click()
  await page.getByText('The timeline is valid.').waitFor({ timeout: 15_000 })
  await page.getByRole('button', { name: 'Render', exact: true }).click()
  const detail = page.locator('.render-detail[data-status="COMPLETE"]')
  await detail.waitFor({ timeout: 120_000 })
  const id = (await detail.getAttribute('data-render'))!
  assert.ok(requests.includes(`GET /v1/render/${id}/events`), 'the stream was tried first')
  assert.ok(requests.includes(`GET /v1/render/${id}`), 'then the status was polled')
  await page.close()
})

test('a running render is cancelled from its page: it ends FAILED "cancelled" in the stage it was in', async () => {
  const page = await ctx.browser.newPage({ viewport: { width: 1280, height: 900 } })
  const long = {
    timeline: { tracks: [{ clips: [{ asset: { type: 'title', text: 'long' }, start: 0, length: 120 }] }] },
    output: { format: 'mp4', resolution: 'sd' },
  }
  const id = (await ctx.svc.call('POST', '/v1/render', { body: long })).body.jobId
  await ctx.svc.waitFor(id, ['PROCESSING'])
  await signIn(page, ctx.svc.live)
  await page.goto(`${ctx.http.url}/dashboard#/renders/${id}`)
  await page.getByRole('button', { name: 'Cancel render' }).click()
  await page.locator(`.render-detail[data-render="${id}"][data-status="FAILED"]`).waitFor({ timeout: 15_000 })
  await page.getByText(/^Failed while (fetching|rendering|encoding): cancelled$/).waitFor()
  assert.is(await page.getByRole('button', { name: 'Cancel render' }).count(), 0, 'no cancel button once it ended')
  await shot(page, 'render-cancelled')
  await page.close()
})

test('GET / sends a browser to the dashboard', async () => {
  const res = await fetch(`${ctx.http.url}/`, { redirect: 'manual' })
  assert.is(res.status, 302)
  assert.is(res.headers.get('location'), '/dashboard')
  const page = await ctx.browser.newPage()
  await page.goto(`${ctx.http.url}/`)
  assert.is(new URL(page.url()).pathname, '/dashboard')
  await page.getByLabel('API key').waitFor()
  await page.close()
})

test('templates: save one from the playground, render it with a new merge value, edit it there, delete it', async () => {
  const page = await ctx.browser.newPage({ viewport: { width: 1280, height: 900 } })
  await signIn(page, ctx.svc.live)
  await go(page, 'Playground')
  const note = (await page.locator('#timeline-note').textContent()) ?? ''
  assert.match(note, /offset\.y counts downwards \(this server's \/v1 default, serve --y-axis\); Shotstack counts upwards/)

  const promo = {
    timeline: { background: '#000000', tracks: [{ clips: [{ asset: { type: 'title', text: '{{ TITLE }}' }, start: 0, length: 1 }] }] },
    output: { format: 'mp4', resolution: 'preview' },
    merge: [{ find: 'TITLE', replace: 'Hello' }],
  }
  const editor = page.getByLabel('Timeline JSON (Shotstack format)')
  await editor.fill(JSON.stringify(promo, null, 2))
  await page.getByText('The timeline is valid.').waitFor({ timeout: 15_000 })
  await page.getByLabel('Template name').fill('Promo')
  await page.getByRole('button', { name: 'Save as template' }).click()

  // Its page: the merge field as a labelled input holding the template's own default.
  await page.getByRole('heading', { level: 1, name: 'Promo' }).waitFor()
  const id = /#\/templates\/([0-9a-f-]{36})$/.exec(page.url())?.[1]
  assert.ok(id, `on the new template's page: ${page.url()}`)
  const title = page.getByLabel('TITLE', { exact: true })
  assert.is(await title.inputValue(), 'Hello', "prefilled with the template's merge value")
  assert.equal(await unlabelledControls(page), [])
  await title.fill('Bonjour')
  await page.getByRole('button', { name: 'Render', exact: true }).click()
  const detail = page.locator('.render-detail[data-status="COMPLETE"]')
  await detail.waitFor({ timeout: 120_000 })
  const jobId = (await detail.getAttribute('data-render'))!
  const job = await ctx.svc.call('GET', `/v1/render/${jobId}?data=true`)
  assert.equal(job.body.data.merge, [{ find: 'TITLE', replace: 'Bonjour' }], "the job's edit carries the value typed in")
  assert.is(job.body.data.timeline.tracks[0].clips[0].asset.text, '{{ TITLE }}', 'merged at render time, not into the template')
  await shot(page, 'template')

  // Edit in playground: the edit becomes the draft; a refused save marks its issue on the line, with the editor's path.
  await page.getByRole('button', { name: 'Edit in playground' }).click()
  await page.getByText('Editing template Promo').waitFor()
  assert.equal(JSON.parse(await editor.inputValue()), promo)
  const broken = structuredClone(promo)
  broken.timeline.tracks[0]!.clips[0]!.length = -3
  await editor.fill(JSON.stringify(broken, null, 2))
  await page.getByRole('button', { name: 'Save template' }).click()
  await page.getByText('Not saved: the timeline has 1 issue, marked in the editor.').waitFor()
  const inline = (await page.locator('.editor .line.bad .inline-issue').first().textContent()) ?? ''
  assert.match(inline, /^\s*⚠ timeline\.tracks\[0\]\.clips\[0\]\.length: /, 'the path without its template. prefix')
  await shot(page, 'playground-template-invalid')

  const changed = structuredClone(promo)
  changed.timeline.tracks[0]!.clips[0]!.asset.text = 'Big {{ TITLE }}'
  changed.timeline.tracks[0]!.clips[0]!.length = 2
  await editor.fill(JSON.stringify(changed, null, 2))
  await page.getByRole('button', { name: 'Save template' }).click()
  await page.getByText('Template Promo saved').waitFor()
  const saved = await ctx.svc.call('GET', `/v1/templates/${id}`)
  assert.equal(saved.body.template, changed, 'the edited timeline is the template now')
  assert.equal(saved.body.merge_fields, [{ find: 'TITLE', fields: ['timeline.tracks[0].clips[0].asset.text'] }])
  await shot(page, 'playground-template')
  await page.getByRole('button', { name: 'Stop editing' }).click()
  assert.is(await page.getByText('Editing template').count(), 0)
  assert.is(await page.evaluate(() => sessionStorage.getItem('reelforge.playground.template')), null)

  // The list, then delete (a second click confirms) back to an empty list.
  await go(page, 'Templates')
  const row = page.locator(`tr[data-template="${id}"]`)
  await row.waitFor()
  assert.match((await row.textContent()) ?? '', /Promo.*TITLE/)
  assert.equal(await unlabelledControls(page), [])
  await shot(page, 'templates')
  await row.getByRole('link', { name: 'Promo' }).click()
  await page.getByRole('button', { name: 'Delete', exact: true }).click()
  await page.getByRole('button', { name: 'Delete Promo for good' }).click()
  await page.getByText('No templates yet.').waitFor()
  assert.ok(page.url().endsWith('#/templates'))
  assert.is((await ctx.svc.call('GET', `/v1/templates/${id}`)).status, 404)

  // A template saved without values, as Shotstack's Templates guide saves one: its page lists each placeholder with
  // the fields it feeds; a render missing one is refused naming them; with every value it renders.
  const guide = {
    timeline: {
      background: '{{ BACKGROUND }}',
      tracks: [
        {
          clips: [
            { asset: { type: 'title', text: '{{ TITLE }}' }, start: 0, length: '{{ LENGTH }}' },
            { asset: { type: 'title', text: 'the end' }, start: '{{ LENGTH }}', length: 0.5 },
          ],
        },
      ],
    },
    output: { format: 'mp4', resolution: 'preview' },
  }
  const made = await ctx.svc.call('POST', '/v1/templates', { body: { name: 'Guide', template: guide } })
  assert.is(made.status, 201, JSON.stringify(made.body))
  await page.goto(`${ctx.http.url}/dashboard#/templates/${made.body.id}`)
  await page.getByRole('heading', { level: 1, name: 'Guide' }).waitFor()
  const feeds = async (label: string) => {
    const described = await page.getByLabel(label, { exact: true }).getAttribute('aria-describedby')
    return page.locator(`[id="${described}"] code`).allTextContents()
  }
  assert.equal(await feeds('BACKGROUND'), ['timeline.background'])
  assert.equal(await feeds('TITLE'), ['timeline.tracks[0].clips[0].asset.text'])
  assert.equal(await feeds('LENGTH'), ['timeline.tracks[0].clips[0].length', 'timeline.tracks[0].clips[1].start'])
  assert.is(await page.getByLabel('LENGTH', { exact: true }).inputValue(), '', 'no saved value to prefill')
  assert.equal(await unlabelledControls(page), [])
  await page.getByLabel('TITLE', { exact: true }).fill('Hello guide')
  await page.getByLabel('BACKGROUND', { exact: true }).fill('#203040')
  await page.getByRole('button', { name: 'Render', exact: true }).click()
  const refusal = page.getByRole('alert').getByRole('listitem')
  await refusal.first().waitFor()
  assert.equal(await refusal.allTextContents(), [
    'merge {{ LENGTH }} has no value in merge; it feeds timeline.tracks[0].clips[0].length and timeline.tracks[0].clips[1].start',
  ])
  await shot(page, 'template-placeholders')
  await page.getByLabel('LENGTH', { exact: true }).fill('1')
  await page.getByRole('button', { name: 'Render', exact: true }).click()
  const guided = page.locator('.render-detail[data-status="COMPLETE"]')
  await guided.waitFor({ timeout: 120_000 })
  const guideJob = await ctx.svc.call('GET', `/v1/render/${await guided.getAttribute('data-render')}`)
  assert.ok(Math.abs(guideJob.body.duration - 1.5) < 0.05, `LENGTH 1 + the 0.5 s end card, got ${guideJob.body.duration}`)
  await ctx.svc.call('DELETE', `/v1/templates/${made.body.id}`)
  await page.close()
})

test('a failing receiver: the delivery shows failed, Replay against a healthy receiver delivers it', async () => {
  const page = await ctx.browser.newPage({ viewport: { width: 1280, height: 900 } })
  await signIn(page, ctx.svc.live)
  await go(page, 'Webhooks')
  await page.getByLabel('URL').fill(`${ctx.receiver.url}/hook`)
  await page.getByLabel('Signing secret (16 characters or more)').fill('dashboard-secret-123')
  await page.getByRole('button', { name: 'Save webhook' }).click()
  await page.getByText('Saved.').waitFor()
  assert.equal((await ctx.svc.call('GET', '/v1/webhooks')).body.events, ['render.complete', 'render.failed'])

  ctx.receiver.setStatus(500)
  const before = ctx.receiver.received.length
  const job = (
    await ctx.svc.call('POST', '/v1/render', {
      body: {
        timeline: { tracks: [{ clips: [{ asset: { type: 'title', text: 'hook' }, start: 0, length: 1 }] }] },
        output: { format: 'mp4', resolution: 'preview' },
      },
    })
  ).body.jobId
  await ctx.svc.waitFor(job, ['COMPLETE'], ctx.svc.live, 120_000)
  await ctx.receiver.waitFor(before + 1)
  // The first attempt is still being recorded (its retry time read from the clock): let it finish before the
  // clock moves, or the retry is scheduled from the advanced time and nothing is due yet.
  await ctx.svc.outbox.tick()
  // Walk the retry schedule (30 s … 6 h) on the manual clock: five more refused attempts, then failed.
  for (const [i, ms] of RETRY_SCHEDULE_MS.entries()) {
    ctx.clock.advance(ms)
    await ctx.svc.outbox.tick()
    assert.is(ctx.receiver.received.length, before + 2 + i)
  }
  await page.getByLabel('Status').selectOption('failed')
  const failed = page.locator('li[data-status="failed"]').filter({ hasText: 'render.complete' })
  await failed.waitFor({ timeout: 10_000 })
  await failed.getByText('Payload and attempts').click()
  assert.is(await failed.locator('tbody tr').count(), 6, 'every attempt with its response')
  assert.match((await failed.locator('tbody').textContent()) ?? '', /HTTP 500/)
  assert.match((await failed.locator('pre').textContent()) ?? '', new RegExp(job))
  await shot(page, 'webhook-failed')

  ctx.receiver.setStatus(200)
  const id = await failed.getAttribute('data-delivery')
  await page.getByLabel('Status').selectOption('')
  await page.getByRole('button', { name: `Replay delivery ${id}` }).click()
  await page.locator(`li[data-delivery="${id}"][data-status="delivered"]`).waitFor({ timeout: 15_000 })
  const last = ctx.receiver.received.at(-1)!
  assert.is(last.headers['webhook-id'], id)
  assert.is(last.json.data.id, job)
  await shot(page, 'webhook-replayed')
  assert.equal(await unlabelledControls(page), [])
  await page.close()
})

test('wallet, images and keys pages; an admin creates and revokes a key', async () => {
  const page = await ctx.browser.newPage({ viewport: { width: 1280, height: 900 } })
  await signIn(page, ctx.admin)
  await go(page, 'Wallet')
  const balance = (await ctx.svc.call('GET', '/v1/wallet')).body.balance
  await page
    .getByTestId('balance')
    .filter({ hasText: String(Math.round(balance * 100) / 100) })
    .waitFor()
  await page.getByLabel('Low-balance threshold (credits)').fill('25')
  await page.getByRole('button', { name: 'Set threshold' }).click()
  await page.getByText('Threshold saved.').waitFor()
  assert.is((await ctx.svc.call('GET', '/v1/wallet')).body.low_balance_threshold, 25)
  assert.ok((await page.locator('table tbody tr').count()) > 0, 'the ledger is listed')
  await shot(page, 'wallet')

  await go(page, 'Images')
  await page.getByLabel('Prompt').fill('a lighthouse at dusk')
  await page.getByLabel('Model').selectOption('dall-e-3')
  await page.getByLabel('Style').selectOption('vivid')
  await page.getByLabel('Size').selectOption('1024x576')
  await page.getByRole('button', { name: 'Generate' }).click()
  const card = page.locator('.gallery li').first()
  await card.locator('img').waitFor({ timeout: 30_000 })
  assert.match((await card.textContent()) ?? '', /dall-e-3 · 1024×576/)
  await page.waitForFunction(() => (document.querySelector('.gallery img') as HTMLImageElement | null)?.naturalWidth === 1024)
  await shot(page, 'images')

  await go(page, 'Keys')
  await page.getByLabel('Sandbox (free, watermarked renders)').check()
  await page.getByRole('button', { name: 'Create key' }).click()
  const key = (await page.getByTestId('new-key').textContent())!
  assert.match(key, /^rf_test_/)
  assert.is((await ctx.svc.call('GET', '/v1/me', { key })).status, 200)
  const prefix = key.slice(0, 12)
  page.once('dialog', (d) => void d.accept())
  await page.getByRole('button', { name: `Revoke key ${prefix}` }).click()
  await page.getByText(`Key ${prefix}… revoked.`).waitFor()
  assert.is((await ctx.svc.call('GET', '/v1/me', { key })).status, 401)
  await shot(page, 'keys')
  assert.equal(await unlabelledControls(page), [])
  await page.close()
})

test('AI page: a sandbox key writes a script, then speaks a line and plays it with its timed words', async () => {
  const page = await ctx.browser.newPage({ viewport: { width: 1280, height: 900 } })
  const key = ctx.svc.sandbox
  await signIn(page, key)
  await go(page, 'AI')
  await page.getByRole('heading', { level: 1, name: 'AI' }).waitFor()
  await page.getByText('No text jobs yet.').waitFor()
  assert.equal(await unlabelledControls(page), [])

  // Text: the deterministic sandbox script appears, exactly as the API has it.
  await page.getByLabel('Prompt', { exact: true }).fill('a short video script about a lighthouse at dusk')
  await page.getByRole('button', { name: 'Write text' }).click()
  const written = page.locator('.ai-result[data-status="complete"]')
  await written.locator('.ai-text').waitFor({ timeout: 30_000 })
  const textJob = (await ctx.svc.call('GET', `/v1/ai/text/${await written.getAttribute('data-job')}`, { key })).body
  assert.is(textJob.status, 'complete')
  assert.match(textJob.text, /^Lighthouse at Dusk\n/, 'the title line comes from the prompt')
  assert.is(await written.locator('.ai-text').textContent(), textJob.text)
  await page.locator(`tr[data-job="${textJob.id}"][data-status="complete"]`).waitFor()
  await shot(page, 'ai-text')

  // Speech (espeak): an <audio> of the job's file that the browser can play, and every word with its time.
  await page.getByRole('navigation', { name: 'AI kind' }).getByRole('link', { name: 'Speech' }).click()
  await page.getByText('No speech jobs yet.').waitFor()
  await page.getByLabel('Text to speak').fill('Hello from the dashboard')
  await page.getByRole('button', { name: 'Speak', exact: true }).click()
  const spoken = page.locator('.ai-result[data-status="complete"]')
  const audio = spoken.locator('audio')
  await audio.waitFor({ timeout: 60_000 })
  const speechJob = (await ctx.svc.call('GET', `/v1/ai/speech/${await spoken.getAttribute('data-job')}`, { key })).body
  assert.ok(speechJob.url, 'the job has a file')
  assert.is(await audio.getAttribute('src'), speechJob.url)
  assert.match(speechJob.url, /\.mp3$/)
  await page.waitForFunction(() => ((document.querySelector('.ai-result audio') as HTMLAudioElement | null)?.readyState ?? 0) >= 1, undefined, {
    timeout: 20_000,
  })
  const seconds = await audio.evaluate((a: HTMLAudioElement) => a.duration)
  assert.ok(Math.abs(seconds - speechJob.duration) < 0.3, `the audio lasts ${seconds} s, the job says ${speechJob.duration} s`)
  const words = await spoken.locator('.ai-words li').allTextContents()
  assert.is(words.length, speechJob.words.length)
  assert.match(words.join(' '), /^Hello .*dashboard/)
  assert.equal(await unlabelledControls(page), [])
  await shot(page, 'ai-speech')
  await page.close()
})

test('AI page: a transcription with its subtitles, a sandbox video that plays, an image upscaled ×2', async () => {
  // Files on an ordinary web host (Python's http.server) for the kinds that take a URL.
  const served = tempDir('reelforge-ai-served-')
  const talk = await espeakSpeech(served, 'talk', 'Seven boats sailed out of the harbour', 'en-us+klatt', 175)
  await runFfmpeg(ffmpegArgs`-v error -y -f lavfi -i color=c=0x3449c9:s=64x48 -frames:v 1 ${join(served, 'small.png')}`)
  const host = await startPythonServer(served)
  const page = await ctx.browser.newPage({ viewport: { width: 1280, height: 900 } })
  const key = ctx.svc.sandbox
  const kind = (name: string) => page.getByRole('navigation', { name: 'AI kind' }).getByRole('link', { name }).click()
  const finished = async (k: string) => {
    const card = page.locator('.ai-result[data-status="complete"]')
    await card.waitFor({ timeout: 90_000 })
    return { card, job: (await ctx.svc.call('GET', `/v1/ai/${k}/${await card.getAttribute('data-job')}`, { key })).body }
  }
  try {
    await signIn(page, key)
    await go(page, 'AI')

    // Transcription (PocketSphinx): the heard text, its timed words and the SRT/WebVTT links of the job.
    await kind('Transcription')
    await page.getByLabel('Audio or video URL').fill(`${host.url}/${basename(talk.path)}`)
    await page.getByRole('button', { name: 'Transcribe', exact: true }).click()
    const heard = await finished('transcription')
    assert.ok(heard.job.words.length > 0, 'words were heard')
    assert.is(await heard.card.locator('.ai-words li').count(), heard.job.words.length)
    const links = await heard.card.getByRole('link').evaluateAll((as) => as.map((a) => [a.textContent, (a as HTMLAnchorElement).href]))
    assert.equal(links, [
      ['SRT', heard.job.files.srt],
      ['VTT', heard.job.files.vtt],
    ])

    // Video (the sandbox's moving picture): a <video> of the job's file that the browser loads at its length.
    await kind('Video')
    await page.getByLabel('Prompt').fill('waves at dusk')
    await page.getByLabel('Duration (seconds)').fill('1')
    await page.getByRole('button', { name: 'Generate video' }).click()
    const made = await finished('video')
    const video = made.card.locator('video')
    assert.is(await video.getAttribute('src'), made.job.url)
    await page.waitForFunction(() => ((document.querySelector('.ai-result video') as HTMLVideoElement | null)?.readyState ?? 0) >= 1, undefined, {
      timeout: 20_000,
    })
    assert.ok(Math.abs((await video.evaluate((v: HTMLVideoElement) => v.duration)) - 1) < 0.1, 'the clip lasts the second asked for')

    // Upscale (ffmpeg): the result is shown as an image twice the source's size.
    await kind('Upscale')
    await page.getByLabel('Image or video URL').fill(`${host.url}/small.png`)
    await page.getByLabel('Size').selectOption('×2')
    await page.getByRole('button', { name: 'Upscale', exact: true }).click()
    const big = await finished('upscale')
    const img = big.card.locator('img')
    assert.is(await img.getAttribute('src'), big.job.url)
    await page.waitForFunction(() => (document.querySelector('.ai-result img') as HTMLImageElement | null)?.complete === true)
    assert.equal(await img.evaluate((i: HTMLImageElement) => [i.naturalWidth, i.naturalHeight]), [128, 96])
    assert.equal(await unlabelledControls(page), [])
    await shot(page, 'ai-upscale')
  } finally {
    await page.close()
    await host.close()
  }
})

test('media: upload an image and a video, import from a URL, a failed import, use in playground, delete', async () => {
  const dir = tempDir('reelforge-media-')
  const png = join(dir, 'dot.png')
  const mp4 = join(dir, 'clip.mp4')
  await runFfmpeg(ffmpegArgs`-v error -y -f lavfi -i color=c=0x3449c9:s=64x48 -frames:v 1 ${png}`)
  await runFfmpeg(ffmpegArgs`-v error -y -f lavfi -i testsrc2=s=160x120:r=10:d=1 -c:v libx264 -preset ultrafast -pix_fmt yuv420p ${mp4}`)
  // A web host for imports: a real image, and an HTML page named like a video.
  const served = tempDir('reelforge-served-')
  await runFfmpeg(ffmpegArgs`-v error -y -f lavfi -i color=c=orange:s=32x32 -frames:v 1 ${join(served, 'remote.png')}`)
  writeFileSync(join(served, 'page.mp4'), '<!doctype html><html><body>not a video</body></html>')
  // Phone-like footage: an odd size and frame rate, which the editing copy normalises.
  await runFfmpeg(ffmpegArgs`-v error -y -f lavfi -i testsrc2=s=640x480:r=24:d=1 -c:v libx264 -preset ultrafast -pix_fmt yuv420p ${join(served, 'phone.mp4')}`)
  const host = await startPythonServer(served)
  const page = await ctx.browser.newPage({ viewport: { width: 1280, height: 900 }, permissions: ['clipboard-read', 'clipboard-write'] })
  try {
    await signIn(page, ctx.svc.live)
    await go(page, 'Media')
    await page.getByText('No media yet').waitFor()
    assert.equal(await unlabelledControls(page), [])

    // Upload through the file input: each file's bar fills, then says what the file turned out to be.
    await page.getByLabel('Files to upload').setInputFiles([png, mp4])
    for (const name of ['dot.png', 'clip.mp4']) await page.locator(`.uploads li[data-upload="${name}"][data-status="ready"]`).waitFor({ timeout: 30_000 })
    assert.ok(await page.getByLabel('upload of clip.mp4').evaluate((p: HTMLProgressElement) => p.value === p.max && p.max > 0), 'the bar is full')
    for (const name of ['dot.png', 'clip.mp4']) await page.locator(`tr[data-name="${name}"][data-status="ready"]`).waitFor({ timeout: 15_000 })
    const listed = async () => (await ctx.svc.call('GET', '/v1/sources')).body.sources as any[]
    const named = (all: any[], name: string) => all.find((s) => (s.url ?? s.input_url)?.endsWith(`/${name}`))
    const image = named(await listed(), 'dot.png')
    const video = named(await listed(), 'clip.mp4')
    assert.equal([image.type, image.width, image.height, image.content_type], ['image', 64, 48, 'image/png'])
    assert.equal([video.type, video.width, video.height], ['video', 160, 120])
    assert.ok(Math.abs(video.duration - 1) < 0.2, `the video lasts ${video.duration} s`)
    assert.match((await page.locator('tr[data-name="dot.png"]').textContent()) ?? '', /image.*ready.*64×48/)
    assert.match((await page.locator('tr[data-name="clip.mp4"]').textContent()) ?? '', /video.*ready.*160×120.*1\.0 s/)
    assert.is(await page.locator('tr[data-name="dot.png"] img').getAttribute('src'), image.url, 'the image is its own thumbnail')
    assert.is(await page.locator('tr[data-name="clip.mp4"] video').getAttribute('preload'), 'metadata')

    // Dropped onto the zone: a text file is uploaded too, and fails saying what it is.
    const dropped = await page.evaluateHandle(() => {
      const dt = new DataTransfer()
      dt.items.add(new File(['just some notes\n'], 'notes.txt', { type: 'text/plain' }))
      return dt
    })
    await page.locator('.dropzone').dispatchEvent('drop', { dataTransfer: dropped })
    const refused = page.locator('.uploads li[data-upload="notes.txt"][data-status="failed"]')
    await refused.waitFor({ timeout: 15_000 })
    const notes = (await listed()).find((s) => s.status === 'failed' && !s.input_url)
    assert.ok(notes?.error, 'the failed upload is listed with its reason')
    assert.is(((await refused.locator('.error').textContent()) ?? '').trim(), notes.error)
    await page.locator(`tr[data-source="${notes.id}"][data-status="failed"]`).waitFor()

    // Import from a URL: a refused URL is said beside the field; a real image becomes ready; an HTML page fails saying so.
    const url = page.getByLabel('File URL')
    await url.fill('ftp://127.0.0.1/remote.png')
    await page.getByRole('button', { name: 'Import', exact: true }).click()
    await page.locator('#media-url-error').filter({ hasText: 'http(s)' }).waitFor()
    assert.is(await url.getAttribute('aria-invalid'), 'true')
    await url.fill(`${host.url}/remote.png`)
    await page.getByRole('button', { name: 'Import', exact: true }).click()
    await page.locator('tr[data-name="remote.png"][data-status="ready"]').waitFor({ timeout: 30_000 })
    assert.is(await url.getAttribute('aria-invalid'), 'false')
    await url.fill(`${host.url}/page.mp4`)
    await page.getByRole('button', { name: 'Import', exact: true }).click()
    const failed = page.locator('tr[data-name="page.mp4"][data-status="failed"]')
    await failed.waitFor({ timeout: 30_000 })
    const why = named(await listed(), 'page.mp4').error as string
    assert.match(why, /HTML page/)
    assert.is(((await failed.locator('.source-error').textContent()) ?? '').trim(), why)

    // Filters: by type, then by status.
    await page.getByLabel('Type').selectOption('image')
    await page.waitForFunction(() => document.querySelectorAll('tr[data-source]').length === 2)
    assert.equal(await page.locator('tr[data-source]').evaluateAll((rows) => rows.map((r) => r.getAttribute('data-name')).sort()), ['dot.png', 'remote.png'])
    await page.getByLabel('Type').selectOption('')
    await page.getByLabel('Status').selectOption('failed')
    await page.waitForFunction(() => document.querySelectorAll('tr[data-source]').length === 2)
    await page.getByLabel('Status').selectOption('')
    await page.waitForFunction(() => document.querySelectorAll('tr[data-source]').length === 5)
    await page.getByRole('button', { name: 'Copy URL of dot.png' }).click()
    await page.getByText('Copied the URL of dot.png.').waitFor()
    assert.is(await page.evaluate(() => navigator.clipboard.readText()), image.url)
    assert.equal(await unlabelledControls(page), [])
    await shot(page, 'media')

    // Import with an editing copy: the rendition is listed under the source with its link once made.
    await url.fill(`${host.url}/phone.mp4`)
    await page.getByLabel(/Also make an editing copy/).check()
    await page.getByRole('button', { name: 'Import', exact: true }).click()
    const phoneRow = page.locator('tr[data-name="phone.mp4"][data-status="ready"]')
    await phoneRow.locator('li[data-rendition][data-status="ready"] a').waitFor({ state: 'attached', timeout: 60_000 })
    const phone = named(await listed(), 'phone.mp4')
    const copy = phone.renditions[0]
    assert.equal([copy.status, copy.width, copy.height, copy.fps], ['ready', 1920, 1080, 30])
    assert.is(await phoneRow.locator('li[data-rendition] a').getAttribute('href'), copy.url)
    assert.match((await phoneRow.locator('.renditions summary').textContent()) ?? '', /1 rendition/)

    // Use in playground: a draft that is not JSON is left alone; otherwise the image joins it as a clip.
    const broken = '{"timeline": '
    await page.evaluate((t) => sessionStorage.setItem('reelforge.playground', t), broken)
    await page.getByRole('button', { name: 'Use in playground: dot.png' }).click()
    await page.getByText("Not added: the playground's draft is not valid JSON").waitFor()
    assert.is(await page.evaluate(() => sessionStorage.getItem('reelforge.playground')), broken)
    await page.evaluate(() => sessionStorage.removeItem('reelforge.playground'))
    await page.getByRole('button', { name: 'Use in playground: dot.png' }).click()
    await page.waitForURL(/#\/playground$/)
    const editor = page.getByLabel('Timeline JSON (Shotstack format)')
    const draft = JSON.parse(await editor.inputValue())
    assert.ok((await editor.inputValue()).includes(image.url), "the image's URL is in the editor")
    assert.equal(draft.timeline.tracks.at(-1), { clips: [{ asset: { type: 'image', src: image.url }, start: 2, length: 3 }] }, 'after the example ends')
    await page.getByText('The timeline is valid.').waitFor({ timeout: 15_000 })
    await shot(page, 'media-in-playground')

    // Delete asks twice.
    await go(page, 'Media')
    await page.getByRole('button', { name: 'Delete clip.mp4' }).click()
    await page.getByRole('button', { name: 'Delete for good: clip.mp4' }).click()
    await page.getByText('Deleted clip.mp4.').waitFor()
    await page.locator('tr[data-name="clip.mp4"]').waitFor({ state: 'detached' })
    assert.is((await ctx.svc.call('GET', `/v1/sources/${video.id}`)).status, 404)
    await shot(page, 'media-after-delete')
  } finally {
    await page.close()
    await host.close()
  }
})

test('phone width: no sideways scrolling, tables become cards, a non-admin sees no key admin', async () => {
  const page = await ctx.browser.newPage({ viewport: { width: 390, height: 844 }, isMobile: true, hasTouch: true })
  await signIn(page, ctx.svc.live)
  for (const name of ['Renders', 'Playground', 'Templates', 'Media', 'AI', 'Webhooks', 'Wallet', 'Keys']) {
    await go(page, name)
    await page.getByRole('heading', { level: 1, name }).waitFor()
    await page.waitForTimeout(200)
    // Against the phone's width, not innerWidth: a mobile viewport widens itself to fit a page that is too wide.
    const overflow = (await page.evaluate(() => document.documentElement.scrollWidth)) - 390
    assert.ok(overflow <= 1, `${name} scrolls sideways by ${overflow}px at 390px`)
    // The navigation neither scrolls sideways itself nor hides a page's link past the screen's edge.
    const nav = await page.locator('.top nav ul').evaluate((ul) => ({
      scrolls: ul.scrollWidth - ul.clientWidth,
      outside: Array.from(ul.querySelectorAll('a'))
        .filter((a) => a.getBoundingClientRect().left < 0 || a.getBoundingClientRect().right > 390)
        .map((a) => a.textContent),
    }))
    assert.equal(nav, { scrolls: 0, outside: [] }, `${name}: the navigation fits 390px`)
    await shot(page, `phone-${name.toLowerCase()}`)
  }
  await page.screenshot({ path: join(SCREENSHOTS, 'phone-nav.png'), clip: { x: 0, y: 0, width: 390, height: 260 } })
  await page.getByText('Managing keys needs an admin key').waitFor()
  await go(page, 'Renders')
  await page.locator('tr[data-status]').first().waitFor()
  assert.is(
    await page
      .locator('thead')
      .first()
      .evaluate((el) => getComputedStyle(el).position),
    'absolute',
    'column heads hidden visually, kept for screen readers',
  )
  // A render's page: its whole id wraps in its cell rather than widen the page.
  await page.locator('tr[data-status="COMPLETE"] .job-id a').first().click()
  await page.locator('.render-detail[data-status="COMPLETE"] video').waitFor()
  const overflow = (await page.evaluate(() => document.documentElement.scrollWidth)) - 390
  assert.ok(overflow <= 1, `a render's page scrolls sideways by ${overflow}px at 390px`)
  await shot(page, 'phone-render')
  await page.close()
})

test.run()
