#!/usr/bin/env bash
# Benchmarks/upstream.sh: what --upstream shadow costs on the SKAN 4 p0 path (issue 24's target:
# at most 30% of the throughput). On 127.0.0.1, from the same release binary: skan-mock alone, and
# skan-mock shadowing two upstreams in turn: nginx answering the same JSON body (an upstream that
# costs next to no CPU, so what is measured is the shadowing itself) and a second skan-mock (an
# upstream that does the same work, and on a 2-core machine takes its share of the CPU from the
# server under test). wrk -t1 -c64 on each, alone first and last (so drift shows), each after a
# warm-up. Prints the figures and the ratios shadowed / alone measured in this run.
#
#   Benchmarks/upstream.sh                 # builds a release binary first
#   BENCH_BINARY=path BENCH_DURATION=5 Benchmarks/upstream.sh
set -euo pipefail
ROOT="$(cd "$(dirname "$0")/.." && pwd)"
DURATION=${BENCH_DURATION:-10}
CONNECTIONS=${BENCH_CONNECTIONS:-64}
TOOLS="python3 $ROOT/Benchmarks/tools.py"
missing=()
command -v wrk >/dev/null || missing+=(wrk)
command -v nginx >/dev/null || [ -x /usr/sbin/nginx ] || missing+=(nginx-light)
if [ ${#missing[@]} -gt 0 ]; then
    apt-get update -qq
    if ! apt-cache show nginx-light >/dev/null 2>&1; then missing=("${missing[@]/nginx-light/nginx}"); fi
    DEBIAN_FRONTEND=noninteractive apt-get install -y -qq "${missing[@]}" >/dev/null
fi
NGINX=$(command -v nginx || echo /usr/sbin/nginx)
BIN=${BENCH_BINARY:-}
if [ -z "$BIN" ]; then
    (cd "$ROOT" && swift build -c release --product skan-mock >/dev/null)
    BIN="$ROOT/.build/release/skan-mock"
fi
TMP=$(mktemp -d)
PIDS=()
cleanup() {
    for pid in "${PIDS[@]}"; do kill -TERM "$pid" 2>/dev/null || true; done
    for pid in "${PIDS[@]}"; do wait "$pid" 2>/dev/null || true; done
    rm -rf "$TMP"
}
trap cleanup EXIT

# Starts a server and sets PORT (not in a $(...) subshell, so that PIDS keeps its pid for cleanup).
start() {  # name args...
    local name=$1; shift
    "$BIN" --host 127.0.0.1 --port 0 "$@" >"$TMP/$name.out" 2>"$TMP/$name.err" &
    PIDS+=("$!")
    for _ in $(seq 1 500); do grep -q "listening on" "$TMP/$name.out" 2>/dev/null && break; sleep 0.01; done
    PORT=$(sed -n 's/.*listening on http:\/\/127\.0\.0\.1:\([0-9]*\).*/\1/p' "$TMP/$name.out")
}

start upstream; UPSTREAM=$PORT
start alone --log "$TMP/alone.jsonl"; ALONE=$PORT
start shadow --log "$TMP/shadow.jsonl" --upstream "http://127.0.0.1:$UPSTREAM"; SHADOW=$PORT
P0=$($TOOLS v2-p0-query)

# nginx answering what the model answers (the same body: every comparison matches).
BODY=$($TOOLS get "$ALONE" "$P0")
source "$ROOT/Benchmarks/nginx.sh"
start_nginx "$BODY"
start shadow-nginx --log "$TMP/shadow-nginx.jsonl" --upstream "http://127.0.0.1:$NGINX_PORT"; SHADOW_NGINX=$PORT

measure() {  # name port
    wrk -t1 -c"$CONNECTIONS" -d2s "http://127.0.0.1:$2$P0" >/dev/null
    wrk -t1 -c"$CONNECTIONS" -d"${DURATION}s" --latency "http://127.0.0.1:$2$P0" >"$TMP/wrk-$1.txt"
    read -r rps p50 p99 requests errors < <($TOOLS wrk "$TMP/wrk-$1.txt")
    printf '%-10s %10.0f req/s  p50 %6.3f ms  p99 %6.3f ms  (%s requests, %s errors)\n' "$1" "$rps" "$p50" "$p99" "$requests" "$errors" >&2
    echo "$rps"
}

A1=$(measure alone "$ALONE")
SN=$(measure shadow-nginx "$SHADOW_NGINX")
S=$(measure shadow-skan "$SHADOW")
A2=$(measure alone2 "$ALONE")
# What happened to the shadowed requests: compared (and matched: nginx answers the model's own
# body), or not sent because the upstream client's queue was full (upstream_skipped).
sleep 3
count() { curl -s "http://127.0.0.1:$1/__admin/metrics" | sed -n "s/^skan_mock_findings_total{code=\"$2\"} //p"; }
for server in shadow-nginx:$SHADOW_NGINX shadow-skan:$SHADOW; do
    port=${server#*:}
    printf '%-12s findings: differs_from_upstream %s, upstream_skipped %s, upstream_timeout %s, upstream_unreachable %s\n' \
        "${server%%:*}" "$(count "$port" differs_from_upstream)" "$(count "$port" upstream_skipped)" \
        "$(count "$port" upstream_timeout)" "$(count "$port" upstream_unreachable)" >&2
done
python3 - "$A1" "$SN" "$S" "$A2" <<'PY'
import sys
a1, sn, s, a2 = map(float, sys.argv[1:5])
alone = (a1 + a2) / 2
print(f"shadowing nginx / alone (the cost of shadowing; p0 path, mean of the alone runs before and after): "
      f"{sn / alone:.2f}x ({'within' if sn / alone >= 0.7 else 'over'} the 30% target)")
print(f"shadowing a second skan-mock / alone (that upstream's work shares the cores): {s / alone:.2f}x")
PY
