import { useEffect, useState } from 'preact/hooks'
import { api, ApiError, type Issue } from '../api.js'
import type { Obj } from './edit-doc.js'

/** Typing or dragging pauses this long before the edit is checked. */
const SETTLE_MS = 400

export interface Checked {
  /** The edit these issues were said of (issues of an older edit are not shown on a newer one). */
  edit?: Obj
  issues: Issue[]
  warnings: Issue[]
}

/**
 * The API's own verdict on the edit (`POST /v1/render/validate`: the same checks and limits as a render,
 * nothing stored), asked once changes settle. Each issue has the path of its field.
 */
export function useValidation(edit: Obj): Checked & { checking: boolean } {
  const [checked, setChecked] = useState<Checked>({ issues: [], warnings: [] })
  useEffect(() => {
    let alive = true
    const timer = window.setTimeout(async () => {
      try {
        const r = await api<{ valid: boolean; issues: Issue[]; warnings: Issue[] }>('POST', '/v1/render/validate', edit)
        if (alive) setChecked({ edit, issues: r.issues, warnings: r.warnings ?? [] })
      } catch (e) {
        const issues = e instanceof ApiError ? (e.issues.length ? e.issues : [{ path: '', message: e.message }]) : []
        if (alive) setChecked({ edit, issues, warnings: [] })
      }
    }, SETTLE_MS)
    return () => ((alive = false), window.clearTimeout(timer))
  }, [edit])
  return { ...checked, checking: checked.edit !== edit }
}
