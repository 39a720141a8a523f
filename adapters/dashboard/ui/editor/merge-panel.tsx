import type { Obj } from './edit-doc.js'
import { mergeValues, placeholders, withMergeValue } from './placeholders.js'
import type { EditorStore } from './store.js'

/** A value typed over a number stays a number when it reads as one (a placeholder in `start` needs one). */
const typed = (text: string, was: unknown) => (typeof was === 'number' && text.trim() !== '' && Number.isFinite(Number(text)) ? Number(text) : text)
const shown = (v: unknown) => (v === undefined ? '' : typeof v === 'string' ? v : JSON.stringify(v))

/**
 * The edit's merge fields: each `{{ KEY }}` it uses, the fields it feeds, and its sample value — the edit's own
 * `merge` entry, which the preview draws with, a template keeps as its default and a render sends along.
 */
export function MergePanel({ store, edit }: { store: EditorStore; edit: Obj }) {
  const found = placeholders(edit)
  const values = mergeValues(edit)
  return (
    <section class="card merge-panel" aria-labelledby="merge-fields-title">
      <h2 id="merge-fields-title">Merge fields</h2>
      {found.size === 0 ? (
        <p class="muted">
          No placeholders: write <code>{'{{ NAME }}'}</code> in any field to make one.
        </p>
      ) : (
        <ul class="merge-fields">
          {[...found].map(([key, paths]) => (
            <li data-merge={key}>
              <label for={`merge-${key}`}>{key}</label>
              <input
                id={`merge-${key}`}
                key={shown(values.get(key))}
                defaultValue={shown(values.get(key))}
                aria-describedby={`merge-${key}-feeds`}
                onChange={(e) => store.change(`Sample value of ${key}`, withMergeValue(edit, key, typed(e.currentTarget.value, values.get(key))))}
              />
              <span class="muted" id={`merge-${key}-feeds`}>
                feeds {paths.map((p) => p.replace(/^timeline\.tracks/, 'tracks')).join(', ')}
                {values.has(key) ? '' : ' — no sample value yet'}
              </span>
            </li>
          ))}
        </ul>
      )}
    </section>
  )
}
