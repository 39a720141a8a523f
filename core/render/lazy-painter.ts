import type { Painter } from './painter.js'

/**
 * A painter `make` makes when a frame is first drawn with GL (its programs compile then, and with them the GL
 * context of a lazy `Gpu` opens: lazy-gpu.ts). A render whose frames are all made on the CPU never makes it.
 */
export function lazyPainter(make: () => Painter): Painter {
  let made: Painter | undefined
  const real = () => (made ??= make())
  return {
    begin: () => real().begin(),
    draw: (call) => real().draw(call),
    snapshot: (slot) => real().snapshot(slot),
    offscreen: (fn) => real().offscreen(fn),
    reset: () => real().reset(),
    read: (into) => real().read(into),
    dispose: () => made?.dispose(),
  }
}
