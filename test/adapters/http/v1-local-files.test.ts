import { mkdirSync, symlinkSync, writeFileSync } from 'node:fs'
import { join } from 'node:path'
import { suite } from 'uvu'
import * as assert from 'uvu/assert'
import { fileLoader } from '../../../plugins/loaders/index.js'
import { decodeFrames, mean } from '../../helpers/frames.js'
import { solidPng, tempDir } from '../../helpers/media.js'
import { testService, titleEdit } from '../../helpers/service.js'

const REFUSED = /local files are not allowed over the API/
const LOCAL = ['/etc/hostname', 'file:///etc/hostname', '../../etc/hostname']
const clip = (asset: object) => ({ asset, start: 0, length: 1 })
const withClips = (...clips: object[]) => ({ ...titleEdit(1), timeline: { tracks: [{ clips }] } })

/** Every way a source enters an edit: each asset kind's `src` (and `inputSrc`), soundtrack, fonts, merge. */
const routesIn = (src: string): [string, object][] => [
  ['timeline.tracks[0].clips[0].asset.src', withClips(clip({ type: 'video', src }))],
  ['timeline.tracks[0].clips[0].asset.src', withClips(clip({ type: 'image', src }))],
  ['timeline.tracks[0].clips[0].asset.src', withClips(clip({ type: 'audio', src }))],
  ['timeline.tracks[0].clips[0].asset.src', withClips(clip({ type: 'luma', src }))],
  ['timeline.tracks[0].clips[0].asset.src', withClips(clip({ type: 'caption', src }))],
  ['timeline.tracks[0].clips[0].asset.src', withClips(clip({ type: 'rich-caption', src }))],
  ['timeline.tracks[0].clips[0].asset.src', withClips(clip({ type: 'image-to-video', src }))],
  ['timeline.tracks[0].clips[0].asset.inputSrc', withClips(clip({ type: 'video', prompt: 'a kite', inputSrc: src }))],
  ['timeline.soundtrack.src', { ...titleEdit(1), timeline: { ...titleEdit(1).timeline, soundtrack: src } }],
  ['timeline.soundtrack.src', { ...titleEdit(1), timeline: { ...titleEdit(1).timeline, soundtrack: { src, effect: 'fadeIn' } } }],
  ['timeline.fonts[0].src', { ...titleEdit(1), timeline: { ...titleEdit(1).timeline, fonts: [{ src }] } }],
  ['timeline.tracks[0].clips[0].asset.src', { ...withClips(clip({ type: 'image', src: '{{ LOGO }}' })), merge: [{ find: 'LOGO', replace: src }] }],
]

const refuse = suite('local files over the API: refused at submit time, naming the field')
refuse('every asset kind, the soundtrack, fonts and merge values with a path, a file URL or ../ → 400 E_TIMELINE_INVALID', async () => {
  const svc = await testService()
  for (const src of LOCAL) {
    for (const [path, body] of routesIn(src)) {
      for (const route of ['/v1/render', '/edit/v1/render']) {
        const r = await svc.call('POST', route, { body })
        assert.is(r.status, 400, `${route} ${path} ${src}: ${JSON.stringify(r.body)}`)
        assert.is(r.body.error.code, 'E_TIMELINE_INVALID')
        const issue = r.body.error.issues.find((i: { path: string }) => i.path === path)
        assert.ok(issue, `${path} named for ${src}: ${JSON.stringify(r.body.error.issues)}`)
        assert.match(issue.message, REFUSED)
      }
      const check = await svc.call('POST', '/v1/render/validate', { body })
      assert.is(check.body.valid, false, `validate ${path}`)
      assert.match(check.body.error?.message ?? check.body.issues[0].message, REFUSED)
    }
    const stitch = await svc.call('POST', '/v1/stitch', { body: { clips: [{ src: 'https://example.com/a.mp4' }, { src }] } })
    assert.is(stitch.status, 400)
    assert.is(stitch.body.error.issues[0].path, 'clips[1].src')
  }
  assert.is(await svc.jobs.queued(), 0, 'nothing was queued')
  await svc.close()
})
refuse('the refusal names what works instead: an http(s) URL, an upload (either API), the allow-list', async () => {
  const svc = await testService()
  const ways =
    ': give an http(s) URL, or upload the file (POST /v1/upload, or POST /ingest/v1/upload on the Shotstack API) and use its url; an operator can allow folders with REELFORGE_ALLOW_FILES'
  for (const route of ['/v1/render', '/edit/v1/render']) {
    const r = await svc.call('POST', route, { body: withClips(clip({ type: 'image', src: '/etc/hostname' })) })
    assert.is(r.status, 400)
    assert.is(r.body.error.issues[0].message, `local files are not allowed over the API${ways}`, route)
  }
  await svc.close()
  const allowing = await testService({ config: { files: { allow: [tempDir('reelforge-allow-')] } } })
  const relative = await allowing.call('POST', '/v1/render', { body: withClips(clip({ type: 'image', src: 'red.png' })) })
  assert.is(relative.body.error.issues[0].message, `local files are not allowed over the API (except absolute paths inside the allowed directories)${ways}`)
  await allowing.close()
})
refuse("other schemes are refused; alias:// and this service's own file URLs are sources", async () => {
  const svc = await testService()
  for (const src of ['ftp://example.com/a.png', 'data:image/png;base64,AAAA', 'gopher://x/y']) {
    const r = await svc.call('POST', '/v1/render', { body: withClips(clip({ type: 'image', src })) })
    assert.is(r.status, 400, src)
    assert.match(r.body.error.issues[0].message, /must be an http\(s\) URL/)
  }
  const own = '0190a0b0-0000-7000-8000-000000000000/picture.png'
  for (const src of [`http://reelforge.test/v1/files/${own}`, `/v1/files/${own}`]) {
    const r = await svc.call('POST', '/v1/render/validate', { body: withClips(clip({ type: 'image', src })) })
    assert.is(r.body.valid, true, `${src}: ${JSON.stringify(r.body)}`)
  }
  await svc.close()
})
refuse.run()

const allow = suite("an operator's allow-list (ServiceConfig.files.allow, REELFORGE_ALLOW_FILES)")
allow('a file inside an allowed directory renders; .., a symlink out of it and a missing file outside are refused alike', async () => {
  const root = tempDir('reelforge-allow-')
  const media = join(root, 'media')
  mkdirSync(media)
  const picture = await solidPng(join(media, 'red.png'), 32, 18, '#ff0000')
  symlinkSync('/etc/hostname', join(media, 'escape.png'))
  symlinkSync('/etc', join(media, 'etc'))
  const svc = await testService({ start: true, config: { files: { allow: [media] } } })
  for (const src of [
    join(media, 'escape.png'),
    join(media, 'etc/hostname'),
    `${media}/../../../etc/hostname`,
    '/etc/no-such-file',
    `file://${media}/escape.png`,
    'red.png',
  ]) {
    const r = await svc.call('POST', '/v1/render', { body: withClips(clip({ type: 'image', src })) })
    assert.is(r.status, 400, src)
    assert.match(r.body.error.issues[0].message, REFUSED)
    assert.not.match(JSON.stringify(r.body), /\/etc\/|\/tmp\//, 'no server path in the answer')
  }
  const ok = await svc.call('POST', '/v1/render', { body: withClips(clip({ type: 'image', src: picture })) })
  assert.is(ok.status, 201, JSON.stringify(ok.body))
  const done = await svc.waitFor(ok.body.jobId, ['COMPLETE', 'FAILED'])
  assert.is(done.status, 'COMPLETE', done.error)
  await svc.close()
})
allow('the loader itself refuses what the submit check would (defence in depth): a link swapped in after the check', async () => {
  const media = tempDir('reelforge-allow-')
  writeFileSync(join(media, 'a.txt'), 'inside')
  symlinkSync('/etc/hostname', join(media, 'b.txt'))
  const loader = fileLoader({ allow: [media] })
  const ctx = { signal: new AbortController().signal, cacheDir: media, baseDir: media, maxBytes: 1e6, timeoutMs: 1000 }
  assert.is(await loader.load(join(media, 'a.txt'), ctx), join(media, 'a.txt'))
  for (const src of [join(media, 'b.txt'), '/etc/hostname', 'a.txt']) {
    try {
      await loader.load(src, ctx)
      assert.unreachable(src)
    } catch (e) {
      assert.match((e as Error).message, REFUSED, src)
    }
  }
  const none = fileLoader({ allow: [] })
  await none.load(join(media, 'a.txt'), ctx).then(
    () => assert.unreachable('no allow-list: no file'),
    (e: Error) => assert.match(e.message, REFUSED),
  )
})
allow('a job error seen through the API names the file, never its server path; the log keeps it', async () => {
  const media = tempDir('reelforge-allow-')
  // Inside the allowed directory, but gone by the time it renders: the loader's message quotes its path.
  const bogus = join(media, 'not-a-picture.png')
  const svc = await testService({ start: true, config: { files: { allow: [media] } } })
  const logged: string[] = []
  const warn = console.warn
  console.warn = (...a: unknown[]) => void logged.push(a.join(' '))
  try {
    const r = await svc.call('POST', '/v1/render', { body: withClips(clip({ type: 'image', src: bogus })) })
    assert.is(r.status, 201)
    const failed = await svc.waitFor(r.body.jobId, ['COMPLETE', 'FAILED'])
    assert.is(failed.status, 'FAILED')
    assert.match(failed.error, /not-a-picture\.png/, 'the file is named')
    assert.not.ok(failed.error.includes(media), `no server path: ${failed.error}`)
    assert.not.match(failed.error, /(^|[\s"'(])\/[\w.-]+\//, `no absolute path at all: ${failed.error}`)
    assert.ok(
      logged.some((l) => l.includes(bogus)),
      'the server log has the full path',
    )
  } finally {
    console.warn = warn
  }
  await svc.close()
})
allow.run()

const markup = suite('markup never loads files on its own')
markup('an svg <image href> to a local file (path, entity, feImage) draws nothing, in the service and the library', async () => {
  const dir = tempDir('reelforge-svg-')
  const red = await solidPng(join(dir, 'red.png'), 16, 16, '#ff0000')
  const svg = (inner: string) => `<svg xmlns="http://www.w3.org/2000/svg" xmlns:xlink="http://www.w3.org/1999/xlink" width="160" height="90">${inner}</svg>`
  const attacks = [
    `<image href="${red}" width="160" height="90"/>`,
    `<image xlink:href='${red}' width="160" height="90"/>`,
    `<filter id="f"><feImage href="${red}"/></filter><rect width="160" height="90" filter="url(#f)"/>`,
  ]
  const svc = await testService({ start: true, config: { files: { allow: [dir] } } })
  for (const inner of attacks) {
    const r = await svc.call('POST', '/v1/render', {
      body: {
        ...withClips(clip({ type: 'svg', src: svg(inner) })),
        timeline: { background: '#0000ff', tracks: [{ clips: [clip({ type: 'svg', src: svg(inner) })] }] },
      },
    })
    assert.is(r.status, 201, JSON.stringify(r.body))
    const done = await svc.waitFor(r.body.jobId, ['COMPLETE', 'FAILED'])
    assert.is(done.status, 'COMPLETE', done.error)
    const file = join(dir, `${r.body.jobId}.mp4`)
    writeFileSync(file, Buffer.from(await (await svc.app.request(new URL(done.url).pathname)).arrayBuffer()))
    const frames = await decodeFrames(file, 160, 90)
    const [rr, , b] = mean(frames, 0, 40, 20, 120, 70)
    assert.ok(rr < 60 && b > 180, `the blue background shows, not the file's red: ${inner} → ${rr},${b}`)
  }
  await svc.close()
})
markup.run()
