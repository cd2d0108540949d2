#!/bin/sh
# Regenerates the screenshots that README.md shows: runs the browser test
# (tests/browser/page.test.mjs, which saves every view it checks to
# target/browser/) and copies the Analyse page (and on a phone, with an
# attribution's details open), search hits, a source page (and one with a
# statement an editor gave it), a corrected ledger article and a claim's
# timeline into docs/images/.
#
#   docs/screenshots.sh [path/to/attest]    (default: a fresh release build)
#
# Needs what the browser test needs: Debian's chromium and `npm ci` in
# tests/browser (.ci/run installs both).
set -eu
cd "$(dirname "$0")/.."
attest=${1:-}
if [ -z "$attest" ]; then
  cargo build --quiet --release --bin attest
  attest=target/release/attest
fi
node tests/browser/page.test.mjs "$attest"
mkdir -p docs/images
shots="analyse analyse-phone-sheet ledger-search ledger-source ledger-source-corrected ledger-correction ledger-claim"
for shot in $shots; do
  cp "target/browser/$shot.png" "docs/images/$shot.png"
done
echo "docs/images/: $shots (.png)"
