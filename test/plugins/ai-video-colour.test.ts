import { readFileSync } from 'node:fs'
import { join } from 'node:path'
import { test } from 'uvu'
import * as assert from 'uvu/assert'
import { probe } from '../../core/index.js'
import { conformClip } from '../../plugins/providers/ai/video-clip.js'
import { chartVideo, PATCHES, patch, playerRgb } from '../helpers/colour.js'
import { tempDir } from '../helpers/media.js'

// A vendor's clip (Runway, Luma) is re-encoded to the asked size and length by conformClip: it leaves as every
// video reelforge writes — BT.709 TV range, tagged — whatever matrix the vendor used. Here a BT.601-tagged chart.

const dir = tempDir('reelforge-ai-video-colour-')

test('a BT.601 vendor clip comes out BT.709 TV range, tagged so, every patch within ±3 as a player decodes it', async () => {
  const src = chartVideo(join(dir, 'vendor.mp4'), 'bt601', { fps: 24 })
  const clip = await conformClip(
    'vendor',
    readFileSync(src),
    { width: 1280, height: 720, duration: 1 },
    { workDir: dir, signal: new AbortController().signal, id: 'c' },
  )
  const v = (await probe(clip.path)).streams.find((s) => s.type === 'video')!
  assert.equal([v.colorSpace, v.colorPrimaries, v.colorTransfer, v.colorRange], ['bt709', 'bt709', 'bt709', 'tv'])
  const got = await playerRgb(clip.path)
  for (const [i, [, want]] of PATCHES.entries())
    assert.ok(
      patch(got, i).every((x, c) => Math.abs(x - want[c]!) <= 3),
      `patch ${i}: ${patch(got, i)} for ${want}`,
    )
})
test.run()
