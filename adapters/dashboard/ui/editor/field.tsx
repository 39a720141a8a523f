import type { ComponentChildren } from 'preact'
import type { Catalogue } from './catalog.js'
import { getIn } from './edit-doc.js'
import type { Field } from './form-model.js'
import { pickerColour } from './picker-colour.js'

export interface FieldEnv {
  /** The object the fields' paths start from (a clip, the timeline, the output). */
  subject: unknown
  /** The API path of the subject (`timeline.tracks[0].clips[1]`), to match the validation's issues. */
  at: string
  issue(path: string): string | undefined
  catalogue: Catalogue
  commit(field: Field, value: unknown): void
  /** A placeholder's sample value (`{{ COLOUR }}` → `#00ff00`), else the value: what the picker shows. */
  sample(value: unknown): unknown
}

const idOf = (at: string, f: Field) => `insp-${`${at}.${f.label}`.replace(/[^\w-]+/g, '-')}`

/** A typed number stays a number; anything else (`auto`, `end`, `{{ START }}`) stays the text it is. */
export function parseNumberish(text: string): unknown {
  const t = text.trim()
  if (t === '') return undefined
  return /^[-+]?(\d+\.?\d*|\.\d+)(e[-+]?\d+)?$/i.test(t) ? Number(t) : t
}

const shown = (v: unknown) => (v === undefined || v === null ? '' : typeof v === 'string' ? v : JSON.stringify(v))

/**
 * One inspector control for `field`, its value read from the subject. Text-like controls commit on change
 * (leaving the field or Enter), so each edit of a field is one undo step; an emptied optional field is removed.
 */
export function FieldControl({ field: f, env }: { field: Field; env: FieldEnv }) {
  const id = idOf(env.at, f)
  const value = getIn(env.subject, f.path)
  const issue = env.issue(`${env.at}.${f.label}`)
  const described = issue ? `${id}-issue` : undefined
  // The whole path names the control (the label shows only its last part inside a group).
  const common = { id, 'aria-label': f.label, 'aria-invalid': !!issue, 'aria-describedby': described }
  const commit = (v: unknown) => env.commit(f, v === '' ? undefined : v)
  let control: ComponentChildren
  // A group starts folded unless something in it is set (or wrong): the form stays short.
  if (f.kind === 'group')
    return (
      <details class="insp-group" open={value !== undefined || !!issue}>
        <summary>{f.label}</summary>
        {f.children!.map((c) => (
          <FieldControl field={c} env={env} />
        ))}
      </details>
    )
  if (f.kind === 'json' || (f.animatable && Array.isArray(value)))
    control = (
      <output id={id} class="insp-json" aria-label={f.label} aria-describedby={described}>
        {value === undefined ? '(not set)' : `${shown(value).slice(0, 60)}${shown(value).length > 60 ? '…' : ''}`} — edit in the JSON view
      </output>
    )
  else if (f.kind === 'boolean')
    control = <input {...common} type="checkbox" checked={value === true || value === 'true'} onChange={(e) => commit(e.currentTarget.checked)} />
  else if (f.kind === 'enum' || f.kind === 'catalog') {
    const options = f.kind === 'enum' ? f.options! : env.catalogue.names(f.catalog!)
    const all = typeof value === 'string' && value && !options.includes(value) ? [value, ...options] : options
    control = (
      <select {...common} value={shown(value)} onChange={(e) => commit(e.currentTarget.value)}>
        <option value="">{f.kind === 'catalog' && f.catalog !== 'fonts' && f.catalog !== 'fits' ? '(none)' : '(not set)'}</option>
        {all.map((o) => (
          <option value={o}>{o}</option>
        ))}
      </select>
    )
  } else if (f.kind === 'color')
    control = (
      <span class="insp-colour">
        <input
          {...common}
          type="color"
          value={pickerColour(env.sample(value)) ?? '#000000'}
          data-unset={pickerColour(env.sample(value)) === undefined ? '' : undefined}
          onChange={(e) => commit(e.currentTarget.value)}
        />
        <input
          key={shown(value)}
          type="text"
          aria-label={`${f.label} (text)`}
          placeholder="not set"
          defaultValue={shown(value)}
          spellcheck={false}
          onChange={(e) => commit(e.currentTarget.value)}
        />
      </span>
    )
  else if (f.kind === 'longtext')
    control = <textarea {...common} key={shown(value)} rows={3} defaultValue={shown(value)} onChange={(e) => commit(e.currentTarget.value)} />
  else
    control = (
      <input
        {...common}
        key={shown(value)}
        type="text"
        inputMode={f.kind === 'number' ? 'decimal' : undefined}
        defaultValue={shown(value)}
        spellcheck={false}
        onChange={(e) => commit(f.kind === 'number' ? parseNumberish(e.currentTarget.value) : e.currentTarget.value)}
      />
    )
  return (
    <div class="insp-field" data-path={f.label}>
      <label for={id} title={f.description}>
        {f.path.at(-1)}
        {f.required && <span aria-hidden="true"> *</span>}
      </label>
      {control}
      {issue && (
        <span class="field-error" id={described}>
          {issue}
        </span>
      )}
    </div>
  )
}
