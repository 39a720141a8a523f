import { onFrame, type Timed } from './clip-times.js'
import { sameRef } from './edit-doc.js'
import { deleteClips, duplicateClips, moveClips } from './ops.js'
import type { EditorStore } from './store.js'

interface Env {
  store: EditorStore
  times: Timed[][]
  fps: number
  togglePlay(): void
}

/** Keys typed into a field are the field's own. */
const typing = (t: EventTarget | null) => t instanceof HTMLElement && (t.isContentEditable || /^(INPUT|TEXTAREA|SELECT)$/.test(t.tagName))

/**
 * The editor's shortcuts, on its whole area: Ctrl+Z undo, Ctrl+Shift+Z or Ctrl+Y redo, arrows nudge the
 * selection by a frame (Shift: a second), Delete or Backspace removes it, Ctrl+D duplicates it, Ctrl+A selects
 * every clip, Escape selects none, and Space plays or pauses (when no clip has the focus, where it selects).
 */
export function editorKeys(env: Env) {
  return (e: KeyboardEvent) => {
    if (typing(e.target) || e.defaultPrevented) return
    const { store } = env
    const step = store.current()
    const ctrl = e.ctrlKey || e.metaKey
    const key = e.key.toLowerCase()
    const handled = () => e.preventDefault()
    if (ctrl && key === 'z') return (handled(), e.shiftKey ? store.redo() : store.undo())
    if (ctrl && key === 'y') return (handled(), store.redo())
    if (ctrl && key === 'a') return (handled(), store.select(env.times.flat().map((t) => t.ref)))
    if (e.key === 'Escape') return store.select([])
    // Space plays wherever the focus is but on a control Space presses (a button, a slider); a clip is no such control.
    if (e.key === ' ' && !(e.target instanceof HTMLElement && e.target.closest('button, [role="slider"]'))) return (handled(), env.togglePlay())
    if (!step.selection.length) return
    const picked = env.times.flat().filter((t) => step.selection.some((r) => sameRef(r, t.ref)))
    if (e.key === 'ArrowLeft' || e.key === 'ArrowRight') {
      handled()
      const by = (e.shiftKey ? 1 : 1 / env.fps) * (e.key === 'ArrowLeft' ? -1 : 1)
      const r = moveClips(
        step.edit,
        picked.map((t) => ({ ref: t.ref, start: onFrame(Math.max(0, t.start + by), env.fps) })),
      )
      return store.change('Nudge', r.edit, r.selected)
    }
    if (e.key === 'Delete' || e.key === 'Backspace') {
      handled()
      return store.change('Delete', deleteClips(step.edit, [...step.selection]).edit, [])
    }
    if (ctrl && key === 'd') {
      handled()
      const r = duplicateClips(step.edit, [...step.selection], (ref) => picked.find((t) => sameRef(t.ref, ref)) ?? { start: 0, length: 1 })
      return store.change('Duplicate', r.edit, r.selected)
    }
  }
}
