// Which test files run where (scripts/run-tests.mjs).

/**
 * The fast lane (`npm run test:fast`): folders and files that need no service (Redis, PostgreSQL), no browser
 * and no long render — the core, the public API's types, the unit tests, the docs' links and settings list, and what
 * the examples gallery holds (no render). Under 2 minutes on 2 cores. test/service/ is named file by file: its
 * other files run the service on PostgreSQL, Redis or S3 and render.
 */
export const FAST = [
  'test/core/',
  'test/api/',
  'test/service/ids.test.ts',
  'test/service/input-bounds.test.ts',
  'test/service/outage-parts.test.ts',
  'test/service/pricing.test.ts',
  'test/service/sqlite-store.test.ts',
  'test/docs/links.test.ts',
  'test/docs/configuration.test.ts',
  'test/examples/gallery-contents.test.ts',
  'test/tooling/',
]

/**
 * Files that must have the machine to themselves: they would rebuild what other files read, load every core on
 * purpose, or compare timings that a neighbour would spoil. None today: the package test packs from a copy of the
 * checkout, so its prepack no longer rebuilds the dist/ that served dashboard pages come from.
 */
export const SERIAL = []

/**
 * Files known to take minutes, started first when no earlier run's times are at hand (a clean CI checkout), so the
 * last file to end is a short one.
 */
export const LONG = [
  'test/adapters/compat.test.ts',
  'test/dashboard/dashboard.e2e.test.ts',
  'test/dashboard/editor.e2e.test.ts',
  'test/adapters/soak.e2e.test.ts',
  'test/render/segments.test.ts',
]

/**
 * /v1 files the PostgreSQL pass leaves out: each renders, previews or generates media (5–11 CPU-s a file in that
 * pass, 57 in all, on the 2-core machine) through SQL statements that the rest of the pass issues as well. Measured 2026-12-07 with
 * `log_statement = all` and each file's name as `PGAPPNAME`: the pass issued 187 distinct statements (literals
 * and numbers folded), and without these eight it still issues every one. They still run on SQLite. Recheck that way
 * before adding a file here; a new /v1 file runs in both passes until someone does.
 */
export const SQLITE_ONLY = [
  'test/adapters/http/openapi-client.test.ts',
  'test/adapters/http/shotstack-create-sandbox.test.ts',
  'test/adapters/http/v1-ai-assets.test.ts',
  'test/adapters/http/v1-ai-media.test.ts',
  'test/adapters/http/v1-ai-storyboard.test.ts',
  'test/adapters/http/v1-ai-video-vendor.test.ts',
  'test/adapters/http/v1-faults.test.ts',
  'test/adapters/http/v1-previews.test.ts',
]

/**
 * The runs of a selection: every picked file on the embedded SQLite store, then — for the whole suite only (`all`)
 * — the /v1 service files again on PostgreSQL, but for `SQLITE_ONLY`.
 */
export function passes(picked, all) {
  const postgres = all ? picked.filter((f) => f.startsWith('test/adapters/http/') && !SQLITE_ONLY.includes(f)) : []
  return [
    ...picked.map((file) => ({ file, pass: 'sqlite', env: {} })),
    ...postgres.map((file) => ({ file, pass: 'postgres', env: { REELFORGE_TEST_STORE: 'postgres' } })),
  ]
}
