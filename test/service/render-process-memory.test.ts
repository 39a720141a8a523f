import { readFileSync } from 'node:fs'
import { join } from 'node:path'
import { test } from 'uvu'
import * as assert from 'uvu/assert'
import { createRenderer, RenderError } from '../../index.js'
import { IsolatedRenderer } from '../../service/isolation/isolated-renderer.js'
import { tempDir } from '../helpers/media.js'
import { renderChildren, running } from '../helpers/processes.js'
import { LOOPBACK, titleEdit } from '../helpers/service.js'

// Render processes fix glibc's mmap threshold (service/isolation/render-process.ts): without it glibc raises the
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

test.run()
