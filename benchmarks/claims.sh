#!/usr/bin/env bash
# The claims benchmark of docs/benchmarks.md: does storing an article cost
# more in a large ledger? Generates N articles (default 100,000), analyses them
# once with `attest analyze --format jsonl`, then builds two SQLite ledgers
# with `attest ingest --analysed`: one of the first SMALL articles (default
# 10,000) and one of all N, each less its last LAST articles (default 2,000).
# It times storing those last LAST into a copy of each ledger, alternately,
# ROUNDS times (default 2), and prints the time per article of each, their
# ratio, and the claims lookup's query plan and index sizes.
#
#   benchmarks/claims.sh [N] [WORKDIR] [SMALL] [LAST] [ROUNDS]
set -euo pipefail
cd "$(dirname "$0")/.."
n=${1:-100000}
work=${2:-target/claims-bench}
small=${3:-10000}
last=${4:-2000}
rounds=${5:-2}
mkdir -p "$work"
source benchmarks/lib.sh
build_release
corpus="$work/corpus.jsonl"
analysed="$work/analysed.jsonl"

"$gencorpus" "$n" > "$corpus"
"$attest" analyze --format jsonl "$corpus" > "$analysed"

# A ledger of the first $1 articles less the last $last, as base-$1.db, and
# those last articles, as last-$1.jsonl.
prepare() {
  local size=$1
  rm -f "$work/base-$size.db"*
  head -n $(( size - last )) "$analysed" > "$work/first-$size.jsonl"
  head -n "$size" "$analysed" | tail -n "$last" > "$work/last-$size.jsonl"
  "$attest" ingest --analysed "$work/first-$size.jsonl" --db "$work/base-$size.db" 2> /dev/null
  rm "$work/first-$size.jsonl"
  # One file, so that copying it copies the whole ledger.
  sqlite3 "$work/base-$size.db" 'PRAGMA wal_checkpoint(TRUNCATE);' > /dev/null
}

# Stores the last articles into a copy of a base ledger; prints wall and CPU
# milliseconds per article.
store_last() {
  local size=$1
  rm -f "$work/copy.db"*
  cp "$work/base-$size.db" "$work/copy.db"
  timed "$work/last.time" "$attest" ingest --analysed "$work/last-$size.jsonl" --db "$work/copy.db" 2> /dev/null
  awk -v n="$last" '{ printf "%.3f %.3f", $1 * 1000 / n, ($2 + $3) * 1000 / n }' "$work/last.time"
}

prepare "$small"
prepare "$n"
echo "corpus: $n articles; ledgers of $small and $n articles, timing the last $last of each"
echo
echo "| round | ms per article, $small | CPU ms, $small | ms per article, $n | CPU ms, $n | ratio (wall) | ratio (CPU) |"
echo "|---|---|---|---|---|---|---|"
for round in $(seq 1 "$rounds"); do
  read -r small_wall small_cpu <<< "$(store_last "$small")"
  read -r large_wall large_cpu <<< "$(store_last "$n")"
  awk -v r="$round" -v sw="$small_wall" -v sc="$small_cpu" -v lw="$large_wall" -v lc="$large_cpu" \
    'BEGIN { printf "| %d | %.2f | %.2f | %.2f | %.2f | %.2f | %.2f |\n", r, sw, sc, lw, lc, lw / sw, lc / sc }'
done
echo
db="$work/copy.db"
echo "ledger of $n articles: $(du -m "$db" | cut -f1) MB; $(sqlite3 "$db" 'SELECT count(*) FROM claims') claims, \
$(sqlite3 "$db" 'SELECT count(*) FROM statements') statements, \
$(sqlite3 "$db" "SELECT count(*) || ' band keys holding ' || (sum(length(statements)) / 4) || ' statements' FROM claim_bands")"
echo "claims by articles carrying them:"
sqlite3 "$db" 'SELECT n_articles, count(*) FROM claims GROUP BY n_articles ORDER BY n_articles' | tr '\n' ' '
echo
echo "bytes of the claims tables and their indexes (dbstat):"
sqlite3 "$db" "SELECT name, sum(pgsize) FROM dbstat WHERE name IN ('claims', 'statements', 'claim_bands', \
'claim_bands_key', 'claim_bands_statement', 'statements_claim', 'statements_article', 'claims_spread') GROUP BY name ORDER BY name" 2>/dev/null \
  || echo "(this sqlite3 has no dbstat)"
echo
echo "plan of one band key's lookup:"
sqlite3 "$db" "EXPLAIN QUERY PLAN SELECT statements FROM claim_bands WHERE band_key = 1"
echo
echo "load average at the end: $(cut -d' ' -f1-3 /proc/loadavg)"
