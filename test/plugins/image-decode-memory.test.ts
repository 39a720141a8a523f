import { execFileSync } from 'node:child_process'
import { join } from 'node:path'
import { fileURLToPath } from 'node:url'
import { test } from 'uvu'
import * as assert from 'uvu/assert'
import { lavfi, tempDir } from '../helpers/media.js'

// A photo's decode is the render process's highest moment (benchmarks/README.md, "Footage like users'"): the
// bitmap and the canvas it is drawn onto, then the canvas, its pixels copied out and the photo's own memory. The
// canvas is freed before the photo's memory is made, so no more than two of those 32 MB blocks are ever held:
// measured on a 12 MP photo drawn at 8 MP, the process's high-water mark rose 98 MB with all three, 80 without.
const dir = tempDir()
const image = join(fileURLToPath(import.meta.url), '../../../plugins/assets/image.js')

/** Decodes `photo` at `need` in a process of its own (as render processes run: glibc's 1 MB mmap threshold); MB over its start. */
function decodeRise(photo: string, need: { width: number; height: number }): number {
  const script = `
    import { readFileSync } from 'node:fs'
    import { prepareStill } from ${JSON.stringify(image)}
    const kb = (k) => Number(new RegExp(k + ':\\\\s+(\\\\d+)').exec(readFileSync('/proc/self/status', 'utf8'))[1])
    const still = await prepareStill(${JSON.stringify(photo)}, { path: 'timeline.tracks[0].clips[0]' })
    const base = kb('VmRSS')
    const source = await still.open(undefined, ${JSON.stringify(need)}, 0)
    if (source.pixels().length !== ${need.width * need.height * 4}) throw new Error('not the pixels asked for')
    console.log((kb('VmHWM') - base) / 1024)
  `
  const out = execFileSync(process.execPath, ['--input-type=module', '-e', script], { env: { ...process.env, MALLOC_MMAP_THRESHOLD_: '1048576' } })
  return Number(out.toString().trim())
}

test('decoding a 12 MP photo holds at most two 32 MB blocks beside its 48 MB bitmap, never three', async () => {
  const photo = await lavfi('testsrc2=size=4032x3024', join(dir, 'photo.jpg'), ['-frames:v', '1', '-q:v', '3'])
  const rise = decodeRise(photo, { width: 3328, height: 2496 })
  // The bitmap (48.8 MB) and the canvas (33.2 MB) must be seen, or this measured nothing.
  assert.ok(rise > 75, `the decode was measured (${rise.toFixed(1)} MB)`)
  assert.ok(rise < 90, `the process rose ${rise.toFixed(1)} MB decoding the photo`)
})

test.run()
