/** The preview page: the latest render playing, a scrubber that shows any frame at once, and the state live. */
export const PREVIEW_PAGE = `<!doctype html>
<html lang="en">
<head>
<meta charset="utf-8"><meta name="viewport" content="width=device-width, initial-scale=1">
<title>reelforge preview</title>
<style>
  body { font: 15px system-ui, sans-serif; margin: 0; background: #111; color: #eee }
  main { max-width: 960px; margin: 0 auto; padding: 16px }
  video, img { width: 100%; background: #000; border-radius: 6px }
  #state { margin: 8px 0; color: #9ad } #state.failed { color: #f88; white-space: pre-wrap }
  label { display: block; margin-top: 12px }
  input[type=range] { width: 100% }
</style>
</head>
<body><main>
  <h1 id="name">preview</h1>
  <p id="state" role="status">waiting for the first render…</p>
  <video id="video" controls muted playsinline></video>
  <label for="t">Frame at <output id="at">0.00</output> s (drawn on its own, before the render ends)</label>
  <input id="t" type="range" min="0" max="10" step="0.04" value="0">
  <img id="frame" alt="the frame at the scrubber's time">
</main>
<script type="module">
  const $ = (id) => document.getElementById(id)
  let version = 0
  const show = (text, failed = false) => { $('state').textContent = text; $('state').className = failed ? 'failed' : '' }
  const frame = () => { $('at').textContent = Number($('t').value).toFixed(2); $('frame').src = '/frame?t=' + $('t').value + '&v=' + version }
  $('t').addEventListener('change', frame)
  $('t').addEventListener('input', () => ($('at').textContent = Number($('t').value).toFixed(2)))
  const events = new EventSource('/events')
  events.addEventListener('rendering', (e) => show('rendering… ' + Math.round(JSON.parse(e.data).progress * 100) + ' %'))
  events.addEventListener('failed', (e) => show(JSON.parse(e.data).message, true))
  events.addEventListener('rendered', (e) => {
    const r = JSON.parse(e.data)
    version = r.version
    $('name').textContent = r.name
    $('t').max = String(r.duration)
    show('rendered ' + r.duration.toFixed(2) + ' s in ' + (r.renderMs / 1000).toFixed(1) + ' s (version ' + r.version + ') — save the file to render again')
    $('video').src = '/video?v=' + r.version
    frame()
  })
</script>
</body></html>
`
