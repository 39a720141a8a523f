import * as assert from 'uvu/assert'
import { RenderError } from '../../core/index.js'

/** Awaits `p`, which must reject with a RenderError of `code` whose message matches `pattern`; returns the error. */
export async function rejectsWith(p: Promise<unknown>, code: string, pattern: RegExp): Promise<RenderError> {
  const error = await p.then(
    () => undefined,
    (e: unknown) => e,
  )
  assert.instance(error, RenderError, 'expected a RenderError')
  assert.is((error as RenderError).code, code, (error as Error).message)
  assert.match((error as Error).message, pattern)
  return error as RenderError
}
