import type { Timed } from './clip-times.js'
import { sameRef } from './edit-doc.js'
import { deleteClips, duplicateClips } from './ops.js'
import type { EditorState, EditorStore } from './store.js'

/** Undo and redo (naming the step they undo or redo), and what can be done to the selection. */
export function EditActions({ store, state, times }: { store: EditorStore; state: EditorState; times: Timed[][] }) {
  const step = state.steps[state.index]!
  const undone = state.steps[state.index + 1]
  const picked = step.selection
  const duplicate = () => {
    const r = duplicateClips(step.edit, [...picked], (ref) => times.flat().find((t) => sameRef(t.ref, ref)) ?? { start: 0, length: 1 })
    store.change('Duplicate', r.edit, r.selected)
  }
  return (
    <div class="toolbar edit-actions" role="toolbar" aria-label="Edit">
      <button type="button" onClick={store.undo} disabled={state.index === 0} title={state.index ? `Undo ${step.label}` : undefined}>
        Undo
      </button>
      <button type="button" onClick={store.redo} disabled={!undone} title={undone ? `Redo ${undone.label}` : undefined}>
        Redo
      </button>
      <button type="button" onClick={duplicate} disabled={!picked.length}>
        Duplicate
      </button>
      <button type="button" class="danger" onClick={() => store.change('Delete', deleteClips(step.edit, [...picked]).edit, [])} disabled={!picked.length}>
        Delete
      </button>
      <span class="muted" aria-live="polite">
        {picked.length ? `${picked.length} selected` : 'Nothing selected'} · {state.index} change{state.index === 1 ? '' : 's'}
        {state.index ? ` (last: ${step.label})` : ''}
      </span>
    </div>
  )
}
