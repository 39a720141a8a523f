// Bundles the dashboard (adapters/dashboard/ui, Preact) into dist/dashboard: run before packing (`prepack`, so
// the package ships it) and by the set-up script in a checkout, so the server never needs a CDN or a bundler at run time.
import { build } from 'esbuild'
import { copyFile, mkdir } from 'node:fs/promises'
import { fileURLToPath } from 'node:url'

const root = fileURLToPath(new URL('..', import.meta.url))
const ui = `${root}adapters/dashboard/ui`
const out = `${root}dist/dashboard`
await mkdir(out, { recursive: true })
await build({
  entryPoints: { app: `${ui}/main.tsx` },
  outdir: out,
  bundle: true,
  minify: true,
  sourcemap: true,
  format: 'esm',
  target: ['es2020', 'chrome100', 'firefox100', 'safari15'],
  jsx: 'automatic',
  jsxImportSource: 'preact',
  legalComments: 'none',
  logLevel: 'warning',
})
await copyFile(`${ui}/index.html`, `${out}/index.html`)
console.log(`dashboard bundled into ${out}`)
