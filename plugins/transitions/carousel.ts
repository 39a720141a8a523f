import { easing } from '../../core/index.js'
import { defineLayerTransition, HALF_SECOND } from './layer-transition.js'

const ease = easing('ease')

/**
 * `carouselLeft|Right|Up|Down`: the clip slides fully in from the opposite edge (and fully out in the named
 * direction), without fading — Shotstack's editor's distances: a frame width horizontally, 1.05 (in) / 1.1
 * (out) frame heights vertically; in linear, out eased (0.5 s; Slow 2 s, Fast 0.25 s). Offsets are y-down.
 */
const carousel = (name: string, dx: number, dy: number) =>
  defineLayerTransition(name, HALF_SECOND, (layer, p, entering) => {
    if (entering) {
      const rest = 1 - p
      layer.offsetX -= dx * rest
      layer.offsetY -= dy * 1.05 * rest
    } else {
      const e = ease(p)
      layer.offsetX += dx * e
      layer.offsetY += dy * 1.1 * e
    }
  })

export const carouselLeft = carousel('carouselLeft', -1, 0)
export const carouselRight = carousel('carouselRight', 1, 0)
export const carouselUp = carousel('carouselUp', 0, -1)
export const carouselDown = carousel('carouselDown', 0, 1)
