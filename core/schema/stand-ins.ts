import * as v from 'valibot'
import { FIELD } from '../plan/merge.js'
import { EditSchema } from './edit.js'
import { joinPath } from './issues.js'
import type { KnownNames } from './validate.js'

// A saved template may leave its placeholders without values (Shotstack's Templates guide saves
// `"length": "{{ DURATION }}"`, `"src": "{{ URL }}"`): the values come with each render. To check the rest of
// it in full, each field a placeholder fills gets a stand-in its own schema accepts, found by walking the
// edit's schema beside the edit (an asset's schema is its type's).

/** The parts of a valibot schema that lead to its children's schemas (valibot's own property names). */
interface Node {
  type: string
  entries?: Record<string, Node>
  item?: Node
  items?: Node[]
  options?: unknown[]
  wrapped?: Node
  value?: Node
  literal?: unknown
  getter?: (input: unknown) => Node
}

const HAS_FIELD = new RegExp(FIELD.source)
const ASSET = /\.clips\[\d+\]\.asset$/
const BRANCHES = new Set(['union', 'variant', 'intersect'])

/** The schemas a value's child `key` is checked by: several where the value's own schema is a union. */
function children(schema: Node, key: string | number): Node[] {
  if (schema.wrapped) return children(schema.wrapped, key)
  if (schema.getter) return children(schema.getter(undefined), key)
  if (BRANCHES.has(schema.type)) return (schema.options as Node[]).flatMap((o) => children(o, key))
  if (schema.entries) return typeof key === 'string' && Object.hasOwn(schema.entries, key) ? [schema.entries[key]!] : []
  if (schema.type === 'array' && schema.item) return typeof key === 'number' ? [schema.item] : []
  if (schema.type === 'tuple' && schema.items) return typeof key === 'number' && schema.items[key] ? [schema.items[key]] : []
  if (schema.type === 'record' && schema.value) return [schema.value]
  return []
}

/** The names an enum-like schema allows (picklists, literals, and those inside unions and wrappers). */
function named(schema: Node): unknown[] {
  if (schema.wrapped) return named(schema.wrapped)
  if (schema.type === 'picklist') return schema.options ?? []
  if (schema.type === 'literal') return [schema.literal]
  if (BRANCHES.has(schema.type)) return (schema.options as Node[]).flatMap(named)
  return []
}

/** Plain values of each JSON type, tried after the schema's own names; numbers include a frame rate (25). */
const TRIED: unknown[] = [1, 0, 25, 0.5, true, 'a', '#000000', 'https://example.com/a', {}, []]

/** The first value one of `schemas` accepts, or undefined when none does (the placeholder then stays, refused). */
function standIn(schemas: Node[]): { value: unknown } | undefined {
  for (const schema of schemas)
    for (const value of [...named(schema), ...TRIED]) if (v.safeParse(schema as unknown as v.GenericSchema, value).success) return { value }
  return undefined
}

/**
 * The edit (without `merge`, its values already applied) with a stand-in in each field whose string still
 * holds a placeholder, where the field would refuse the string itself; and the path of every such field,
 * `open`: checks that look beyond the schema (sources, callbacks, names) leave those to the render. A
 * placeholder in an asset's `type` stands for the first type whose schema takes the asset's other fields.
 */
export function standIns(edit: Record<string, unknown>, known: KnownNames): { value: Record<string, unknown>; open: string[] } {
  const open: string[] = []
  const visit = (node: unknown, schemas: Node[], path: string, into: string[]): unknown => {
    if (typeof node === 'string') {
      if (!HAS_FIELD.test(node)) return node
      into.push(path)
      if (!schemas.length || schemas.some((s) => v.safeParse(s as unknown as v.GenericSchema, node).success)) return node
      return (standIn(schemas) ?? { value: node }).value
    }
    if (Array.isArray(node))
      return node.map((item, i) =>
        visit(
          item,
          schemas.flatMap((s) => children(s, i)),
          joinPath(path, i),
          into,
        ),
      )
    if (!node || typeof node !== 'object') return node
    if (ASSET.test(path)) return asset(node as Record<string, unknown>, path, into)
    return entries(node as Record<string, unknown>, schemas, path, into)
  }
  const entries = (node: Record<string, unknown>, schemas: Node[], path: string, into: string[]) => {
    const out: Record<string, unknown> = {}
    // A JSON key "__proto__" is an own property; plain assignment would swap the prototype instead.
    for (const [k, value] of Object.entries(node))
      Object.defineProperty(out, k, {
        value: visit(
          value,
          schemas.flatMap((s) => children(s, k)),
          joinPath(path, k),
          into,
        ),
        enumerable: true,
        writable: true,
        configurable: true,
      })
    return out
  }
  const asset = (node: Record<string, unknown>, path: string, into: string[]) => {
    const type = node.type
    if (typeof type !== 'string' || !HAS_FIELD.test(type)) {
      const schema = typeof type === 'string' ? (known.assetSchema(type) as unknown as Node | undefined) : undefined
      return entries(node, schema ? [schema] : [], path, into)
    }
    for (const name of known.assetTypes()) {
      const schema = known.assetSchema(name) as unknown as Node | undefined
      const tried: string[] = []
      const filled = schema && entries({ ...node, type: name }, [schema], path, tried)
      if (filled && v.safeParse(schema as unknown as v.GenericSchema, filled).success) return (into.push(`${path}.type`, ...tried), filled)
    }
    into.push(`${path}.type`)
    return node
  }
  return { value: entries(edit, [EditSchema as unknown as Node], '', open), open }
}
