import { useEffect, useState } from 'preact/hooks'
import { api } from '../api.js'
import { isObj, type Obj } from './edit-doc.js'

/** A JSON Schema node as the API publishes it (draft 2020-12, from the valibot schemas). */
export type JsonSchema = Obj & {
  type?: string
  enum?: unknown[]
  const?: unknown
  anyOf?: JsonSchema[]
  oneOf?: JsonSchema[]
  properties?: Record<string, JsonSchema>
  items?: JsonSchema
  required?: string[]
  description?: string
  $ref?: string
}

/** The edit's schema: `components.schemas` of `GET /v1/openapi.json` (Clip, each asset type, Timeline, Output…). */
export interface EditSchema {
  components: Record<string, JsonSchema>
  /** A node with its `$ref` followed (nested refs stay until they are walked into). */
  resolve(node: JsonSchema | undefined): JsonSchema | undefined
  /** The schema of an asset type, by the `Asset` union's discriminator (undefined for a type it does not list). */
  asset(type: string): JsonSchema | undefined
}

const REF = '#/components/schemas/'

export function editSchema(doc: unknown): EditSchema {
  const components = (isObj(doc) && isObj(doc.components) && isObj(doc.components.schemas) ? doc.components.schemas : {}) as Record<string, JsonSchema>
  const resolve = (node: JsonSchema | undefined): JsonSchema | undefined => {
    for (let n = node, hops = 0; n && hops < 10; hops++) {
      if (typeof n.$ref !== 'string' || !n.$ref.startsWith(REF)) return n
      n = components[n.$ref.slice(REF.length)]
    }
    return undefined
  }
  const mapping = (components.Asset?.discriminator as { mapping?: Record<string, string> } | undefined)?.mapping ?? {}
  return { components, resolve, asset: (type) => (mapping[type] ? resolve({ $ref: mapping[type] }) : undefined) }
}

let loading: Promise<EditSchema> | undefined

/** The published schema, asked for once per page load (it only changes with the server's version). */
export function useEditSchema(): { schema?: EditSchema; error?: Error } {
  const [state, setState] = useState<{ schema?: EditSchema; error?: Error }>({})
  useEffect(() => {
    loading ??= api<unknown>('GET', '/v1/openapi.json').then(editSchema)
    loading.then(
      (schema) => setState({ schema }),
      (error: Error) => ((loading = undefined), setState({ error })),
    )
  }, [])
  return state
}
