import { readFile } from 'node:fs/promises'
import { basename, dirname, extname, join } from 'node:path'
import type { Edit } from '../../core/index.js'
// From the schema's own module: core/index.js would load the renderer (gl) into commands that draw nothing.
import { FPS_VALUES, QUALITIES, RESOLUTIONS } from '../../core/schema/output.js'
import { parseCsv } from './csv.js'
import { parseJson } from './json.js'

/** A usage mistake: the CLI prints it and exits before any work — 64, or 66 for a file it cannot read. */
export class UsageError extends Error {
  constructor(
    message: string,
    readonly exitCode = 64,
  ) {
    super(message)
  }
}

/** `--resolution`, `--fps`, `--quality`, `--format`: the edit's output, overridden (checked by the renderer). */
export function withOutput(edit: Edit, o: { resolution?: string; fps?: string; quality?: string; format?: string }): Edit {
  const output: Record<string, unknown> = { ...(edit.output as object) }
  // Checked here, naming the option: the edit's own check would blame output.resolution, a field the user never wrote.
  const among = (flag: string, value: string | undefined, allowed: readonly (string | number)[]) => {
    const known = allowed.some((a) => (typeof a === 'number' ? a === Number(value) : a === value))
    if (value !== undefined && !known) throw new UsageError(`--${flag} must be one of ${allowed.join(', ')}; not ${value}`)
  }
  among('resolution', o.resolution, RESOLUTIONS)
  among('fps', o.fps, FPS_VALUES)
  among('quality', o.quality, QUALITIES)
  if (o.resolution !== undefined) {
    output.resolution = o.resolution
    delete output.size // a custom size would win over the resolution asked for
  }
  if (o.fps !== undefined) output.fps = Number(o.fps)
  if (o.quality !== undefined) output.quality = o.quality
  if (o.format !== undefined) output.format = o.format
  return { ...edit, output } as Edit
}

/** `--merge KEY=VALUE` (repeatable): merge fields added to the edit's own, a named one replacing it. */
export function parseMerges(pairs: readonly string[]): Record<string, string> {
  return Object.fromEntries(
    pairs.map((pair) => {
      const at = pair.indexOf('=')
      if (at < 1) throw new UsageError(`--merge takes KEY=VALUE, not ${JSON.stringify(pair)}`)
      return [pair.slice(0, at), pair.slice(at + 1)]
    }),
  )
}

/** The edit with these merge fields (Shotstack's `merge: [{find, replace}]`), later ones winning. */
export function withMerges(edit: Edit, fields: Record<string, string>): Edit {
  const own = ((edit as { merge?: { find: string; replace: unknown }[] }).merge ?? []).filter((m) => !Object.hasOwn(fields, m.find))
  return { ...edit, merge: [...own, ...Object.entries(fields).map(([find, replace]) => ({ find, replace }))] } as Edit
}

/**
 * `--merge-file`: a CSV (one render per row, the header naming the fields), a JSON array of objects (one render
 * each) or a JSON object (one render) of field → value.
 */
export async function mergeRows(file: string): Promise<Record<string, string>[]> {
  const text = await readFile(file, 'utf8').catch((e: Error) => {
    throw new UsageError(`cannot read --merge-file ${file}: ${e.message}`, 66)
  })
  const csv = extname(file).toLowerCase() === '.csv'
  const data = csv ? undefined : parseJson(text, file) // a JSON slip is shown at its line and column
  try {
    if (csv) return parseCsv(text)
    const rows = Array.isArray(data) ? data : [data]
    if (!rows.every((r) => r && typeof r === 'object' && !Array.isArray(r))) throw new Error('expected an object of fields or an array of them')
    return rows.map((r) => Object.fromEntries(Object.entries(r as object).map(([k, v]) => [k, typeof v === 'string' ? v : JSON.stringify(v)])))
  } catch (e) {
    throw new UsageError(`--merge-file ${file}: ${(e as Error).message}`)
  }
}

/**
 * The output file of row `n` (from 1) of a bulk render: `{n}` and `{{ FIELD }}` in `-o` are filled in (values made
 * safe for a file name); without either, `-<n>` goes before the extension.
 */
export function rowOutput(out: string, n: number, row: Record<string, string>): string {
  const safe = (v: string) => v.replace(/[^\p{L}\p{N}._-]+/gu, '-').replace(/^[-.]+|[-.]+$/g, '') || 'blank'
  const name = basename(out)
  if (/\{n\}|\{\{\s*[\w-]+\s*\}\}/.test(name))
    return join(
      dirname(out),
      name.replace(/\{n\}/g, String(n)).replace(/\{\{\s*([\w-]+)\s*\}\}/g, (_, k: string) => safe(row[k] ?? '')),
    )
  const ext = extname(name)
  return join(dirname(out), `${basename(name, ext)}-${n}${ext}`)
}
