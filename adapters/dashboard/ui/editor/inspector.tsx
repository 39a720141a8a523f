import type { Issue } from '../api.js'
import type { Catalogue } from './catalog.js'
import { assetType, clipAt, clipPath, getIn, isObj, type Obj, setIn } from './edit-doc.js'
import { type FieldEnv, FieldControl } from './field.js'
import { type Field, fieldsOf } from './form-model.js'
import { mergeValues, sampled } from './placeholders.js'
import type { EditSchema } from './schema.js'
import type { EditorStore, Step } from './store.js'

interface Props {
  store: EditorStore
  step: Step
  schema?: EditSchema
  schemaError?: Error
  catalogue: Catalogue
  issues: Issue[]
}

/** A chosen uploaded font is drawn only with its file in `timeline.fonts`: added there once. */
function withFontFile(edit: Obj, family: unknown, catalogue: Catalogue): Obj {
  const src = catalogue.fonts?.find((f) => f.family === family && f.source === 'upload')?.src
  const fonts = getIn(edit, ['timeline', 'fonts'])
  const list = Array.isArray(fonts) ? fonts : []
  if (!src || list.some((f) => isObj(f) && f.src === src)) return edit
  return setIn(edit, ['timeline', 'fonts'], [...list, { src }]) as Obj
}

/** The fields of one part of the edit, and the issues said of it that no field shows. */
function Section(props: { title: string; fields: Field[]; env: FieldEnv; issues: Issue[] }) {
  const shownPaths = new Set<string>()
  const walk = (fs: Field[]) => fs.forEach((f) => (shownPaths.add(`${props.env.at}.${f.label}`), f.children && walk(f.children)))
  walk(props.fields)
  const rest = props.issues.filter((i) => (i.path === props.env.at || i.path.startsWith(`${props.env.at}.`)) && !shownPaths.has(i.path))
  return (
    <fieldset class="insp-section">
      <legend>{props.title}</legend>
      {rest.length > 0 && (
        <ul class="issues" role="alert">
          {rest.map((i) => (
            <li>
              <code>{i.path.slice(props.env.at.length + 1) || props.title}</code> {i.message}
            </li>
          ))}
        </ul>
      )}
      {props.fields.map((f) => (
        <FieldControl field={f} env={props.env} />
      ))}
    </fieldset>
  )
}

/**
 * A form for the selected clip and its asset — or, with nothing selected, the timeline and the output — made
 * from the schema the API publishes (`GET /v1/openapi.json`), with the validation's messages beside their
 * fields. Every change is one step of the store's history.
 */
export function Inspector({ store, step, schema, schemaError, catalogue, issues }: Props) {
  const issue = (path: string) => issues.find((i) => i.path === path)?.message
  const merge = mergeValues(step.edit)
  const sample = (v: unknown) => sampled(v, merge)
  const body = () => {
    if (!schema) return <p class="muted">{schemaError ? `The edit schema could not be read: ${schemaError.message}` : 'Reading the edit schema…'}</p>
    const edit = step.edit
    if (step.selection.length > 1) return <p>{step.selection.length} clips selected: drag, nudge, duplicate or delete them together.</p>
    const ref = step.selection[0]
    const clip = ref && clipAt(edit, ref)
    if (ref && clip) {
      const at = clipPath(ref)
      const env: FieldEnv = {
        subject: clip,
        at,
        issue,
        catalogue,
        sample,
        commit: (f, value) => {
          let next = setIn(edit, ['timeline', 'tracks', ref.track, 'clips', ref.clip, ...f.path], value) as Obj
          if (f.catalog === 'fonts') next = withFontFile(next, value, catalogue)
          store.change(`Set ${f.label}`, next, [ref])
        },
      }
      const type = assetType(clip)
      const assetSchema = schema.asset(type)
      return (
        <>
          <Section
            title={`Asset (${type})`}
            fields={assetSchema ? fieldsOf(schema, assetSchema, ['asset']) : []}
            env={env}
            issues={issues.filter((i) => i.path.startsWith(`${at}.asset`))}
          />
          <Section title="Clip" fields={fieldsOf(schema, schema.components.Clip)} env={env} issues={issues.filter((i) => !i.path.startsWith(`${at}.asset`))} />
        </>
      )
    }
    const part = (key: 'timeline' | 'output', component: string, title: string) => {
      const env: FieldEnv = {
        subject: edit[key],
        at: key,
        issue,
        catalogue,
        sample,
        commit: (f, value) => store.change(`Set ${key}.${f.label}`, setIn(edit, [key, ...f.path], value) as Obj),
      }
      return (
        <Section
          title={title}
          fields={fieldsOf(schema, schema.components[component])}
          env={env}
          issues={issues.filter((i) => !i.path.startsWith('timeline.tracks'))}
        />
      )
    }
    return (
      <>
        <p class="muted">No clip selected: the timeline and the output.</p>
        {part('timeline', 'Timeline', 'Timeline')}
        {part('output', 'Output', 'Output')}
      </>
    )
  }
  return (
    <section class="card inspector" aria-labelledby="inspector-title">
      <h2 id="inspector-title">Inspector</h2>
      {body()}
    </section>
  )
}
