import { readFileSync } from 'node:fs'
import { join } from 'node:path'
import { test } from 'uvu'
import * as assert from 'uvu/assert'
import { createRenderer, RenderError } from '../../index.js'
import { spawnFfmpeg } from '../../kit.js'
import { IsolatedRenderer } from '../../service/isolation/isolated-renderer.js'
import { tempDir } from '../helpers/media.js'
import { renderChildren, running } from '../helpers/processes.js'
import { LOOPBACK, titleEdit } from '../helpers/service.js'

// Render processes and ffmpegs fix glibc's mmap threshold (core/ffmpeg/malloc-env.ts): without it glibc raises the
// threshold to each large block freed, and freed frames and photos stay resident for the life of the process.

const dir = tempDir('reelforge-render-process-memory-')

test("a render process runs with MALLOC_MMAP_THRESHOLD_ at 1 MB unless the operator's environment sets one", async () => {
  const refuse = () => {
    throw new RenderError('E_PROVIDER_FAILED', 'none here')
  }
  const isolated = new IsolatedRenderer(
    createRenderer({ cacheDir: join(dir, 'cache') }),
    () => ({ cacheDir: join(dir, 'cache'), network: LOOPBACK, files: undefined, baseUrl: '' }),
    refuse,
    refuse,
  )
  try {
    await isolated.render(titleEdit(1) as never, { out: join(dir, 'title.mp4') })
    const live = renderChildren().filter(running)
    assert.ok(live.length > 0, 'a render process to look at')
    const want = `MALLOC_MMAP_THRESHOLD_=${process.env.MALLOC_MMAP_THRESHOLD_ ?? 1048576}`
    for (const pid of live) assert.ok(readFileSync(`/proc/${pid}/environ`, 'latin1').split('\0').includes(want), `pid ${pid}`)
  } finally {
    await isolated.close()
  }
})

test('the ffmpegs a render starts run with it too, from the library and the CLI as well (an own value wins)', async () => {
  const environ = async () => {
    const stop = new AbortController()
    const ff = spawnFfmpeg(['-v', 'error', '-re', '-f', 'lavfi', '-i', 'nullsrc=s=16x16', '-f', 'null', '-'], { signal: stop.signal })
    try {
      return readFileSync(`/proc/${ff.child.pid}/environ`, 'latin1').split('\0')
    } finally {
      stop.abort()
      await ff.exited
    }
  }
  const own = process.env.MALLOC_MMAP_THRESHOLD_
  try {
    delete process.env.MALLOC_MMAP_THRESHOLD_
    assert.ok((await environ()).includes('MALLOC_MMAP_THRESHOLD_=1048576'))
    process.env.MALLOC_MMAP_THRESHOLD_ = '4194304'
    assert.ok((await environ()).includes('MALLOC_MMAP_THRESHOLD_=4194304'))
  } finally {
    if (own === undefined) delete process.env.MALLOC_MMAP_THRESHOLD_
    else process.env.MALLOC_MMAP_THRESHOLD_ = own
  }
})

test.run()
