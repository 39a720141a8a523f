import { useState } from 'preact/hooks'

type Size = { width: number; height: number }
/** Sizes read so far, by type and source; `null` while loading or when the browser could not read it. */
const sizes = new Map<string, Size | null>()

/** Loads the picture's size the way the browser can: an image's natural size, a video's metadata, SVG markup as an image. */
function load(type: string, src: string): Promise<Size> {
  return new Promise((resolve, reject) => {
    if (type === 'video') {
      const v = document.createElement('video')
      v.preload = 'metadata'
      v.muted = true
      v.onloadedmetadata = () => resolve({ width: v.videoWidth, height: v.videoHeight })
      v.onerror = () => reject(new Error('unreadable'))
      v.src = src
      return
    }
    const img = new Image()
    img.onload = () => resolve({ width: img.naturalWidth, height: img.naturalHeight })
    img.onerror = () => reject(new Error('unreadable'))
    img.src = type === 'svg' ? `data:image/svg+xml;charset=utf-8,${encodeURIComponent(src)}` : src
  })
}

/**
 * Media sizes for the preview's clip boxes: a getter that answers what is known now and starts reading what is
 * not (the component draws again when it arrives). Until then a clip is boxed as the whole frame.
 */
export function useMediaSizes(): (type: string, src: string) => Size | undefined {
  const [, tick] = useState(0)
  return (type, src) => {
    const key = `${type} ${src}`
    if (sizes.has(key)) return sizes.get(key) ?? undefined
    sizes.set(key, null)
    load(type, src).then(
      (s) => (s.width && s.height ? sizes.set(key, s) : undefined, tick((n) => n + 1)),
      () => {},
    )
    return undefined
  }
}
