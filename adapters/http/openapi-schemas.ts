import { type JsonSchema, toJsonSchemaDefs } from '@valibot/to-json-schema'
import type { GenericSchema } from 'valibot'

/**
 * Component names of valibot schemas, set by `named` beside each schema (or in ./schemas.ts for schemas
 * defined outside the HTTP layer). A named schema is written once under `components.schemas` and every
 * body or field that uses it points there with `$ref`, so a client generator makes one type of it.
 */
const names = new Map<GenericSchema, { name: string; extra?: Record<string, unknown> }>()
/** Schemas documented as another one's component (the loose clip `asset` as the `Asset` union). */
const substitutes = new Map<GenericSchema, GenericSchema>()

export const componentRef = (name: string) => `#/components/schemas/${name}`

/** Documents `schema` as `components.schemas[name]`, with `extra` keywords (e.g. a discriminator) added. */
export function named<S extends GenericSchema>(name: string, schema: S, extra?: Record<string, unknown>): S {
  // One name, one schema: either way round, two generated types would be one, or one would be lost.
  const clash = [...names].find(([s, n]) => (n.name === name) !== (s === schema))
  if (clash) throw new Error(`OpenAPI: component ${name} clashes with ${clash[1].name} (one schema, two names, or one name, two schemas)`)
  names.set(schema, { name, extra })
  return schema
}

/** Documents `schema` as a `$ref` to the component of `as` (which must be `named`). */
export function documentAs(schema: GenericSchema, as: GenericSchema): void {
  substitutes.set(schema, as)
}

export const nameOf = (schema: GenericSchema) => names.get(schema)?.name

/**
 * `components.schemas` for the named schemas plus `local` (the bodies the document named for itself), kept
 * to those `used` reaches through `$ref`s, so nothing unused is published.
 */
export function componentSchemas(local: ReadonlyMap<GenericSchema, string>, used: unknown): Record<string, JsonSchema> {
  const all = new Map([...[...names].map(([s, n]) => [s, n.name] as const), ...local])
  const defs = toJsonSchemaDefs(Object.fromEntries([...all].map(([s, n]) => [n, s])) as never, {
    target: 'draft-2020-12',
    // Bodies are documented as the client writes them: up to the first transformation of a pipe.
    typeMode: 'input',
    errorMode: 'ignore',
    overrideRef: ({ referenceId }) => componentRef(referenceId),
    overrideSchema: ({ valibotSchema, jsonSchema }) => {
      const as = substitutes.get(valibotSchema as GenericSchema)
      if (as) return { $ref: componentRef(all.get(as)!) }
      return 'default' in jsonSchema ? withoutDefault(jsonSchema) : undefined
    },
  })
  for (const [, { name, extra }] of names) if (extra && defs[name]) Object.assign(defs[name], extra)
  const kept: Record<string, JsonSchema> = {}
  const visit = (node: unknown): void => {
    if (!node || typeof node !== 'object') return
    const ref = (node as { $ref?: unknown }).$ref
    if (typeof ref === 'string' && ref.startsWith(componentRef(''))) {
      const name = ref.slice(componentRef('').length)
      if (!kept[name] && defs[name]) visit((kept[name] = defs[name]))
    }
    for (const value of Object.values(node)) visit(value)
  }
  visit(used)
  return Object.fromEntries(Object.entries(kept).sort(([a], [b]) => a.localeCompare(b)))
}

/**
 * A default is what the service assumes when a field is absent, so the field stays optional: as the
 * `default` keyword, generators (openapi-typescript) would type it as always present, in edits echoed back
 * as submitted too. It is said in the description instead.
 */
function withoutDefault({ default: value, ...schema }: JsonSchema): JsonSchema {
  const said = `Default: \`${JSON.stringify(value)}\`.`
  return { ...schema, description: schema.description ? `${schema.description} ${said}` : said }
}
