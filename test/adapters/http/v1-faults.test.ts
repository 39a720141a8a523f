import { execFileSync } from 'node:child_process'
import { mkdirSync, symlinkSync } from 'node:fs'
import { join } from 'node:path'
import { suite } from 'uvu'
import * as assert from 'uvu/assert'
import { pgrep, until } from '../../helpers/processes.js'
import { testService, titleEdit } from '../../helpers/service.js'

/** A service closed however the test ends (a failed assertion must not leave its queue running). */
async function withService(opts: Parameters<typeof testService>[0], fn: (svc: Awaited<ReturnType<typeof testService>>) => Promise<void>) {
  const svc = await testService(opts)
  try {
    await fn(svc)
  } finally {
    await svc.close(1000)
  }
}
/** A render long enough to be caught in the middle. */
const long = () => ({ ...titleEdit(30), output: { format: 'mp4', size: { width: 640, height: 360 }, fps: 25 } })

const faults = suite('faults while rendering: the job fails clearly, the service carries on')
faults('ffmpeg killed mid-render → FAILED naming the killed encoder; the next render completes', () =>
  withService({ start: true }, async (svc) => {
    const { jobId } = (await svc.call('POST', '/v1/render', { body: long() })).body
    const child = (await until('the render process', () => pgrep('render-child', process.pid)))[0]!
    await svc.waitFor(jobId, ['PROCESSING'])
    await until('rendering progress', async () => (await svc.jobs.get(jobId))!.progress > 0.1 || undefined)
    const ffmpeg = await until('its encoder', () => pgrep('ffmpeg.*rawvideo', child))
    for (const pid of ffmpeg) process.kill(pid, 'SIGKILL')
    const failed = await svc.waitFor(jobId, ['FAILED', 'COMPLETE'])
    assert.is(failed.status, 'FAILED')
    assert.match(failed.error, /ffmpeg encoder was killed \(SIGKILL\)/)
    const next = (await svc.call('POST', '/v1/render', { body: titleEdit(1) })).body.jobId
    assert.is((await svc.waitFor(next, ['COMPLETE', 'FAILED'])).status, 'COMPLETE')
  }),
)
faults(
  'the render process dies mid-render (as Xlib makes it when its X server goes) → FAILED "the render process died"; the service renders the next job',
  () =>
    withService({ start: true }, async (svc) => {
      const { jobId } = (await svc.call('POST', '/v1/render', { body: long() })).body
      const child = (await until('the render process', () => pgrep('render-child', process.pid)))[0]!
      await until('rendering progress', async () => (await svc.jobs.get(jobId))!.progress > 0.1 || undefined)
      process.kill(child, 'SIGKILL')
      const failed = await svc.waitFor(jobId, ['FAILED', 'COMPLETE'])
      assert.is(failed.status, 'FAILED')
      assert.match(failed.error, /the render process died \(SIGKILL\).*the service is unaffected/)
      const next = (await svc.call('POST', '/v1/render', { body: titleEdit(1) })).body.jobId
      assert.is((await svc.waitFor(next, ['COMPLETE', 'FAILED'])).status, 'COMPLETE', 'a fresh render process took over')
      assert.not.ok(pgrep('render-child', process.pid).includes(child))
    }),
)
faults('the X server dies mid-render → the job completes or fails cleanly; the service stays up and renders the next job', async () => {
  // The render process must own its Xvfb for this: without DISPLAY it starts its own (captured at fork).
  const display = process.env.DISPLAY
  delete process.env.DISPLAY
  const svc = await testService({ start: true })
  try {
    const { jobId } = (await svc.call('POST', '/v1/render', { body: long() })).body
    const child = (await until('the render process', () => pgrep('render-child', process.pid)))[0]!
    await until('rendering progress', async () => (await svc.jobs.get(jobId))!.progress > 0.1 || undefined)
    if (display !== undefined) process.env.DISPLAY = display
    const watchdog = execFileSync('pgrep', ['-af', `reelforge-xvfb ${child} `], { encoding: 'utf8' })
    const screen = / (:\d+)\s*$/m.exec(watchdog)![1]!
    for (const pid of pgrep(`^Xvfb ${screen} `)) process.kill(pid, 'SIGKILL')
    const settled = await svc.waitFor(jobId, ['FAILED', 'COMPLETE'])
    // llvmpipe draws without the X server once the context exists, so the render may well finish; if Xlib
    // notices first, it exits the render process — and only that.
    if (settled.status === 'FAILED') assert.match(settled.error, /render process died/)
    const next = (await svc.call('POST', '/v1/render', { body: titleEdit(1) })).body.jobId
    assert.is((await svc.waitFor(next, ['COMPLETE', 'FAILED'])).status, 'COMPLETE', 'a fresh render process took over')
    assert.is((await svc.call('GET', `/v1/render/${next}`)).status, 200, 'the HTTP side never went away')
  } finally {
    if (display !== undefined) process.env.DISPLAY = display
    await svc.close()
  }
})
faults('disk full on output → FAILED "the disk is full"; the next render completes', () =>
  withService({}, async (svc) => {
    const { jobId } = (await svc.call('POST', '/v1/render', { body: titleEdit(2) })).body
    // The job's output file is /dev/full: every write fails with ENOSPC, as on a full disk.
    const dir = join(svc.config.dataDir, 'work', jobId)
    mkdirSync(dir, { recursive: true })
    symlinkSync('/dev/full', join(dir, `${jobId}.mp4`))
    await svc.start()
    const failed = await svc.waitFor(jobId, ['FAILED', 'COMPLETE'])
    assert.is(failed.status, 'FAILED')
    assert.match(failed.error, /the disk is full: cannot write .*No space left on device/)
    assert.is(failed.credits_used, 0)
    const next = (await svc.call('POST', '/v1/render', { body: titleEdit(1) })).body.jobId
    assert.is((await svc.waitFor(next, ['COMPLETE', 'FAILED'])).status, 'COMPLETE')
  }),
)
faults.run()
