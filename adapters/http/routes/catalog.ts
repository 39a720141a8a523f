import * as v from 'valibot'
import type { Application } from '../../../service/compose.js'
import { fontCatalog, pluginCatalog } from '../../../service/media/catalog.js'
import { defineRoutes } from '../route.js'

const names = v.array(v.string())
const PluginCatalogSchema = v.object({ assets: names, transitions: names, effects: names, filters: names, fits: names, outputs: names })
const FontFamilySchema = v.object({
  family: v.string(),
  weights: v.array(v.number()),
  source: v.picklist(['builtin', 'upload']),
  src: v.optional(v.string()),
})

/**
 * What an edit may name, for editors (the dashboard's inspector): the renderer's plugins by kind — custom ones
 * loaded with `REELFORGE_PLUGINS` included — and the font families it can draw (service/media/catalog.ts).
 */
export function catalogRoutes(d: Pick<Application, 'renderer' | 'sources'>) {
  return defineRoutes([
    {
      method: 'get',
      path: '/v1/plugins',
      auth: 'key',
      summary: "The names this server's renderer draws: asset types, transitions, effects, filters, fits and output formats",
      description:
        "Every name the validation accepts and a plugin draws — Shotstack's and custom plugins' alike — for `asset.type`, `transition.in`/`out` (speed variants such as `fadeSlow` listed as names of their own), `effect`, `filter`, `fit` and `output.format`. `none` is always accepted and not listed.",
      responses: { 200: { description: 'the names by kind', schema: PluginCatalogSchema } },
      handler: () => pluginCatalog(d.renderer.registry),
    },
    {
      method: 'get',
      path: '/v1/fonts',
      auth: 'key',
      summary: "Font families an edit may name: the built-in ones and this account's uploaded font files",
      description:
        'Built-in families with their weights, then the account\'s ready font sources (`source: "upload"`, at most 200), each named by its file name without the extension; an uploaded family is drawn once its `src` is in `timeline.fonts`.',
      responses: { 200: { description: 'the families', schema: v.object({ fonts: v.array(FontFamilySchema) }) } },
      handler: async (_event, principal) => ({ fonts: await fontCatalog(d.sources, principal) }),
    },
  ])
}
