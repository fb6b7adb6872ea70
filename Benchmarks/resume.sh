#!/usr/bin/env bash
# How long `--resume` takes on a large journal, and how much memory it needs (issue 30.7).
# Writes a synthetic journal of LINES entries (sessions of 1,000 devices, one second apart), starts
# skan-mock --log FILE --resume --port 0 on it, and prints the seconds to resume, the seconds per
# million lines and the peak resident memory (VmHWM) of the server once resumed. Stops only the
# server it started.
#
#   Benchmarks/resume.sh                    # 1,000,000 lines, the release build
#   RESUME_LINES=2000 Benchmarks/resume.sh  # a small file, for trying the script
#
# Environment: RESUME_LINES (default 1000000), RESUME_BINARY (default .build/release/skan-mock,
# else .build/debug/skan-mock), RESUME_DIR (where the journal is written, default a temporary folder).
set -euo pipefail

ROOT=$(cd "$(dirname "$0")/.." && pwd)
LINES=${RESUME_LINES:-1000000}
BINARY=${RESUME_BINARY:-}
if [ -z "$BINARY" ]; then
    for candidate in "$ROOT/.build/release/skan-mock" "$ROOT/.build/debug/skan-mock"; do
        if [ -x "$candidate" ]; then BINARY=$candidate; break; fi
    done
fi
[ -n "$BINARY" ] && [ -x "$BINARY" ] || { echo "resume.sh: build skan-mock first (swift build -c release)" >&2; exit 2; }
DIR=${RESUME_DIR:-$(mktemp -d)}
JOURNAL="$DIR/resume-bench.jsonl"
PID=""
cleanup() {
    if [ -n "$PID" ] && kill -0 "$PID" 2>/dev/null; then kill "$PID"; wait "$PID" 2>/dev/null || true; fi
    [ -z "${RESUME_DIR:-}" ] && rm -rf "$DIR"
    return 0
}
trap cleanup EXIT

python3 - "$JOURNAL" "$LINES" <<'PY'
import json, sys, datetime
path, count = sys.argv[1], int(sys.argv[2])
start = datetime.datetime(2026, 9, 15, 12, 0, 0, tzinfo=datetime.timezone.utc)
first_call = int(start.timestamp()) - 60
with open(path, "w") as out:
    for n in range(1, count + 1):
        device = "BENCH-%d" % (n % 1000)
        time = (start + datetime.timedelta(seconds=n)).strftime("%Y-%m-%dT%H:%M:%S.000Z")
        params = {"a": "K", "i": "com.x", "p": "iOS", "idfv": device, "n": "__SESSION__",
                  "skan_current_conversion_value": "0",
                  "skan_first_call_to_skadnetwork_timestamp": str(first_call)}
        body = json.dumps({"status": "ok", "conversion_value": 0, "skan_updated_coarse_value": 0,
                           "skan_updated_lock_window_value": False}, separators=(",", ":"))
        entry = {"id": n, "time": time, "method": "GET", "path": "/api/v2/conversion_value",
                 "endpoint": "skan4", "remote": "127.0.0.1:40000", "device": device, "event": "__SESSION__",
                 "params": params, "skan": {"current_fine": 0, "first_call": first_call}, "window": "p0",
                 "issues": [], "response": {"status": 200, "body": body}, "duration_us": 100,
                 "clock_offset_s": 0, "tls": None}
        out.write(json.dumps(entry, separators=(",", ":")) + "\n")
PY
BYTES=$(stat -c %s "$JOURNAL" 2>/dev/null || stat -f %z "$JOURNAL")

STARTED=$(python3 -c 'import time; print(time.monotonic())')
"$BINARY" --port 0 --log "$JOURNAL" --resume >"$DIR/out.txt" 2>"$DIR/err.txt" &
PID=$!
until grep -q "skan-mock: resumed" "$DIR/err.txt" "$DIR/out.txt" 2>/dev/null; do
    if ! kill -0 "$PID" 2>/dev/null; then
        echo "resume.sh: skan-mock stopped:" >&2
        cat "$DIR/err.txt" >&2
        exit 1
    fi
    sleep 0.05
done
ENDED=$(python3 -c 'import time; print(time.monotonic())')
PEAK=$(awk '/VmHWM/ {print $2, $3}' "/proc/$PID/status" 2>/dev/null || echo "unknown (no /proc)")

python3 - "$LINES" "$BYTES" "$STARTED" "$ENDED" "$PEAK" <<'PY'
import sys
lines, size, started, ended, peak = int(sys.argv[1]), int(sys.argv[2]), float(sys.argv[3]), float(sys.argv[4]), sys.argv[5]
seconds = ended - started
print("lines:                    %d (%.1f MiB)" % (lines, size / 1048576))
print("seconds to resume:        %.2f" % seconds)
print("seconds per million lines: %.2f" % (seconds * 1e6 / lines))
print("peak resident memory:     %s" % peak)
PY
grep "skan-mock: --resume\|skan-mock: resumed" "$DIR/err.txt" "$DIR/out.txt" -h >&2 || true
