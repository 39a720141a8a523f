import { randomUUID } from 'node:crypto'
import { appendFileSync, readFileSync, writeFileSync } from 'node:fs'
import { join } from 'node:path'
import { suite } from 'uvu'
import * as assert from 'uvu/assert'
import { createRenderer } from '../../index.js'
import { renderToStorage } from '../../service/jobs/render-task.js'
import { LocalStorage } from '../../service/storage/storage.js'
import { tempDir, toneClips, withFfmpeg } from '../helpers/media.js'
import { edit } from '../helpers/render.js'

// A job's stage is what GET /render/{id} answers while it runs. Per-frame progress is thinned to one write in
// 500 ms, but a change of stage must always get through: a render whose planning took under half a second lost its
// "rendering" that way, and a job mixing many sounds before its first frame read "fetching" for the whole mix.
const progress = suite('a render job’s stages')
const dir = tempDir()

progress('a job mixing its sounds reads rendering, not fetching, from the moment everything is fetched', async () => {
  const clips = (await toneClips(dir, 5)).map((src, i) => ({ asset: { type: 'video', src }, start: i, length: 1 }))
  // The mixer notes when it starts and takes a second, as a long edit's mix does.
  const log = join(dir, 'order.log')
  writeFileSync(log, '')
  const slowMix = `for a in "$@"; do [ "$a" = wavpack ] && { echo mix >> ${log}; sleep 1; }; done`
  const task = {
    id: randomUUID(),
    kind: 'render' as const,
    request: edit(clips, { size: { width: 160, height: 90 } }),
    sandbox: false,
    accountId: 'a',
    keyId: 'k',
  }
  const deps = { renderer: createRenderer({ cacheDir: join(dir, 'cache') }), storage: new LocalStorage(join(dir, 'store')), workRoot: join(dir, 'work') }
  const done = await withFfmpeg(dir, 'ffmpeg-slow-mix', slowMix, () =>
    renderToStorage(deps, task, { signal: new AbortController().signal, onProgress: (stage) => appendFileSync(log, `${stage}\n`) }),
  )
  assert.is(done.frames, 125)
  const lines = readFileSync(log, 'utf8').trim().split('\n')
  const mixAt = lines.indexOf('mix')
  assert.ok(mixAt > 0, `the mixer ran after a first report (${lines.slice(0, 4).join(', ')})`)
  assert.is(lines[0], 'fetching')
  assert.is(lines[mixAt - 1], 'rendering', 'the stage the job shows during the mix')
  assert.is(lines.at(-1), 'saving')
})

progress.run()
