// Where the playground's and the editor's drafts live, and the ways another page hands them an edit. Drafts are
// kept per tab (sessionStorage): two tabs can work on two edits without overwriting each other.

/** The playground's draft: its editor's text. */
export const PLAYGROUND_DRAFT = 'reelforge.playground'
/** Which saved template the playground's draft is an edit of (`{id, name}`), until "Stop editing". */
export const PLAYGROUND_TEMPLATE = 'reelforge.playground.template'
/** The visual editor's draft: the edit as JSON. */
export const EDITOR_DRAFT = 'reelforge.editor'
/** Which saved template the editor's draft belongs to (`{id, name}`). */
export const EDITOR_TEMPLATE = 'reelforge.editor.template'

/** "Open in playground": `edit` becomes the playground's draft — its own, no template's — and the playground opens. */
export function openInPlayground(edit: unknown) {
  sessionStorage.setItem(PLAYGROUND_DRAFT, JSON.stringify(edit, null, 2))
  sessionStorage.removeItem(PLAYGROUND_TEMPLATE)
  location.hash = '#/playground'
}

/** "Open in editor": `edit` becomes the visual editor's draft (a fresh history, no template's) and the editor opens. */
export function openInEditor(edit: unknown) {
  sessionStorage.setItem(EDITOR_DRAFT, JSON.stringify(edit))
  sessionStorage.removeItem(EDITOR_TEMPLATE)
  location.hash = '#/editor'
}
