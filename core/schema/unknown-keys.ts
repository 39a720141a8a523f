import * as v from 'valibot'
import type { Warning } from '../errors.js'
import { joinPath } from './issues.js'

type AnySchema = v.GenericSchema & {
  entries?: Record<string, v.GenericSchema>
  item?: v.GenericSchema
  options?: v.GenericSchema[]
  wrapped?: v.GenericSchema
  getter?: (input: unknown) => v.GenericSchema
}

/**
 * Lists keys of `input` that `schema` does not know, as warnings with their paths. Real edits carry
 * extra keys (`svg.opacity`, `video.seed`, `rich-text.cacheEnabled`); Shotstack's own renderer ignores
 * them, so they are reported, never rejected. `skip` names paths checked separately (clip assets).
 */
export function unknownKeys(schema: v.GenericSchema, input: unknown, path = '', skip?: (path: string) => boolean): Warning[] {
  const out: Warning[] = []
  walk(schema as AnySchema, input, path, out, skip)
  return out
}

function walk(schema: AnySchema, input: unknown, path: string, out: Warning[], skip?: (path: string) => boolean): void {
  if (input === null || typeof input !== 'object' || skip?.(path)) return
  switch (schema.type) {
    case 'optional':
    case 'nullable':
    case 'nullish':
    case 'exact_optional':
      walk(schema.wrapped as AnySchema, input, path, out, skip)
      return
    case 'lazy':
      walk(schema.getter!(input) as AnySchema, input, path, out, skip)
      return
    case 'union':
    case 'variant': {
      const match = schema.options!.find((option) => v.is(option, input))
      if (match) walk(match as AnySchema, input, path, out, skip)
      return
    }
    case 'array':
      if (Array.isArray(input)) input.forEach((item, i) => walk(schema.item as AnySchema, item, joinPath(path, i), out, skip))
      return
    case 'object':
    case 'strict_object': {
      for (const [key, value] of Object.entries(input)) {
        const child = schema.entries![key]
        if (child) walk(child as AnySchema, value, joinPath(path, key), out, skip)
        else out.push({ path: joinPath(path, key), message: `unknown key "${key}" is ignored` })
      }
      return
    }
    // loose_object: extra keys are part of its contract (e.g. the asset before its type is known).
  }
}
