// Preloaded (`node --require`) into a process under test: at exit it writes the npm packages the process loaded
// through require — CommonJS, and ESM's imports of CommonJS packages — as a JSON array to $REELFORGE_LOADED_FILE.
const { writeFileSync } = require('node:fs')

process.on('exit', () => {
  const names = new Set()
  for (const path of Object.keys(require.cache)) {
    const m = /node_modules\/((?:@[^/]+\/)?[^/]+)\//.exec(path)
    if (m) names.add(m[1])
  }
  writeFileSync(process.env.REELFORGE_LOADED_FILE, JSON.stringify([...names].sort()))
})
