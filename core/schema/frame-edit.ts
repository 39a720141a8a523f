import type { Edit } from './edit.js'

/**
 * The edit that draws one frame, at `time`, as a `format` picture (Shotstack's image outputs draw
 * `range.start`): without a poster, thumbnail, destinations or callback beside it. The CLI's `still` and
 * `preview` scrubber and the service's frame preview all take a frame this way.
 */
export function frameEdit(edit: Edit, time: number, format = 'png'): Edit {
  const output = { ...(edit.output as object), format, range: { start: time }, poster: undefined, thumbnail: undefined, destinations: undefined }
  return { ...edit, output, callback: undefined } as Edit
}
