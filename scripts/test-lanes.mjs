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
