#!/usr/bin/env bash
# Benchmarks/upstream.sh: what --upstream shadow costs on the SKAN 4 p0 path (issue 24's target:
# at most 30% of the throughput). Three servers of the same release binary on 127.0.0.1: the
# upstream (a second skan-mock, a fast one), skan-mock alone, and skan-mock shadowing that
# upstream; wrk -t1 -c64 on each in turn, alone then shadowed then alone again (so drift shows),
# each with a warm-up. Prints the figures and the ratio shadowed / alone measured in this run.
#
#   Benchmarks/upstream.sh                 # builds a release binary first
#   BENCH_BINARY=path BENCH_DURATION=5 Benchmarks/upstream.sh
set -euo pipefail
ROOT="$(cd "$(dirname "$0")/.." && pwd)"
DURATION=${BENCH_DURATION:-10}
CONNECTIONS=${BENCH_CONNECTIONS:-64}
TOOLS="python3 $ROOT/Benchmarks/tools.py"
command -v wrk >/dev/null || { apt-get update -qq && DEBIAN_FRONTEND=noninteractive apt-get install -y -qq wrk >/dev/null; }
BIN=${BENCH_BINARY:-}
if [ -z "$BIN" ]; then
    (cd "$ROOT" && swift build -c release --product skan-mock >/dev/null)
    BIN="$ROOT/.build/release/skan-mock"
fi
TMP=$(mktemp -d)
PIDS=()
cleanup() { for pid in "${PIDS[@]}"; do kill -TERM "$pid" 2>/dev/null || true; done; rm -rf "$TMP"; }
trap cleanup EXIT

start() {  # name args...
    local name=$1; shift
    "$BIN" --host 127.0.0.1 --port 0 "$@" >"$TMP/$name.out" 2>"$TMP/$name.err" &
    PIDS+=("$!")
    for _ in $(seq 1 500); do grep -q "listening on" "$TMP/$name.out" 2>/dev/null && break; sleep 0.01; done
    sed -n 's/.*listening on http:\/\/127\.0\.0\.1:\([0-9]*\).*/\1/p' "$TMP/$name.out"
}

UPSTREAM=$(start upstream)
ALONE=$(start alone --log "$TMP/alone.jsonl")
SHADOW=$(start shadow --log "$TMP/shadow.jsonl" --upstream "http://127.0.0.1:$UPSTREAM")
P0=$($TOOLS v2-p0-query)

measure() {  # name port
    wrk -t1 -c"$CONNECTIONS" -d2s "http://127.0.0.1:$2$P0" >/dev/null
    wrk -t1 -c"$CONNECTIONS" -d"${DURATION}s" --latency "http://127.0.0.1:$2$P0" >"$TMP/wrk-$1.txt"
    read -r rps p50 p99 requests errors < <($TOOLS wrk "$TMP/wrk-$1.txt")
    printf '%-10s %10.0f req/s  p50 %6.3f ms  p99 %6.3f ms  (%s requests, %s errors)\n' "$1" "$rps" "$p50" "$p99" "$requests" "$errors" >&2
    echo "$rps"
}

A1=$(measure alone "$ALONE")
S=$(measure shadowed "$SHADOW")
A2=$(measure alone2 "$ALONE")
python3 - "$A1" "$S" "$A2" <<'PY'
import sys
a1, s, a2 = map(float, sys.argv[1:])
alone = (a1 + a2) / 2
print(f"shadowed / alone (p0 path, mean of the alone runs before and after): {s / alone:.2f}x "
      f"({'within' if s / alone >= 0.7 else 'over'} the 30% target)")
PY
