#!/bin/sh
# The one command that reproduces models/encoder/ and training/log.txt (see training/README.md).
# Runs from the repository root; any arguments are passed on to train.py.
set -eu
cd "$(dirname "$0")/.."
venv="${ATTEST_TRAIN_VENV:-training/.venv}"
if [ ! -x "$venv/bin/python" ]; then
    python3 -m venv "$venv"
    "$venv/bin/pip" install -r training/requirements.txt
fi
exec "$venv/bin/python" training/train.py "$@"
