// Reproducible noise for the pixel kernels' tests: the same bytes every run, so a failure names the same pixel.

/** A byte stream from a linear congruential generator (its high byte), starting from `seed`. */
export function seededBytes(seed: number): () => number {
  let x = seed
  return () => ((x = (x * 1103515245 + 12345) >>> 0), x >>> 24)
}

/** Frame sizes for the WebAssembly kernels' 16-pixel, two-row steps: widths they divide, and widths they overlap at. */
export const KERNEL_SIZES = [
  [1080, 8],
  [16, 2],
  [324, 6],
  [1920, 4],
] as const
