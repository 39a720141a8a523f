import { readFile } from 'node:fs/promises'
import { join } from 'node:path'
import * as v from 'valibot'
import { type Edit, frameEdit, RenderError } from '../../core/index.js'
import type { Principal } from '../accounts/keys.js'
import { FRAME_LIMIT, type RateLimiter } from '../accounts/rate-limit.js'
import { parseBody } from '../lib/validate.js'
import { inWorkDir } from '../lib/work-dir.js'
import { check, type SubmitDeps } from './submit.js'

/** `time` beside an edit's fields; the edit itself is checked like a render's. */
const FrameAt = v.looseObject({
  time: v.optional(v.pipe(v.number('must be a number (seconds)'), v.minValue(0, 'must be at least 0')), 0),
})

/**
 * `POST /v1/render/frame`: one frame of an edit as PNG — validated and limited like a render, then drawn at
 * `time` and answered; nothing is stored or charged (a playground scrubs with it). Rate-limited per key.
 * A frame has `limits.frameSeconds` to be drawn (`E_TIME_LIMIT` after), and stops as soon as `signal` aborts:
 * its client went away, or the server is stopping.
 */
export async function renderFrame(d: SubmitDeps & { limiter: RateLimiter }, p: Principal, body: unknown, signal?: AbortSignal): Promise<Buffer> {
  const { time, ...rest } = parseBody(FrameAt, body)
  const { edit } = await check(d, p, 'render', rest)
  d.limiter.claim(p.keyId, FRAME_LIMIT, 'frame previews')
  // The edit came back merged from the checks: its merge fields have nothing left to fill.
  const frame = frameEdit({ ...edit, merge: undefined } as unknown as Edit, time)
  const seconds = d.config.limits.frameSeconds
  const limit = new AbortController()
  const timer = setTimeout(
    () =>
      limit.abort(
        new RenderError('E_TIME_LIMIT', `the frame took longer than its limit of ${seconds} s (limits.frameSeconds); simplify the edit or render it as a job`),
      ),
    seconds * 1000,
  )
  try {
    return await inWorkDir(d.config, 'frame-', async (dir) => {
      const out = join(dir, 'frame.png')
      await d.renderer.render(frame, { out, owner: p, yAxis: d.config.yAxis, signal: signal ? AbortSignal.any([signal, limit.signal]) : limit.signal })
      return readFile(out)
    })
  } finally {
    clearTimeout(timer)
  }
}
