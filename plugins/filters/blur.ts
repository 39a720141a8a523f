import type { FilterPlugin } from '../../core/index.js'

/**
 * `blur`: a 25-tap Gaussian-weighted blur reaching about 1 % of the texture's shorter side, the same number
 * of pixels on both axes (via `uTexel`). One pass; premultiplied colour blurs without dark fringes.
 */
export const blur: FilterPlugin = {
  kind: 'filter',
  name: 'blur',
  glsl: `
  vec2 step = uTexel * max(1.0, 0.0025 / max(uTexel.x, uTexel.y));
  vec4 sum = vec4(0.0);
  float total = 0.0;
  for (int x = -2; x <= 2; x++) {
    for (int y = -2; y <= 2; y++) {
      float w = exp(-float(x * x + y * y) / 4.0);
      sum += texture2D(uTex, vUV + vec2(float(x), float(y)) * step * 2.0) * w;
      total += w;
    }
  }
  return sum / total;`,
}
