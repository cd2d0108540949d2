# What the benchmark scripts share; sourced by them from the repository's root.

# Builds release attest and attest-gencorpus and names them $attest and
# $gencorpus, in $CARGO_TARGET_DIR when that is set, as cargo puts them.
build_release() {
  cargo build --quiet --release -p attest-cli -p attest-gencorpus
  local dir=${CARGO_TARGET_DIR:-target}/release
  attest=$dir/attest
  gencorpus=$dir/attest-gencorpus
}

now_ms() { echo $(( $(date +%s%N) / 1000000 )); }

# Wall and CPU (user + system) seconds of a command, from GNU time, into $1.
timed() {
  local out=$1
  shift
  /usr/bin/time -f "%e %U %S" -o "$out" "$@"
}

median_ms() { # the median wall time of 5 runs of a command, in ms
  local times=()
  for _ in 1 2 3 4 5; do
    local s
    s=$(now_ms)
    "$@" > /dev/null
    times+=($(( $(now_ms) - s )))
  done
  printf '%s\n' "${times[@]}" | sort -n | sed -n 3p
}

# The person a ledger quotes most.
top_person() {
  "$attest" sources --db "$1" --type person --limit 1 --format csv | sed -n 2p | cut -d, -f2
}

# The ledger queries of docs/benchmarks.md, as Markdown rows: the median ms of
# each (median_ms) on each ledger given, one column a ledger. The names and
# words are those of attest-gencorpus.
query_rows() {
  local person
  person=$(top_person "$1")
  query_row "$*" "attest sources" sources --limit 20
  query_row "$*" "attest sources --type unnamed" sources --type unnamed --limit 20
  query_row "$*" "attest sources --outlet 'Coast Herald' --since 2026-01-01" \
    sources --outlet "Coast Herald" --since 2026-01-01 --limit 20
  query_row "$*" "attest said '$person'" said "$person"
  query_row "$*" "attest search bargain" search bargain --limit 20
  query_row "$*" "attest search '\"cranes stand still\"'" search '"cranes stand still"' --limit 20
  query_row "$*" "attest stats --by outlet" stats --by outlet
  query_row "$*" "attest stats --by month" stats --by month
}

query_row() { # the ledgers (separated by spaces), the label, the query
  local dbs=$1 label=$2 db cells=""
  shift 2
  for db in $dbs; do cells="$cells $(median_ms "$attest" "$@" --db "$db") |"; done
  echo "| \`$label\` |$cells"
}
