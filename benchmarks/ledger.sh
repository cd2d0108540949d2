#!/usr/bin/env bash
# The ledger benchmark of docs/benchmarks.md: generates N articles (default
# 100,000), times `attest analyze --format jsonl` alone and `attest ingest` on
# them, then times each ledger query (median of 5 runs of the command, process
# start and opening the ledger included), then alternates analyze and ingest
# on the first 20,000 articles for three rounds, since on a shared machine one
# pair of runs can meet very different loads. Prints Markdown tables.
#
#   benchmarks/ledger.sh [N] [WORKDIR]
set -euo pipefail
cd "$(dirname "$0")/.."
n=${1:-100000}
work=${2:-target/ledger-bench}
mkdir -p "$work"
source benchmarks/lib.sh
build_release
corpus="$work/corpus.jsonl"
db="$work/ledger.db"

"$gencorpus" "$n" > "$corpus"
bytes=$(stat -c %s "$corpus")

timed "$work/analyze.time" "$attest" analyze --format jsonl "$corpus" > /dev/null
analyze_ms=$(awk '{ printf "%d", $1 * 1000 }' "$work/analyze.time")
analyze_cpu=$(awk '{ printf "%.1f", $2 + $3 }' "$work/analyze.time")

rm -f "$db" "$db-wal" "$db-shm"
timed "$work/ingest.time" "$attest" ingest "$corpus" --db "$db" 2> "$work/ingest.log"
ingest_ms=$(awk '{ printf "%d", $1 * 1000 }' "$work/ingest.time")
ingest_cpu=$(awk '{ printf "%.1f", $2 + $3 }' "$work/ingest.time")

rate() { # articles/s and MB/s of input for a time in ms
  awk -v n="$n" -v b="$bytes" -v ms="$1" 'BEGIN { printf "%.0f | %.2f", n / (ms / 1000), b / 1e6 / (ms / 1000) }'
}
echo "corpus: $n articles, $(awk -v b="$bytes" 'BEGIN { printf "%.1f", b / 1e6 }') MB of JSON Lines; ledger $(du -m "$db" | cut -f1) MB"
echo
echo "| run | wall s | CPU s | articles/s | MB/s |"
echo "|---|---|---|---|---|"
echo "| \`attest analyze --format jsonl > /dev/null\` | $(awk -v ms="$analyze_ms" 'BEGIN { printf "%.1f", ms / 1000 }') | $analyze_cpu | $(rate "$analyze_ms") |"
echo "| \`attest ingest\` (new ledger) | $(awk -v ms="$ingest_ms" 'BEGIN { printf "%.1f", ms / 1000 }') | $ingest_cpu | $(rate "$ingest_ms") |"
echo
echo "storage overhead: wall $(awk -v a="$analyze_ms" -v i="$ingest_ms" 'BEGIN { printf "%.1f", (i - a) * 100 / a }')%, CPU $(awk -v a="$analyze_cpu" -v i="$ingest_cpu" 'BEGIN { printf "%.1f", (i - a) * 100 / a }')%"
echo "ingest summary: $(tail -n 1 "$work/ingest.log")"
echo

echo "| query | median ms |"
echo "|---|---|"
query_rows "$db"

echo
echo "| round (20,000 articles) | analyze wall s | analyze CPU s | ingest wall s | ingest CPU s | wall overhead | CPU overhead |"
echo "|---|---|---|---|---|---|---|"
head -n 20000 "$corpus" > "$work/corpus-20k.jsonl"
for round in 1 2 3; do
  timed "$work/a.time" "$attest" analyze --format jsonl "$work/corpus-20k.jsonl" > /dev/null
  rm -f "$work/alt.db" "$work/alt.db-wal" "$work/alt.db-shm"
  timed "$work/i.time" "$attest" ingest "$work/corpus-20k.jsonl" --db "$work/alt.db" 2> /dev/null
  paste "$work/a.time" "$work/i.time" | awk -v r="$round" '{
    ac = $2 + $3; ic = $5 + $6
    printf "| %d | %.1f | %.1f | %.1f | %.1f | %+.0f%% | %+.0f%% |\n", r, $1, ac, $4, ic, ($4 - $1) * 100 / $1, (ic - ac) * 100 / ac
  }'
done
echo
echo "load average at the end: $(cut -d' ' -f1-3 /proc/loadavg)"
