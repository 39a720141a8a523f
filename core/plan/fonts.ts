import { basename, extname } from 'node:path'
import { RenderError } from '../errors.js'
import type { FontBook } from '../fonts.js'
import { readFontInfo } from '../font-file.js'

/**
 * Adds `timeline.fonts` to the render's font book. Each file is known by the family embedded in it (as
 * Shotstack documents) and also by its file name without extension (as Shotstack's CLI documents), so
 * either spelling works in `font-family`.
 */
export async function loadTimelineFonts(
  fonts: readonly { src: string }[] | undefined,
  book: FontBook,
  load: (src: string, path: string) => Promise<string>,
): Promise<void> {
  await Promise.all(
    (fonts ?? []).map(async ({ src }, i) => {
      const path = `timeline.fonts[${i}]`
      const file = await load(src, path)
      let info: Awaited<ReturnType<typeof readFontInfo>>
      try {
        info = await readFontInfo(file)
      } catch (e) {
        throw new RenderError('E_ASSET_UNREADABLE', `${path}.src: ${(e as Error).message}`, { path: `${path}.src` })
      }
      book.add({ family: info.family, weight: info.weight, style: info.style, path: file })
      const stem = basename(new URL(src, 'file:///').pathname, extname(new URL(src, 'file:///').pathname))
      if (stem && stem !== info.family) book.add({ family: decodeURIComponent(stem), weight: info.weight, style: info.style, path: file })
    }),
  )
}
