import { join } from 'node:path'
import { fileURLToPath } from 'node:url'
import { suite } from 'uvu'
import * as assert from 'uvu/assert'
import { createRenderer, RenderError } from '../../../index.js'
import { IsolatedRenderer } from '../../../service/isolation/isolated-renderer.js'
import { crashTest, CRASH_MESSAGE } from '../../helpers/crash-plugin.js'
import { garbledVideo, tempDir } from '../../helpers/media.js'
import { LOOPBACK, testService, titleEdit } from '../../helpers/service.js'
import { renderChildren, running } from '../../helpers/processes.js'
import { runnable } from '../../helpers/serve-child.js'

// A render that dies says why in the job's `error`: the stage, the clip, and the exception's message or the
// ffmpeg line that matters — never the last line a dying process printed ("Node.js v20…").

const dir = tempDir('reelforge-render-errors-')
const output = { format: 'mp4', size: { width: 64, height: 36 }, fps: 12 }
const oneClip = (asset: object, length = 3) => ({ timeline: { tracks: [{ clips: [{ asset, start: 0, length }] }] }, output })

const errors = suite('render failures name their stage, clip and cause')

errors('an uncaught exception thrown inside a plugin in the render process → the stage, the clip and its message', async () => {
  // The service's renderer with one more asset plugin, in this process (validation) and in its render processes.
  const local = createRenderer({ plugins: [crashTest], cacheDir: join(dir, 'cache'), network: LOOPBACK })
  const pluginModule = runnable(fileURLToPath(new URL('../../helpers/crash-plugin.ts', import.meta.url)))
  const isolated = new IsolatedRenderer(
    local,
    () => ({ cacheDir: join(dir, 'cache'), network: LOOPBACK, files: undefined, baseUrl: '', pluginModules: [pluginModule] }),
    () => {
      throw new RenderError('E_PROVIDER_FAILED', 'no image providers here')
    },
    () => {
      throw new RenderError('E_PROVIDER_FAILED', 'no AI engines here')
    },
  )
  const svc = await testService({ start: true, overrides: { renderer: isolated } })
  try {
    const { jobId } = (await svc.call('POST', '/v1/render', { body: oneClip({ type: 'crash-test' }) })).body
    const failed = await svc.waitFor(jobId, ['COMPLETE', 'FAILED'])
    assert.is(failed.status, 'FAILED')
    assert.match(failed.error, /the render process crashed while rendering timeline\.tracks\[0\]\.clips\[0\]\.asset \(asset:crash-test open\)/)
    assert.ok(failed.error.includes(CRASH_MESSAGE), failed.error)
    assert.not.match(failed.error, /Node\.js v\d/)
    // The crashed process is replaced: the next render completes.
    const next = (await svc.call('POST', '/v1/render', { body: titleEdit(1) })).body.jobId
    assert.is((await svc.waitFor(next, ['COMPLETE', 'FAILED'])).status, 'COMPLETE')
  } finally {
    await svc.close()
    const pids = renderChildren()
    await isolated.close()
    // Closed means gone: a server stopping right after leaves no render process behind (soak.e2e checks it too).
    assert.equal(pids.filter(running), [], 'render processes still running after close()')
  }
})

errors("a decoder that dies on a corrupt mp4 → the clip, its file and ffmpeg's meaningful line", async () => {
  const garbled = await garbledVideo(join(dir, 'garbled.mp4'))
  const svc = await testService({ start: true, config: { isolateRenders: true, files: { allow: [dir] } } })
  try {
    const { jobId } = (await svc.call('POST', '/v1/render', { body: oneClip({ type: 'video', src: garbled }) })).body
    const failed = await svc.waitFor(jobId, ['COMPLETE', 'FAILED'])
    assert.is(failed.status, 'FAILED')
    assert.match(
      failed.error,
      /^timeline\.tracks\[0\]\.clips\[0\]\.asset\.src: cannot decode \S*garbled\.mp4: the video decoder \(ffmpeg\) exited with status \d+: /,
    )
    assert.match(failed.error, /: Error while decoding stream #0:0: Invalid data found when processing input$/)
    assert.not.match(failed.error, /Last message repeated|Node\.js v\d|@ 0x/)
  } finally {
    await svc.close()
  }
})

errors.run()
