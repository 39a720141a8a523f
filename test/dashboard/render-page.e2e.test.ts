import { suite } from 'uvu'
import * as assert from 'uvu/assert'
import type { Browser, Page } from 'playwright-core'
import { launchBrowser, listen } from '../helpers/browser.js'
import { shot, signIn as signInAt, unlabelledControls } from '../helpers/dashboard.js'
import { testService, type TestService } from '../helpers/service.js'

// What a render's page offers in Debian's Chromium against a real server — Re-render, Open in playground, Open
// in editor — and a sign-in that every tab of the browser shares until one of them signs out.

const ctx = {} as { svc: TestService; http: Awaited<ReturnType<typeof listen>>; browser: Browser }
const test = suite('a render page and the sign-in in a browser', ctx)
test.before(async () => {
  ctx.svc = await testService({ start: true })
  ctx.http = await listen(ctx.svc)
  ctx.browser = await launchBrowser()
})
test.after(async () => {
  await ctx.browser?.close()
  await ctx.http?.close()
  await ctx.svc?.close()
})

/** A short edit whose words say it is this one (not the playground's example). */
const EDIT = {
  timeline: {
    background: '#203040',
    tracks: [{ clips: [{ asset: { type: 'title', text: 'render me again', style: 'minimal' }, start: 0, length: 1 }] }],
  },
  output: { format: 'mp4', resolution: 'preview', fps: 12 },
}
const hashOf = (page: Page) => page.evaluate(() => location.hash)
const jsonIn = async (page: Page) => JSON.parse(await page.getByLabel('Timeline JSON (Shotstack format)').inputValue())

test('Re-render submits the same edit again and opens the new render; its edit opens in the playground and the editor', async () => {
  const page = await ctx.browser.newPage({ viewport: { width: 1280, height: 900 } })
  const first = (await ctx.svc.call('POST', '/v1/render', { body: EDIT })).body.jobId as string
  await ctx.svc.waitFor(first, ['COMPLETE'], ctx.svc.live, 120_000)
  await signInAt(page, ctx.http.url, ctx.svc.live)
  await page.goto(`${ctx.http.url}/dashboard#/renders/${first}`)
  await page.locator(`.render-detail[data-render="${first}"][data-status="COMPLETE"]`).waitFor({ timeout: 20_000 })

  await page.getByRole('button', { name: 'Re-render' }).click()
  await page.waitForFunction((id) => /^#\/renders\/[\w-]+$/.test(location.hash) && !location.hash.endsWith(id), first, { timeout: 15_000 })
  const second = (await hashOf(page)).split('/')[2]!
  assert.is.not(second, first, 'a new render')
  const again = page.locator(`.render-detail[data-render="${second}"]`)
  await again.waitFor()
  assert.is(await page.locator('.render-detail').count(), 1, 'the page shows the new render alone')
  await page.locator(`.render-detail[data-render="${second}"][data-status="COMPLETE"]`).waitFor({ timeout: 120_000 })
  const [a, b] = await Promise.all([first, second].map(async (id) => (await ctx.svc.call('GET', `/v1/render/${id}?data=true`)).body))
  assert.equal(b.data, a.data, 'the same edit was submitted again')
  assert.equal(b.data, EDIT)
  await shot(page, 'render-rerendered')

  // Open in playground: the render's edit becomes the playground's draft, not a template's.
  await page.getByRole('button', { name: 'Open in playground' }).click()
  await page.getByRole('heading', { level: 1, name: 'Playground' }).waitFor()
  assert.is(await hashOf(page), '#/playground')
  assert.equal(await jsonIn(page), EDIT, "the playground holds the render's edit")
  assert.is(await page.getByText('Editing template').count(), 0, 'not marked as a saved template')
  await page.getByText('The timeline is valid.').waitFor({ timeout: 15_000 })

  // Open in editor, from the first render's page: the editor's draft is that edit, its clip on the timeline.
  await page.goto(`${ctx.http.url}/dashboard#/renders/${first}`)
  await page.getByRole('button', { name: 'Open in editor' }).click()
  await page.getByRole('heading', { level: 1, name: 'Editor' }).waitFor()
  assert.is(await hashOf(page), '#/editor')
  assert.equal(await jsonIn(page), EDIT, "the editor holds the render's edit")
  await page.locator('.timeline .clip').first().waitFor()
  assert.is(await page.locator('.timeline .clip').count(), 1, "the edit's one clip on the timeline")
  assert.equal(await unlabelledControls(page), [])
  await page.close()
})

test('a running render offers Cancel and Re-render; a failed one offers Re-render', async () => {
  const page = await ctx.browser.newPage({ viewport: { width: 1280, height: 900 } })
  const long = {
    ...EDIT,
    timeline: { tracks: [{ clips: [{ asset: { type: 'title', text: 'long' }, start: 0, length: 120 }] }] },
    output: { format: 'mp4', resolution: 'sd' },
  }
  const id = (await ctx.svc.call('POST', '/v1/render', { body: long })).body.jobId as string
  await ctx.svc.waitFor(id, ['PROCESSING'])
  await signInAt(page, ctx.http.url, ctx.svc.live)
  await page.goto(`${ctx.http.url}/dashboard#/renders/${id}`)
  await page.getByRole('button', { name: 'Cancel render' }).waitFor()
  await page.getByRole('button', { name: 'Re-render' }).waitFor()
  await page.getByRole('button', { name: 'Cancel render' }).click()
  await page.locator(`.render-detail[data-render="${id}"][data-status="FAILED"]`).waitFor({ timeout: 15_000 })
  assert.is(await page.getByRole('button', { name: 'Re-render' }).count(), 1, 'a failed render can be tried again')
  await page.close()
})

test('sign-in is kept across tabs and reloads until sign-out, which signs out every tab', async () => {
  const browser = await ctx.browser.newContext({ viewport: { width: 1280, height: 900 } })
  const one = await browser.newPage()
  await signInAt(one, ctx.http.url, ctx.svc.live)
  assert.is(await one.evaluate(() => sessionStorage.getItem('reelforge.key')), null, 'not per tab')

  // A second tab opens signed in; so does the first after a reload.
  const two = await browser.newPage()
  await two.goto(`${ctx.http.url}/dashboard#/playground`)
  await two.getByRole('heading', { level: 1, name: 'Playground' }).waitFor({ timeout: 15_000 })
  await one.reload()
  await one.getByRole('navigation', { name: 'Dashboard' }).waitFor()

  // Signing out in one tab signs out the other at once, with no reload, and says why.
  await two.getByRole('button', { name: 'Sign out' }).click()
  await two.getByLabel('API key').waitFor()
  await one.getByLabel('API key').waitFor({ timeout: 5000 })
  await one.getByText('Signed out in another tab.').waitFor()
  assert.is(await one.getByRole('navigation', { name: 'Dashboard' }).count(), 0, 'no page of the dashboard left open')
  assert.is(await one.evaluate(() => localStorage.getItem('reelforge.key')), null, 'the key is gone from the browser')
  await shot(one, 'signed-out-in-another-tab')

  // A new tab after sign-out asks for the key; signing in there signs in the waiting tab too.
  const three = await browser.newPage()
  await three.goto(`${ctx.http.url}/dashboard`)
  await three.getByLabel('API key').waitFor()
  await signInAt(three, ctx.http.url, ctx.svc.live)
  await one.getByRole('navigation', { name: 'Dashboard' }).waitFor({ timeout: 5000 })
  await browser.close()
})

test.run()
