#!/usr/bin/env bash
# The streaming filter's benchmark of docs/benchmarks.md: generates SIZE_MB
# megabytes of articles (default 1024) and pipes them through
# `attest analyze --input-format jsonl --format jsonl --errors inline -`,
# printing the peak resident memory, the wall and CPU seconds and the rate.
# Run it at two sizes to see that memory does not grow with the stream.
#
#   benchmarks/filter.sh [SIZE_MB] [WORKDIR]
set -euo pipefail
cd "$(dirname "$0")/.."
size_mb=${1:-1024}
work=${2:-target/filter-bench}
mkdir -p "$work"
source benchmarks/lib.sh
build_release
corpus="$work/corpus-${size_mb}mb.jsonl"
if [ ! -f "$corpus" ]; then
  # gencorpus articles are about 925 bytes of JSON Lines each.
  "$gencorpus" $(( size_mb * 1024 * 1024 / 925 )) | head -c $(( size_mb * 1024 * 1024 )) \
    | sed '$d' > "$corpus"
fi
records=$(wc -l < "$corpus")
bytes=$(stat -c %s "$corpus")
/usr/bin/time -f "%M %e %U %S" -o "$work/time" \
  "$attest" analyze --input-format jsonl --format jsonl --errors inline - \
  < "$corpus" | wc -l > "$work/lines"
read -r rss_kb wall user sys < "$work/time"
lines=$(cat "$work/lines")
echo "| input MB | records | output lines | peak RSS MB | wall s | CPU s | articles/s |"
echo "|---|---|---|---|---|---|---|"
awk -v b="$bytes" -v r="$records" -v l="$lines" -v m="$rss_kb" -v w="$wall" -v u="$user" -v s="$sys" \
  'BEGIN { printf "| %.0f | %d | %d | %.1f | %.1f | %.1f | %.0f |\n", b/1048576, r, l, m/1024, w, u+s, r/w }'
