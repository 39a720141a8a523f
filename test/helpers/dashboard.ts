import { join } from 'node:path'
import * as assert from 'uvu/assert'
import type { Page } from 'playwright-core'
import { SCREENSHOTS } from './browser.js'

// What the dashboard's browser tests share: signing in, the main navigation, screenshots, labels, pixels.

/** Follows a link of the main navigation. */
export const go = (page: Page, name: string) => page.getByRole('navigation', { name: 'Dashboard' }).getByRole('link', { name, exact: true }).click()

/** A full-page screenshot in `.test-output/dashboard/<name>.png`. */
export const shot = (page: Page, name: string) => page.screenshot({ path: join(SCREENSHOTS, `${name}.png`), fullPage: true })

/** Signs in at `baseUrl`'s dashboard with `key`, keyboard only, and checks the key stays out of the URL. */
export async function signIn(page: Page, baseUrl: string, key: string) {
  await page.goto(`${baseUrl}/dashboard`)
  await page.getByLabel('API key').focus()
  await page.keyboard.type(key)
  await page.keyboard.press('Enter')
  await page.getByRole('navigation', { name: 'Dashboard' }).waitFor()
  assert.not.ok(page.url().includes(key), 'the key never appears in the URL')
  assert.is(await page.evaluate(() => localStorage.getItem('reelforge.key')), key, 'kept for every tab until sign-out')
}

/** Every form control has an accessible name (a label or aria-label). */
export async function unlabelledControls(page: Page): Promise<string[]> {
  return page.evaluate(() =>
    Array.from(document.querySelectorAll('input, select, textarea, button'))
      .filter((el) => !((el as HTMLInputElement).labels?.length || el.getAttribute('aria-label') || (el.tagName === 'BUTTON' && el.textContent!.trim())))
      .map((el) => el.outerHTML.slice(0, 80)),
  )
}

/** The RGB of an image's pixel at fractions (fx, fy) of its size, read back through a canvas. */
export const pixelAt = (page: Page, selector: string, fx = 0.5, fy = 0.5) =>
  page.locator(selector).evaluate(
    (img: HTMLImageElement, [x, y]) => {
      const canvas = Object.assign(document.createElement('canvas'), { width: img.naturalWidth, height: img.naturalHeight })
      const g = canvas.getContext('2d')!
      g.drawImage(img, 0, 0)
      return Array.from(g.getImageData(Math.floor(img.naturalWidth * x!), Math.floor(img.naturalHeight * y!), 1, 1).data.slice(0, 3))
    },
    [fx, fy],
  )

/** Whether every channel is within 40 of the wanted colour. */
export const near = (rgb: number[], want: number[]) => rgb.every((c, i) => Math.abs(c - want[i]!) <= 40)
