#!/usr/bin/env bash
# Benchmarks/tenants.sh: what tenants and pending waits cost the default path, in one run on one
# server (issue 46). Each round measures, one after the other with wrk -t1 -c64 on 127.0.0.1:
#   default  the p0 SKAN 4 query, unprefixed;
#   tenants  the same query spread over 16 tenants (/t/bench-0 ... /t/bench-15, a Lua request());
#   waits    the default query again while 16 tenants each hold a pending requests/wait (for a device
#            that never comes, as parallel simulator clones wait for their app's request), with the
#            journal full.
# Prints each round and the medians, as ratios to the default path of the same round, measured
# before and after the other two (their mean): the machine's noise moves raw figures by a fifth,
# and a drift within the round would otherwise count against whichever came last.
#
#   Benchmarks/tenants.sh                                  # builds a release binary first
#   BENCH_BINARY=path TENANTS_ROUNDS=5 TENANTS_SECONDS=8 Benchmarks/tenants.sh
#
# Needs wrk and curl (installed with apt-get when missing). Only 127.0.0.1 is used; every process it
# starts is stopped at the end.
set -euo pipefail
ROOT=$(cd "$(dirname "$0")/.." && pwd)
ROUNDS=${TENANTS_ROUNDS:-3}
SECONDS_EACH=${TENANTS_SECONDS:-5}
TENANTS=16
missing=()
command -v wrk >/dev/null || missing+=(wrk)
command -v curl >/dev/null || missing+=(curl)
if [ "${#missing[@]}" -gt 0 ]; then
    sudo=""; [ "$(id -u)" -ne 0 ] && sudo=sudo
    $sudo apt-get update -qq && $sudo env DEBIAN_FRONTEND=noninteractive apt-get install -y -qq "${missing[@]}" >/dev/null
fi
BIN=${BENCH_BINARY:-}
if [ -z "$BIN" ]; then
    (cd "$ROOT" && swift build -c release --static-swift-stdlib --scratch-path .build-bench --product skan-mock >&2)
    BIN="$ROOT/.build-bench/release/skan-mock"
fi
TMP=$(mktemp -d /tmp/skan-tenants.XXXXXX)
PIDS=()
cleanup() {
    local pid
    for pid in "${PIDS[@]}"; do kill -TERM "$pid" 2>/dev/null || true; done
    for pid in "${PIDS[@]}"; do wait "$pid" 2>/dev/null || true; done
    rm -rf "$TMP"
}
trap cleanup EXIT
trap 'exit 130' INT TERM

QUERY=$(python3 "$ROOT/Benchmarks/tools.py" v2-p0-query)
"$BIN" --host 127.0.0.1 --port 0 --log "$TMP/journal.jsonl" >"$TMP/server.out" 2>&1 &
SERVER=$!
PIDS+=("$SERVER")
for _ in $(seq 1 500); do
    grep -q "listening on http:" "$TMP/server.out" 2>/dev/null && break
    sleep 0.01
done
PORT=$(sed -n 's/.*listening on http:\/\/127\.0\.0\.1:\([0-9]*\).*/\1/p' "$TMP/server.out")
[ -n "$PORT" ] || { cat "$TMP/server.out" >&2; echo "skan-mock did not start" >&2; exit 1; }
BASE="http://127.0.0.1:$PORT"

cat >"$TMP/tenants.lua" <<LUA
local n = 0
local query = "$QUERY"
request = function()
    n = n + 1
    return wrk.format("GET", "/t/bench-" .. (n % $TENANTS) .. query)
end
LUA

rate() {  # wrk arguments... -> requests/s
    wrk -t1 -c64 -d"${SECONDS_EACH}s" "$@" | awk '/^Requests\/sec:/ { printf "%d\n", $2 }'
}

# Warm-up: the journal full (10,000 entries) and every tenant made.
wrk -t1 -c64 -d3s "$BASE$QUERY" >/dev/null
wrk -t1 -c64 -d2s -s "$TMP/tenants.lua" "$BASE" >/dev/null

defaults=(); tenants=(); waits=()
printf '| round | default path | 16 tenants | ratio | default, 16 waits pending | ratio |\n|---|---:|---:|---:|---:|---:|\n'
for round in $(seq 1 "$ROUNDS"); do
    d1=$(rate "$BASE$QUERY")
    t=$(rate -s "$TMP/tenants.lua" "$BASE")
    WAITERS=()
    for i in $(seq 0 $((TENANTS - 1))); do
        curl -s -o /dev/null "$BASE/t/wait-$i/__admin/requests/wait?device=never&timeout_ms=60000" &
        WAITERS+=("$!")
    done
    # Every wait is filed before the load starts (each is one local request).
    sleep 0.5
    w=$(rate "$BASE$QUERY")
    kill "${WAITERS[@]}" 2>/dev/null || true
    wait "${WAITERS[@]}" 2>/dev/null || true
    d2=$(rate "$BASE$QUERY")
    d=$(( (d1 + d2) / 2 ))
    defaults+=("$d"); tenants+=("$t"); waits+=("$w")
    printf '| %d | %s | %s | %.2f | %s | %.2f |\n' "$round" "$d" "$t" "$(echo "$t / $d" | bc -l)" "$w" \
        "$(echo "$w / $d" | bc -l)"
done
python3 - "${defaults[*]}" "${tenants[*]}" "${waits[*]}" <<'PY'
import statistics, sys
d, t, w = ([int(x) for x in a.split()] for a in sys.argv[1:4])
tr = [b / a for a, b in zip(d, t)]
wr = [b / a for a, b in zip(d, w)]
print(f"| median | {statistics.median(d):.0f} | {statistics.median(t):.0f} | {statistics.median(tr):.2f} "
      f"(pairs {min(tr):.2f} to {max(tr):.2f}) | {statistics.median(w):.0f} | {statistics.median(wr):.2f} "
      f"(pairs {min(wr):.2f} to {max(wr):.2f}) |")
PY
