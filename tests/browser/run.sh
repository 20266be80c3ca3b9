#!/bin/sh
# Browser tests of Boyi's page on a clean machine: installs Chromium (Debian) and
# playwright-core (npm, from the lockfile), builds boyi, runs the tests. Screenshots land in
# tests/browser/artifacts/; with --screens, the screenshots of every game (both languages,
# themes and widths) are written to docs/screens/ instead of artifacts/screens/.
set -eu
here=$(cd "$(dirname "$0")" && pwd)
root=$(cd "$here/../.." && pwd)
if [ "${1:-}" = "--screens" ]; then
    BOYI_SCREENS=1
    export BOYI_SCREENS
fi
if [ ! -x /usr/bin/chromium ] || ! fc-list 2>/dev/null | grep -qi "noto.*cjk"; then
    apt-get update
    apt-get install -y chromium fonts-noto-cjk
fi
cd "$here"
npm ci --no-audit --no-fund
cd "$root"
cargo build -p boyi
cd "$here"
BOYI_BIN="$root/target/debug/boyi" node run.mjs
