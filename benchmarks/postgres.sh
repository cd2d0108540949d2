#!/usr/bin/env bash
# The PostgreSQL ledger's benchmark of docs/benchmarks.md: generates N articles
# (default 100,000) and analyses them once with `attest analyze --format jsonl`,
# so that every ingest below measures storing only; starts a throw-away
# PostgreSQL cluster (as .ci/run does); then times `attest ingest --analysed`
# into a new SQLite ledger and a new PostgreSQL database, each ledger query on
# both (median of 5 runs, process start included), and four ingest processes
# writing one new PostgreSQL database at once against one process, checking
# after each that every article is stored once. Prints Markdown tables.
#
#   benchmarks/postgres.sh [N] [WORKDIR]
#
# ATTEST_BENCH_ONCE=1 leaves out the second single-process ingest that follows
# the four writers (it shows how much one run differs from the next).
# With ATTEST_BENCH_KEEP=1 the cluster is left running at the end, for
# EXPLAIN ANALYZE and the like, and the script says how to stop it.
#
# The PostgreSQL server's CPU is counted apart from attest's, from /proc: the
# postmaster's own time, that of its live children, and that of the children
# it has reaped (the backends of finished connections).
set -euo pipefail
cd "$(dirname "$0")/.."
n=${1:-100000}
work=${2:-target/postgres-bench}
mkdir -p "$work"
source benchmarks/lib.sh

pg_bin=$(ls -d /usr/lib/postgresql/*/bin 2>/dev/null | sort -V | tail -n 1)
if [ -z "$pg_bin" ]; then
  echo "SKIPPED: no PostgreSQL server (/usr/lib/postgresql/*/bin); install Debian's postgresql. Nothing was measured."
  exit 0
fi

# The cluster lives in a temporary directory owned by the postgres user when
# run as root (PostgreSQL refuses root), reached through a Unix socket there.
pg_dir=$(mktemp -d /tmp/attest-pg-bench.XXXXXX)
port=5433
url() { echo "postgres://postgres@localhost/$1?host=$pg_dir&port=$port"; }
as_postgres() {
  if [ "$(id -u)" = 0 ]; then su postgres -s /bin/sh -c "$1"; else sh -c "$1"; fi
}
stop_cluster() {
  if [ "${ATTEST_BENCH_KEEP:-}" = 1 ] && [ -f "$pg_dir/data/postmaster.pid" ]; then
    echo "the cluster is left running: $(url ledger_one)"
    echo "stop it with: su postgres -s /bin/sh -c \"$pg_bin/pg_ctl -D $pg_dir/data stop\"; rm -rf $pg_dir"
    return
  fi
  as_postgres "'$pg_bin/pg_ctl' -D '$pg_dir/data' -m fast -w stop" >/dev/null 2>&1 || true
  rm -rf "$pg_dir"
}
trap stop_cluster EXIT
if [ "$(id -u)" = 0 ]; then chown postgres "$pg_dir"; fi
# shared_buffers as large as the SQLite ledger's page cache (256 MiB), and
# pg_stat_statements where the server has it, to count the statements of an
# ingest and their time in the server; the rest is PostgreSQL's defaults.
statements=""
if [ -f "$("$pg_bin/pg_config" --pkglibdir)/pg_stat_statements.so" ]; then
  statements="-c shared_preload_libraries=pg_stat_statements"
fi
if ! as_postgres "'$pg_bin/initdb' -D '$pg_dir/data' -A trust -U postgres >'$pg_dir/initdb.log' 2>&1 &&
  '$pg_bin/pg_ctl' -D '$pg_dir/data' -l '$pg_dir/server.log' -w \
    -o \"-k $pg_dir -p $port -c listen_addresses= -c shared_buffers=256MB $statements\" start >/dev/null"; then
  echo "SKIPPED: the throw-away PostgreSQL cluster did not start: $(cat "$pg_dir"/*.log 2>/dev/null | tail -n 3 | tr '\n' ' ')"
  echo "Nothing was measured."
  exit 0
fi
psql() { "$pg_bin/psql" -X -q -t -A -h "$pg_dir" -p "$port" -U postgres "$@"; }
new_db() { psql -d postgres -c "CREATE DATABASE $1"; url "$1"; }
if [ -n "$statements" ]; then psql -d postgres -c "CREATE EXTENSION pg_stat_statements"; fi
postmaster=$(head -n 1 "$pg_dir/data/postmaster.pid")
clock_ticks=$(getconf CLK_TCK)

server_ticks() { # CPU ticks of the server so far (see the head of this file)
  local pid total=0
  for pid in "$postmaster" $(pgrep -P "$postmaster"); do
    # Fields after the command name: utime, stime, cutime and cstime are 12 to 15.
    total=$(( total + $(sed 's/.*) //' "/proc/$pid/stat" 2>/dev/null | awk '{ print $12 + $13 + $14 + $15 }' || echo 0) ))
  done
  echo "$total"
}

build_release
corpus="$work/corpus.jsonl"
analysed="$work/analysed.jsonl"
"$gencorpus" "$n" > "$corpus"
timed "$work/analyze.time" "$attest" analyze --format jsonl "$corpus" > "$analysed"
echo "corpus: $n articles, $(awk -v b="$(stat -c %s "$corpus")" 'BEGIN { printf "%.1f", b / 1e6 }') MB of JSON Lines;" \
  "analysed once in $(cut -d' ' -f1 "$work/analyze.time") s into $(awk -v b="$(stat -c %s "$analysed")" 'BEGIN { printf "%.0f", b / 1e6 }') MB of documents"
echo "PostgreSQL: $("$pg_bin/postgres" --version), shared_buffers 256MB, otherwise the defaults (synchronous_commit on)"
echo

# One ingest of an analysed file: wall and attest's CPU from GNU time, the
# server's CPU from /proc. Writes "wall attest_cpu server_cpu" to $1.time.
ingest() {
  local name=$1 db=$2
  shift 2
  local before after
  before=$(server_ticks)
  timed "$work/$name.attest" "$attest" ingest --analysed "$@" --db "$db" 2> "$work/$name.log" \
    || { echo "attest ingest into $name failed:"; tail -n 3 "$work/$name.log"; exit 1; }
  after=$(server_ticks)
  awk -v t="$clock_ticks" -v s=$(( after - before )) '{ printf "%s %.1f %.1f\n", $1, $2 + $3, s / t }' \
    "$work/$name.attest" > "$work/$name.time"
}

# Stored articles and distinct keys of a PostgreSQL ledger, and whether that
# is every article of the corpus once.
count_check() {
  local counts
  counts=$(psql -d "$1" -F ' ' -c "SELECT count(*), count(DISTINCT key) FROM articles")
  read -r rows keys <<< "$counts"
  if [ "$rows" = "$n" ] && [ "$keys" = "$n" ]; then
    echo "$rows articles, $keys keys: all, once"
  else
    echo "$rows articles, $keys keys: EXPECTED $n"
  fi
}

sqlite_db="$work/ledger.db"
rm -f "$sqlite_db" "$sqlite_db-wal" "$sqlite_db-shm"
ingest sqlite "$sqlite_db" "$analysed"
pg_one=$(new_db ledger_one)
if [ -n "$statements" ]; then psql -d postgres -c "SELECT pg_stat_statements_reset()" > /dev/null; fi
ingest pg_one "$pg_one" "$analysed"

row() { # label, .time name, size in bytes
  read -r wall cpu server < "$work/$2.time"
  awk -v l="$1" -v w="$wall" -v c="$cpu" -v s="$server" -v n="$n" -v b="$3" -v srv="${4:-}" \
    'BEGIN { printf "| %s | %.1f | %.1f | %s | %.0f | %.0f | %.1f |\n", l, w, c, srv == "" ? s : srv, n / w, b / 1e6, b / n / 1e3 }'
}
sqlite_bytes=$(stat -c %s "$sqlite_db")
pg_bytes=$(psql -d ledger_one -c "SELECT pg_database_size(current_database())")
empty_bytes=$(psql -d postgres -c "SELECT pg_database_size('template1')")
echo "| ingest --analysed, $n articles | wall s | attest CPU s | server CPU s | articles/s | ledger MB | KB per article |"
echo "|---|---|---|---|---|---|---|"
row "SQLite (new file)" sqlite "$sqlite_bytes" "(in attest)"
row "PostgreSQL (new database)" pg_one "$pg_bytes"
echo
echo "sqlite: $(tail -n 1 "$work/sqlite.log")"
echo "postgres: $(tail -n 1 "$work/pg_one.log" | sed 's/?host=[^ ]*//')"
echo "postgres, $(count_check ledger_one); an empty database is $(( empty_bytes / 1000000 )) MB of that"
echo

if [ -n "$statements" ]; then
  # Each statement is one round trip; what the server spends executing them,
  # set against the wall time, says where an ingest's time goes.
  wall=$(cut -d' ' -f1 "$work/pg_one.time")
  echo "| statements of the PostgreSQL ingest (pg_stat_statements) | per article | mean µs in the server | ms per article in the server |"
  echo "|---|---|---|---|"
  psql -d postgres -F '|' -c "
    WITH s AS (SELECT regexp_replace(left(query, 48), '\s+', ' ', 'g') AS query, calls, total_exec_time
               FROM pg_stat_statements WHERE dbid = (SELECT oid FROM pg_database WHERE datname = 'ledger_one'))
    (SELECT query, calls, total_exec_time FROM s ORDER BY total_exec_time DESC LIMIT 6)
    UNION ALL SELECT 'all statements', sum(calls), sum(total_exec_time) FROM s" |
    awk -F'|' -v n="$n" -v w="$wall" '{ printf "| `%s` | %.1f | %.0f | %.2f |\n", $1, $2 / n, $3 * 1000 / $2, $3 / n }
      END { printf "\nwall time per article: %.2f ms\n\n", w * 1000 / n }'
fi

echo "| PostgreSQL relation | rows | table MB (with TOAST) | indexes MB |"
echo "|---|---|---|---|"
psql -d ledger_one -F ' ' -c "VACUUM ANALYZE" -c "
  SELECT c.relname, c.reltuples::bigint,
         round((pg_total_relation_size(c.oid) - pg_indexes_size(c.oid)) / 1e6, 1),
         round(pg_indexes_size(c.oid) / 1e6, 1)
  FROM pg_class c JOIN pg_namespace s ON s.oid = c.relnamespace
  WHERE s.nspname = 'public' AND c.relkind = 'r' ORDER BY pg_total_relation_size(c.oid) DESC" |
  awk '{ printf "| %s | %s | %s | %s |\n", $1, $2, $3, $4 }'
echo "(sizes after VACUUM ANALYZE, which the queries below also follow)"
echo

echo "| query (median of 5, ms) | SQLite | PostgreSQL |"
echo "|---|---|---|"
query_rows "$sqlite_db" "$pg_one"
same_answer() { # whether both ledgers print the same for a query
  if [ "$("$attest" "$@" --db "$sqlite_db" 2>&1)" = "$("$attest" "$@" --db "$pg_one" 2>&1)" ]; then
    echo "same answer from both: attest $*"
  else
    echo "DIFFERENT answers: attest $*"
  fi
}
same_answer stats --by month
same_answer sources --limit 20
same_answer said "$(top_person "$sqlite_db")"
echo

# Four writers on a quarter each, then one on the whole again, both into new
# databases, one right after the other.
split -n l/4 -d "$analysed" "$work/part-"
pg_four=$(new_db ledger_four)
before=$(server_ticks)
start=$(now_ms)
writers=()
for part in "$work"/part-0[0-3]; do
  timed "$part.attest" "$attest" ingest --analysed "$part" --db "$pg_four" 2> "$part.log" &
  writers+=($!)
done
for pid in "${writers[@]}"; do
  wait "$pid" || { echo "a writer failed:"; tail -n 3 "$work"/part-0[0-3].log; exit 1; }
done
wall_ms=$(( $(now_ms) - start ))
after=$(server_ticks)
cat "$work"/part-0[0-3].attest | awk -v w="$wall_ms" -v t="$clock_ticks" -v s=$(( after - before )) \
  '{ c += $2 + $3 } END { printf "%.1f %.1f %.1f\n", w / 1000, c, s / t }' > "$work/pg_four.time"
if [ "${ATTEST_BENCH_ONCE:-}" != 1 ]; then
  pg_again=$(new_db ledger_again)
  ingest pg_again "$pg_again" "$analysed"
fi
echo "| PostgreSQL ingest --analysed, $n articles | wall s | attest CPU s | server CPU s | articles/s | stored |"
echo "|---|---|---|---|---|---|"
parallel_row() {
  read -r wall cpu server < "$work/$2.time"
  awk -v l="$1" -v w="$wall" -v c="$cpu" -v s="$server" -v n="$n" -v k="$3" \
    'BEGIN { printf "| %s | %.1f | %.1f | %.1f | %.0f | %s |\n", l, w, c, s, n / w, k }'
}
parallel_row "1 process (as above)" pg_one "$(count_check ledger_one)"
parallel_row "4 processes, a quarter each" pg_four "$(count_check ledger_four)"
if [ "${ATTEST_BENCH_ONCE:-}" != 1 ]; then
  parallel_row "1 process, again" pg_again "$(count_check ledger_again)"
fi
for part in "$work"/part-0[0-3]; do
  echo "$(basename "$part"): $(tail -n 1 "$part.log" | sed 's/; ledger .*//')"
done
same=$(for db in ledger_one ledger_four; do
  psql -d "$db" -F ' ' -c "SELECT (SELECT count(*) FROM attributions), (SELECT count(*) FROM sources),
    (SELECT sum(n_statements) FROM sources), (SELECT sum(articles) FROM stats_cells)"
done | uniq | wc -l)
if [ "$same" = 1 ]; then
  echo "one writer and four: the same numbers of attributions, sources, statements and counted articles"
else
  echo "one writer and four: DIFFERENT numbers of attributions, sources, statements or counted articles"
fi
echo
echo "load average at the end: $(cut -d' ' -f1-3 /proc/loadavg)"
