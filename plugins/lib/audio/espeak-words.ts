import { spawn } from 'node:child_process'
import type { TimedWord } from '../../../core/index.js'
import { round, wordTokens } from './timed-words.js'

/**
 * espeak-ng's own word and phoneme events, read through its C library (libespeak-ng, installed with the
 * espeak-ng package) from a few lines of Python ctypes: Node has no FFI, and the espeak-ng command line
 * reports no times (`--pho` writes nothing for its own voices, only MBROLA ones; `-x`/`-X` give phonemes
 * without durations; `-g` word gaps change the words themselves, since espeak lengthens a syllable before a
 * pause). The library synthesizes the same samples as the command line with the same voice and rate (checked:
 * byte-identical up to the end pause the CLI appends), so its event times hold for the file `speak()` wrote.
 * Output: JSON `[ms, type, text position, length, phoneme]` per event (1 = word, 7 = phoneme), then the total.
 */
const PROBE = `
import ctypes, ctypes.util, json, sys
name = ctypes.util.find_library('espeak-ng') or 'libespeak-ng.so.1'
lib = ctypes.CDLL(name)
class Event(ctypes.Structure):
    _fields_ = [('type', ctypes.c_int), ('uid', ctypes.c_uint), ('text_position', ctypes.c_int), ('length', ctypes.c_int),
                ('audio_position', ctypes.c_int), ('sample', ctypes.c_int), ('user_data', ctypes.c_void_p), ('id', ctypes.c_char * 8)]
Callback = ctypes.CFUNCTYPE(ctypes.c_int, ctypes.POINTER(ctypes.c_short), ctypes.c_int, ctypes.POINTER(Event))
rate = lib.espeak_Initialize(2, 0, None, 1)  # AUDIO_OUTPUT_SYNCHRONOUS, phoneme events on
if rate <= 0: sys.exit('espeak-ng library failed to start')
out, samples = [], [0]
def on_audio(wav, n, events):
    samples[0] += max(n, 0)
    i = 0
    while events[i].type != 0:
        e = events[i]
        if e.type in (1, 7): out.append([e.audio_position, e.type, e.text_position, e.length, e.id.decode('latin-1') if e.type == 7 else ''])
        i += 1
    return 0
keep = Callback(on_audio)
lib.espeak_SetSynthCallback(keep)
if lib.espeak_SetVoiceByName(sys.argv[1].encode()) != 0: sys.exit('unknown espeak-ng voice ' + sys.argv[1])
lib.espeak_SetParameter(1, int(sys.argv[2]), 0)
text = sys.stdin.buffer.read()
lib.espeak_Synth(text, len(text) + 1, 0, 1, 0, 1, None, None)  # POS_CHARACTER, espeakCHARS_UTF8
lib.espeak_Synchronize()
json.dump({'events': out, 'ms': samples[0] * 1000 // rate}, sys.stdout)
`

type Event = [ms: number, type: number, position: number, length: number, phoneme: string]

/** The exact time span of each of the text's words (`wordTokens`) as espeak-ng with `voice` at `rate` says them. */
export async function espeakWordTimes(text: string, voice: string, rate: number, signal?: AbortSignal): Promise<TimedWord[]> {
  const raw = await new Promise<string>((resolve, reject) => {
    const child = spawn(process.env.REELFORGE_PYTHON || 'python3', ['-c', PROBE, voice, String(rate)], { stdio: ['pipe', 'pipe', 'pipe'], signal })
    let out = ''
    let err = ''
    child.stdout.on('data', (d) => (out += d))
    child.stderr.on('data', (d) => (err += d))
    child.on('error', reject)
    child.on('close', (code) => (code === 0 ? resolve(out) : reject(new Error(`espeak-ng word timings failed (exit ${code}): ${err.trim().slice(-300)}`))))
    child.stdin.end(text)
  })
  const { events, ms } = JSON.parse(raw) as { events: Event[]; ms: number }
  return wordsFromEvents(text, events, ms)
}

/**
 * Events to word spans. A word event (position counted in code points from 1) says which word the phonemes
 * after it belong to; a phoneme lasts until the next event's time; a word spans its phonemes, so pauses (`_`
 * phonemes) fall between words. Numbers ("123") give several word events inside one written word.
 */
export function wordsFromEvents(text: string, events: Event[], totalMs: number): TimedWord[] {
  const tokens = wordTokens(text)
  const span = tokens.map(() => ({ start: Number.POSITIVE_INFINITY, end: Number.NEGATIVE_INFINITY }))
  // When the phoneme at each index ends: the time of the next phoneme event after it.
  const endsAt: number[] = []
  let after = totalMs
  for (let k = events.length - 1; k >= 0; k--) {
    endsAt[k] = after
    if (events[k]![1] === 7) after = events[k]![0]
  }
  let owner = -1
  events.forEach(([ms, type, position, length, phoneme], k) => {
    if (type === 1) {
      if (length > 0) owner = tokens.findIndex((t) => t.from <= position - 1 && position - 1 < t.to)
    } else if (owner >= 0 && !phoneme.startsWith('_')) {
      span[owner]!.start = Math.min(span[owner]!.start, ms)
      span[owner]!.end = Math.max(span[owner]!.end, endsAt[k]!)
    }
  })
  // A word espeak did not voice (a symbol it skips) takes no time where it stands, so the count still matches.
  let last = 0
  const words = tokens.map((t, i) => {
    const s = span[i]!
    const start = Number.isFinite(s.start) ? Math.max(s.start, last) : last
    last = Math.max(start, Number.isFinite(s.end) ? Math.min(s.end, totalMs) : start)
    return { text: t.text, start, end: last }
  })
  return shareJoinedWords(words).map((w) => ({ text: w.text, start: round(w.start / 1000), end: round(w.end / 1000) }))
}

/**
 * espeak voices a weak word with the next one ("the dashboard" is one phonetic word): its own span is empty.
 * The pair's span is shared by letters, so a caption never shows a word for no time.
 */
function shareJoinedWords(words: TimedWord[]): TimedWord[] {
  for (let i = words.length - 2; i >= 0; i--) {
    const [w, next] = [words[i]!, words[i + 1]!]
    if (w.end > w.start || next.start !== w.end || next.end <= next.start) continue
    const cut = w.start + ((next.end - w.start) * w.text.length) / (w.text.length + next.text.length)
    words[i] = { ...w, end: cut }
    words[i + 1] = { ...next, start: cut }
  }
  return words
}
