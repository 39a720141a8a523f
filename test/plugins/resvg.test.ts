import { suite } from 'uvu'
import * as assert from 'uvu/assert'
import { rasteriseSvg, rasteriserPid } from '../../plugins/lib/raster/resvg.js'

const svg = (fill: string) => `<svg xmlns="http://www.w3.org/2000/svg" width="8" height="4"><rect width="8" height="4" fill="${fill}"/></svg>`
const alive = (pid: number) => {
  try {
    process.kill(pid, 0)
    return true
  } catch {
    return false
  }
}

const child = suite('the SVG rasteriser process')
child('exits after a second idle (it holds ~70 MB) and starts again on the next request', async () => {
  const red = await rasteriseSvg(svg('#ff0000'), { width: 8, height: 4 })
  assert.equal([...red.subarray(0, 4)], [255, 0, 0, 255])
  const first = rasteriserPid()
  assert.ok(first && alive(first), 'running while in use')
  await new Promise((r) => setTimeout(r, 400))
  assert.is(rasteriserPid(), first, 'still there shortly after')
  await new Promise((r) => setTimeout(r, 1200))
  assert.is(rasteriserPid(), undefined, 'retired after a second idle')
  for (let i = 0; i < 50 && alive(first); i++) await new Promise((r) => setTimeout(r, 20))
  assert.not.ok(alive(first), 'the process is gone')
  const green = await rasteriseSvg(svg('#00ff00'), { width: 8, height: 4 })
  assert.equal([...green.subarray(0, 4)], [0, 255, 0, 255])
  assert.ok(rasteriserPid() && rasteriserPid() !== first, 'a new process answered')
})
child.run()
