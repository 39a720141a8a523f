import { test } from 'uvu'
import * as assert from 'uvu/assert'
import { pixel } from '../helpers/frames.js'
import { edit, renderAndDecode } from '../helpers/render.js'

// docs/limits.md: html assets never fetch anything and images are dropped. Images named in CSS
// (`url(…)` in a rule, a `style` attribute or an `@import`) used to reach satori, which fetched them or
// failed the whole render on them.
const red = 'p { color: #ffffff; background-color: #ff0000; width: 200px; height: 100px; margin: 0 }'
const box = (html: string, css: string, start: number) => ({
  asset: { type: 'html', html, css, width: 200, height: 100, position: 'topLeft' },
  start,
  length: 0.04,
})

test('CSS images are dropped with a warning naming the clip; the rest of the html still draws', async () => {
  // satori fetches with the global fetch, straight away for an address that needs no DNS: every call is
  // recorded and refused here, so nothing leaves the machine whichever way the test goes.
  const fetched: string[] = []
  const realFetch = globalThis.fetch
  globalThis.fetch = async (input) => {
    fetched.push(String(input instanceof Request ? input.url : input))
    throw new Error('no fetching in this test')
  }
  try {
    const png = 'http://93.184.215.14/x.png'
    const cases: [string, string][] = [
      ['<p>a</p>', `${red} p { background-image: url(${png}) }`],
      ['<p>b</p>', `${red} p { background-image: url(data:image/png;base64,iVBORw0KGgo=) }`],
      ['<p>c</p>', `${red} p { background-image: url('/etc/passwd') }`],
      ['<p>d</p>', `@import url(http://93.184.215.14/more.css); ${red}`],
      ['<style>@import "/etc/passwd";</style><p>e</p>', red],
      [`<p style="background: URL(&quot;${png}&quot;) #ff0000">f</p>`, red],
    ]
    const clips = cases.map(([html, css], i) => box(html, css, i * 0.04))
    const render = () => renderAndDecode(edit(clips, {}, { background: '#0000ff' }))
    const { frames, result } = await render()
    for (const i of cases.keys()) {
      const at = `timeline.tracks[0].clips[${i}].asset`
      const mine = result.warnings.filter((w) => w.path === at).map((w) => w.message)
      assert.ok(
        mine.some((m) => /not loaded/.test(m)),
        `case ${i} warns: ${JSON.stringify(result.warnings)}`,
      )
      // The box's own red background still fills it (position topLeft: the box starts at 60,40).
      const [r, g, b] = pixel(frames, i, 150, 120)
      assert.ok(r > 200 && g < 60 && b < 60, `case ${i} drew its red box: ${[r, g, b]}`)
    }
    assert.equal(fetched, [], 'nothing fetched')
    // Rasterised boxes are cached across renders; a second render still hears why its images are missing.
    const again = await render()
    assert.is(again.result.warnings.filter((w) => /not loaded/.test(w.message)).length, cases.length)
  } finally {
    globalThis.fetch = realFetch
  }
})

test.run()
