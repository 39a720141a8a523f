import type { EditSchema, JsonSchema } from './schema.js'

/** Lists the inspector fills from the server's catalogue rather than from the schema (custom plugins too). */
export type Catalog = 'transitions' | 'effects' | 'filters' | 'fits' | 'fonts'

/** One control of the inspector, made from one property of the published schema. */
export interface Field {
  /** Under the subject (the clip, the timeline or the output). */
  path: string[]
  /** The path in dots: what the label says, as the JSON spells it. */
  label: string
  kind: 'number' | 'text' | 'longtext' | 'enum' | 'color' | 'boolean' | 'catalog' | 'group' | 'json'
  options?: string[]
  catalog?: Catalog
  required: boolean
  /** Numbers may also be keyframe lists (`[{from, to, …}]`), edited in the JSON. */
  animatable?: boolean
  description?: string
  children?: Field[]
}

/** Properties the inspector never shows as fields: the asset's type is fixed, tracks are the timeline's job. */
const SKIP = new Set(['type', 'tracks', 'asset'])
/** Strings that hold colours (a picker beside the text). */
const COLOUR = /(^|[a-z])(colou?r|background)$/i
/** Strings long enough for a text area. */
const LONG = new Set(['text', 'html', 'css', 'prompt'])

/** The alternatives of an `anyOf`/`oneOf`, nested ones flattened and refs followed. */
function alternatives(schema: EditSchema, node: JsonSchema): JsonSchema[] {
  const alts = node.anyOf ?? node.oneOf
  if (!alts) return [node]
  return alts.flatMap((a) => {
    const r = schema.resolve(a)
    return r ? alternatives(schema, r) : []
  })
}

/** `transition.in`/`out`, `effect`, `filter`, `fit` of a clip and any `font.family`: names the renderer knows. */
function catalogOf(path: string[]): Catalog | undefined {
  const [first] = path
  if (first === 'transition' && path.length === 2) return 'transitions'
  if (path.length === 1 && first === 'effect') return 'effects'
  if (path.length === 1 && first === 'filter') return 'filters'
  if (path.length === 1 && first === 'fit') return 'fits'
  if (path.at(-1) === 'family' && path.at(-2) === 'font') return 'fonts'
  return undefined
}

/** The field for property `key` of an object schema at `path` (undefined for what the inspector leaves to the JSON view). */
function field(schema: EditSchema, raw: JsonSchema, path: string[], required: boolean, depth: number): Field | undefined {
  const node = schema.resolve(raw)
  if (!node || node.const !== undefined) return undefined
  const key = path.at(-1)!
  const base = { path, label: path.join('.'), required, description: node.description }
  const catalog = catalogOf(path)
  const alts = alternatives(schema, node)
  const types = new Set(alts.map((a) => (a.enum ? 'enum' : a.type)))
  if (catalog && types.has('string')) return { ...base, kind: 'catalog', catalog }
  if (types.has('number') || types.has('integer')) return { ...base, kind: 'number', animatable: types.has('array') }
  if (types.has('boolean')) return { ...base, kind: 'boolean' }
  if (alts.every((a) => a.enum || a.const !== undefined))
    return { ...base, kind: 'enum', options: [...new Set(alts.flatMap((a) => (a.enum ?? [a.const]).map(String)))] }
  if (types.size === 1 && types.has('string')) return { ...base, kind: COLOUR.test(key) ? 'color' : LONG.has(key) ? 'longtext' : 'text' }
  if (types.size === 1 && types.has('object') && alts[0]!.properties && depth < 3) {
    const children = fieldsOf(schema, alts[0]!, path, depth + 1)
    return children.length ? { ...base, kind: 'group', children } : undefined
  }
  return { ...base, kind: 'json' }
}

/** The fields of an object schema (a Clip, an asset type, the Timeline, the Output), in the schema's order. */
export function fieldsOf(schema: EditSchema, node: JsonSchema | undefined, at: string[] = [], depth = 0): Field[] {
  const resolved = schema.resolve(node)
  const required = new Set(resolved?.required ?? [])
  return Object.entries(resolved?.properties ?? {}).flatMap(([key, prop]) => {
    if (depth === 0 && SKIP.has(key)) return []
    const f = field(schema, prop, [...at, key], required.has(key), depth)
    return f ? [f] : []
  })
}
