import { join } from 'node:path'
import { readFileSync, writeFileSync } from 'node:fs'
import { suite } from 'uvu'
import * as assert from 'uvu/assert'
import { decodeFrames } from '../../helpers/frames.js'
import { indexedVideo, readIndex, tempDir } from '../../helpers/media.js'
import { testService } from '../../helpers/service.js'
import { startWebHost } from '../../helpers/web-hosts.js'

// Templates whose placeholders have no saved value (Shotstack's Templates guide saves `"src": "{{ URL }}"`,
// `"length": "{{ DURATION }}"`): saved with each placeholder standing for any value of its field, everything
// else checked as a render would be; rendered once merge gives every value; refused, naming the placeholder and
// the fields it feeds, when merge leaves one out.

const svc = await testService({ start: true })
const dir = tempDir('reelforge-placeholders-')
// Frame N of the clip shows N in binary bars: the first frame rendered tells which source frame `trim` chose.
const clip = await indexedVideo(join(dir, 'bars.mp4'), { fps: 25, seconds: 3 })
const host = await startWebHost({ 'bars.mp4': readFileSync(clip) })

/** Placeholders in numbers (length, trim, start), an enum (fit), a boolean (flip), a name, src, a colour; no `merge`. */
const template = () => ({
  timeline: {
    background: '{{ BACKGROUND }}',
    tracks: [
      {
        clips: [
          {
            asset: { type: 'video', src: '{{ URL }}', trim: '{{ TRIM }}' },
            start: 0,
            length: '{{ DURATION }}',
            fit: '{{ FIT }}',
            transform: { flip: { horizontal: '{{ MIRROR }}' } },
          },
          { asset: { type: 'title', text: 'Hi {{ NAME }}' }, start: '{{ DURATION }}', length: 0.4, transition: { in: '{{ ENTRANCE }}' } },
        ],
      },
    ],
  },
  output: { format: 'mp4', size: { width: 160, height: 40 }, fps: 25 },
})
const values = (omit = '') =>
  Object.entries({
    BACKGROUND: '#000000',
    URL: `${host.url}/length-keep-alive/bars.mp4`,
    TRIM: 1.2,
    DURATION: 1,
    FIT: 'none',
    MIRROR: false,
    ENTRANCE: 'fade',
    NAME: 'there',
  })
    .filter(([find]) => find !== omit)
    .map(([find, replace]) => ({ find, replace }))
const save = async (key: string, body: unknown = template()) => svc.call('POST', '/v1/templates', { key, body: { name: 'guide', template: body } })
const paths = (r: { body: any }): string[] => (r.body.error?.issues ?? []).map((i: { path: string }) => i.path)

const saving = suite('saving a template with placeholders and no values')
saving('is a 201 with live and sandbox keys; the read lists each placeholder with every field it feeds', async () => {
  for (const key of [svc.live, svc.sandbox]) {
    const made = await save(key)
    assert.is(made.status, 201, JSON.stringify(made.body))
    assert.equal(made.body.template, template(), 'stored as sent, placeholders and all')
    const read = await svc.call('GET', `/v1/templates/${made.body.id}`, { key })
    const clip0 = 'timeline.tracks[0].clips[0]'
    assert.equal(read.body.merge_fields, [
      { find: 'BACKGROUND', fields: ['timeline.background'] },
      { find: 'URL', fields: [`${clip0}.asset.src`] },
      { find: 'TRIM', fields: [`${clip0}.asset.trim`] },
      { find: 'DURATION', fields: [`${clip0}.length`, 'timeline.tracks[0].clips[1].start'] },
      { find: 'FIT', fields: [`${clip0}.fit`] },
      { find: 'MIRROR', fields: [`${clip0}.transform.flip.horizontal`] },
      { find: 'NAME', fields: ['timeline.tracks[0].clips[1].asset.text'] },
      { find: 'ENTRANCE', fields: ['timeline.tracks[0].clips[1].transition.in'] },
    ])
  }
})
saving('a real error beside placeholders is still a 400 naming that field, and only that field', async () => {
  const bad = template() as any
  bad.timeline.tracks[0].clips[0].opacity = 3
  bad.timeline.tracks[0].clips[1].asset.type = 'titel'
  bad.output.format = 'avi'
  const r = await save(svc.live, bad)
  assert.is(r.status, 400)
  assert.equal(paths(r).sort(), ['template.output.format', 'template.timeline.tracks[0].clips[0].opacity', 'template.timeline.tracks[0].clips[1].asset.type'])
  // Sources are still judged where no placeholder stands: a local path beside `{{ URL }}` is refused.
  const local = template() as any
  local.timeline.tracks[0].clips.push({ asset: { type: 'image', src: '/etc/passwd' }, start: 0, length: 1 })
  const refused = await save(svc.live, local)
  assert.is(refused.status, 400)
  assert.equal(paths(refused), ['template.timeline.tracks[0].clips[2].asset.src'])
  // A placeholder cannot make a field's own type wrong: a track list is an array, not a string.
  const shapeless = { ...template(), timeline: { tracks: '{{ TRACKS }}' } }
  assert.equal(paths(await save(svc.live, shapeless)), ['template.timeline.tracks'])
})
saving('a callback and a destination endpoint given by placeholders are judged when a render merges them', async () => {
  const output = { ...template().output, destinations: [{ provider: 's3', options: { bucket: '{{ BUCKET }}', endpoint: '{{ ENDPOINT }}' } }] }
  const made = await save(svc.live, { ...template(), callback: '{{ HOOK }}', output })
  assert.is(made.status, 201, JSON.stringify(made.body))
  const merge = [
    ...values(),
    { find: 'HOOK', replace: 'http://10.0.0.1/hook' },
    { find: 'BUCKET', replace: 'renders' },
    { find: 'ENDPOINT', replace: 'http://10.0.0.2' },
  ]
  const refused = await svc.call('POST', `/v1/templates/${made.body.id}/render`, { body: { merge } })
  assert.is(refused.status, 400)
  assert.equal(paths(refused), ['callback'], 'the merged private address is refused as in any render')
  const hooked = merge.map((f) => (f.find === 'HOOK' ? { find: 'HOOK', replace: 'http://127.0.0.1:9/hook' } : f))
  const endpoint = await svc.call('POST', `/v1/templates/${made.body.id}/render`, { body: { merge: hooked } })
  assert.ok(paths(endpoint).includes('output.destinations[0].options.endpoint'), JSON.stringify(endpoint.body))
})
saving.run()

const rendering = suite('rendering it')
rendering('with every value merged: COMPLETE, at the merged length, trimmed where merge says', async () => {
  const made = await save(svc.live)
  const r = await svc.call('POST', `/v1/templates/${made.body.id}/render`, { body: { merge: values() } })
  assert.is(r.status, 201, JSON.stringify(r.body))
  const done = await svc.waitFor(r.body.jobId, ['COMPLETE', 'FAILED'])
  assert.is(done.status, 'COMPLETE', done.error)
  assert.ok(Math.abs(done.duration - 1.4) < 0.05, `DURATION 1 + the 0.4 s title, got ${done.duration}`)
  const file = join(dir, 'out.mp4')
  writeFileSync(file, Buffer.from(await (await svc.app.request(new URL(done.url).pathname)).arrayBuffer()))
  const frames = await decodeFrames(file, 160, 40)
  // TRIM 1.2 s at 25 fps: the render opens on source frame 30.
  assert.is(readIndex(frames, 0, 0, 20, 20), 30)
})
rendering('with a value missing: 400 naming the placeholder and every field it feeds; nothing queued', async () => {
  for (const key of [svc.live, svc.sandbox]) {
    const made = await save(key)
    const r = await svc.call('POST', `/v1/templates/${made.body.id}/render`, { key, body: { merge: values('DURATION') } })
    assert.is(r.status, 400)
    assert.is(r.body.error.code, 'E_VALIDATION')
    assert.match(
      r.body.error.message,
      '{{ DURATION }} has no value in merge; it feeds timeline.tracks[0].clips[0].length and timeline.tracks[0].clips[1].start',
    )
    assert.equal(paths(r), ['merge'])
  }
  const made = await save(svc.live)
  const none = await svc.call('POST', `/v1/templates/${made.body.id}/render`, { body: {} })
  assert.is(none.body.error.issues.length, 8, 'one issue per placeholder')
})
rendering('merged values are checked as a render: a bad FIT is a 400 naming the field', async () => {
  const made = await save(svc.live)
  const merge = values().map((f) => (f.find === 'FIT' ? { find: 'FIT', replace: 'squash' } : f))
  const r = await svc.call('POST', `/v1/templates/${made.body.id}/render`, { body: { merge } })
  assert.is(r.status, 400)
  assert.equal(paths(r), ['timeline.tracks[0].clips[0].fit'])
})
rendering.after(async () => {
  await host.close()
  await svc.close()
})
rendering.run()
