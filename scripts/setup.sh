#!/usr/bin/env bash
# Installs what reelforge needs, skipping whatever is already there (fast when nothing is missing):
#   1. Debian packages: ffmpeg, Xvfb + Mesa (headless-gl's display), the toolchain gl@8 builds with,
#      espeak-ng (the local text-to-speech voice), pocketsphinx + pocketsphinx-en-us (local transcription, its model
#      inside the package).
#   2. npm dependencies (npm ci), unless node_modules already holds what package-lock.json says (whoever ran the
#      install: this script, a plain `npm ci`, CI's cache) and gl's addon is built. Not in an installed package
#      (no package-lock.json beside it): the app's own install put its dependencies in place.
#   3. The dashboard bundle (dist/dashboard), when its sources changed.
# With --test it also installs what only the tests use: Chromium (the dashboard's browser tests), the Redis
# server (the BullMQ back end) and PostgreSQL (the second store), which scripts/services.sh starts on loopback.
set -euo pipefail
cd "$(dirname "$0")/.."

packages=(ffmpeg xvfb xauth libgl1-mesa-dri libxi-dev libglu1-mesa-dev pkg-config build-essential python3 espeak-ng pocketsphinx pocketsphinx-en-us)
# curl: the runnable examples in README and docs/ call the HTTP API with it, as a reader would.
if [ "${1:-}" = "--test" ]; then packages+=(curl); fi
if [ "${1:-}" = "--test" ]; then packages+=(chromium redis-server postgresql); fi
missing=()
for p in "${packages[@]}"; do
  dpkg-query -W -f='${Status}' "$p" 2>/dev/null | grep -q "install ok installed" || missing+=("$p")
done
if ((${#missing[@]})); then
  if [ "$(id -u)" = 0 ]; then
    echo "setup: installing Debian packages: ${missing[*]}"
    export DEBIAN_FRONTEND=noninteractive
    apt-get update -qq
    apt-get install -y -qq --no-install-recommends "${missing[@]}" >/dev/null
  elif command -v sudo >/dev/null && sudo -n true 2>/dev/null; then
    echo "setup: installing Debian packages: ${missing[*]}"
    sudo DEBIAN_FRONTEND=noninteractive apt-get update -qq
    sudo DEBIAN_FRONTEND=noninteractive apt-get install -y -qq --no-install-recommends "${missing[@]}" >/dev/null
  else
    echo "setup: missing Debian packages. Run:" >&2
    echo "  sudo apt-get install -y ${missing[*]}" >&2
    exit 1
  fi
fi

# npm's record of what it installed (node_modules/.package-lock.json, written at the end of every install) against
# the lock: every package the lock lists at its version, but optional ones (other platforms' binaries), and nothing
# the lock does not list.
installed() {
  node -e '
    const { readFileSync } = require("node:fs")
    const want = JSON.parse(readFileSync("package-lock.json", "utf8")).packages
    const have = JSON.parse(readFileSync("node_modules/.package-lock.json", "utf8")).packages
    const same = (k) => have[k] && have[k].version === want[k].version
    const ok = Object.keys(want).every((k) => !k || same(k) || (want[k].optional && !have[k])) && Object.keys(have).every((k) => want[k])
    process.exit(ok ? 0 : 1)
  ' 2>/dev/null
}
if [ -f package-lock.json ] && { [ ! -f node_modules/gl/build/Release/webgl.node ] || ! installed; }; then
  echo "setup: npm ci (gl builds from source: about 2 minutes)"
  JOBS=max npm ci --no-audit --no-fund
fi

if [ ! -f dist/dashboard/app.js ] || [ -n "$(find adapters/dashboard/ui service/vocabulary.ts service/api-types.ts scripts/build-dashboard.mjs -newer dist/dashboard/app.js -print -quit)" ]; then
  node scripts/build-dashboard.mjs
fi
