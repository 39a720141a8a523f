// When the gallery's thumbnails are taken (scripts/examples-thumbs.mts), shared with the test that holds them to the
// renderer (test/examples/gallery-renders.test.ts).

/** Where in an edit the three frames are taken, as fractions of its length. */
export const THUMBNAIL_AT = [0.2, 0.5, 0.8] as const

/**
 * The three times (seconds) of an edit `duration` seconds long: its 20, 50 and 80 %, moved to whole fifths of a
 * second, where a render at 15 fps (the test's) has a frame exactly as one at 25 fps (the examples') does.
 */
export const thumbnailTimes = (duration: number): number[] => THUMBNAIL_AT.map((f) => Math.round(duration * f * 5) / 5)
