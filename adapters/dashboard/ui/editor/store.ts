import { useEffect, useState } from 'preact/hooks'
import { type ClipRef, type Obj, refOf } from './edit-doc.js'

/** One step of the history: the edit after a change, what was selected then, and the change's name. */
export interface Step {
  readonly edit: Obj
  readonly selection: readonly ClipRef[]
  readonly label: string
  /** When it was made: a run of the same `merge` label within MERGE_MS becomes one step (typing in the JSON). */
  readonly at: number
}

export interface EditorState {
  /** Every edit so far, oldest first; `index` is the one shown. Undo and redo only move `index`. */
  readonly steps: readonly Step[]
  readonly index: number
}

const MERGE_MS = 1500
/** How many steps are kept (the oldest go first). */
const KEEP = 200

/**
 * The editor's one source of truth: the edit, its history and the selection. Every change of the edit goes
 * through `change`, which appends an immutable step (dropping the undone ones after it), so undo gives back
 * the very object it had — the JSON view then prints exactly the text it printed before.
 */
export function createEditorStore(initial: Obj) {
  let state: EditorState = { steps: [{ edit: initial, selection: [], label: 'Open', at: 0 }], index: 0 }
  const listeners = new Set<() => void>()
  const set = (next: EditorState) => {
    state = next
    for (const l of listeners) l()
  }
  const current = () => state.steps[state.index]!
  const replaceCurrent = (step: Step) => set({ steps: state.steps.map((s, i) => (i === state.index ? step : s)), index: state.index })

  return {
    get: () => state,
    current,
    subscribe(fn: () => void) {
      listeners.add(fn)
      return () => void listeners.delete(fn)
    },
    /**
     * Makes `edit` the new current step, selecting `selected` (clip objects of it, or refs). Nothing happens
     * when the JSON is unchanged. `merge`: fold into the previous step when it had the same label just now.
     */
    change(label: string, edit: Obj, selected?: readonly (Obj | ClipRef)[], opts: { merge?: boolean } = {}) {
      const now = current()
      if (JSON.stringify(edit) === JSON.stringify(now.edit)) return
      const selection = (selected ?? now.selection).flatMap((s) => {
        const ref = 'track' in s && typeof s.track === 'number' && typeof s.clip === 'number' ? (s as ClipRef) : refOf(edit, s)
        return ref ? [ref] : []
      })
      const step: Step = { edit, selection, label, at: Date.now() }
      const fold = opts.merge && state.index > 0 && now.label === label && step.at - now.at < MERGE_MS
      if (fold) return replaceCurrent(step)
      const steps = [...state.steps.slice(0, state.index + 1), step].slice(-KEEP)
      set({ steps, index: steps.length - 1 })
    },
    /** Selects clips without changing the edit (not a step of its own). */
    select(selection: readonly ClipRef[]) {
      replaceCurrent({ ...current(), selection })
    },
    undo() {
      if (state.index > 0) set({ steps: state.steps, index: state.index - 1 })
    },
    redo() {
      if (state.index < state.steps.length - 1) set({ steps: state.steps, index: state.index + 1 })
    },
    /** A new document (a template opened): a history of its own. */
    reset(edit: Obj) {
      set({ steps: [{ edit, selection: [], label: 'Open', at: 0 }], index: 0 })
    },
  }
}
export type EditorStore = ReturnType<typeof createEditorStore>

/** The store's state in a component, re-rendered on every change. */
export function useEditor(store: EditorStore): EditorState {
  const [, tick] = useState(0)
  useEffect(() => store.subscribe(() => tick((n) => n + 1)), [store])
  return store.get()
}
