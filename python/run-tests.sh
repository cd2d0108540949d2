#!/usr/bin/env bash
# Builds the wheel with maturin, installs it in a fresh venv and runs the pytest suite on it.
# Called by .ci/run; run it by hand as python/run-tests.sh from anywhere.
# maturin is installed from PyPI into target/python/tools only when missing there; the fresh venv
# gets the wheel, pytest, and pandas and matplotlib, whose tests are skipped (and said so) if pip
# cannot get them. pip's cache makes the installs after the first one local.
set -euo pipefail
cd "$(dirname "$0")/.."
target="${CARGO_TARGET_DIR:-target}"
case "$target" in /*) ;; *) target="$PWD/$target" ;; esac
work="$target/python"
python="${PYTHON:-python3}"

if ! command -v "$python" >/dev/null 2>&1; then
  echo "python: $python not found; the Python package was not built or tested" >&2
  exit 1
fi

tools="$work/tools"
if [ ! -x "$tools/bin/maturin" ]; then
  echo "python: installing maturin into $tools (missing there)"
  "$python" -m venv "$tools"
  "$tools/bin/pip" install --quiet --disable-pip-version-check "maturin>=1.9,<2"
else
  echo "python: maturin already in $tools; not installed again"
fi

# The same release profile as `cargo build --release`, so the crates the binary built are reused.
rm -rf "$work/wheels"
"$tools/bin/maturin" build --quiet --release --manifest-path python/Cargo.toml --out "$work/wheels"

attest_bin="$target/release/attest"
if [ ! -x "$attest_bin" ]; then
  cargo build --quiet --release --bin attest
fi

venv="$work/venv"
rm -rf "$venv"
"$python" -m venv "$venv"
"$venv/bin/pip" install --quiet --disable-pip-version-check "$work"/wheels/attest_news-*.whl
"$venv/bin/pip" install --quiet --disable-pip-version-check pytest
for optional in pandas matplotlib; do
  if ! "$venv/bin/pip" install --quiet --disable-pip-version-check "$optional"; then
    echo "python: skipped the tests that need $optional: pip could not install it" >&2
  fi
done

# Run from outside the source tree, so that `import attest` is the installed wheel.
cd "$work"
ATTEST_BIN="$attest_bin" "$venv/bin/python" -m pytest -q -p no:cacheprovider "$OLDPWD/python/tests"
