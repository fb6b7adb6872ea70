#!/usr/bin/env bash
# How long `--resume` takes on a large journal, and how much memory it needs (issue 30.7).
# For each size in RESUME_LINES, writes a synthetic journal of that many entries (sessions of 1,000
# devices, one second apart), starts skan-mock --log FILE --resume --port 0 on it, and prints the
# seconds to resume, the seconds per million lines and the peak resident memory (VmHWM) of the
# server once resumed. The reference, measured in the same run, is the same server started with
# --resume on an empty log: memory that grows with the file (it must not: resume is a stream)
# shows as a ratio above it. Stops only the servers it started.
#
#   Benchmarks/resume.sh                           # 100,000 and 1,000,000 lines, the release build
#   RESUME_LINES="2000 20000" Benchmarks/resume.sh  # small files, for trying the script
#
# Environment: RESUME_LINES (default "100000 1000000"), RESUME_BINARY (default
# .build/release/skan-mock, else .build/debug/skan-mock), RESUME_DIR (where the journal is written,
# default a temporary folder), RESUME_BEFORE (another skan-mock binary, e.g. a build of an older
# commit, measured on the same files for a before/after ratio), RESUME_RESULTS (a results.md whose
# section between <!-- resume:start --> and <!-- resume:end --> is replaced with this run's table),
# RESUME_BEFORE_LABEL (its name in the table, e.g. "before (2a63af3)").
set -euo pipefail

ROOT=$(cd "$(dirname "$0")/.." && pwd)
SIZES=${RESUME_LINES:-100000 1000000}
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

# resume LINES: writes a journal of LINES entries (none: an empty file), resumes from it, and prints
# one row: lines, MiB, seconds, seconds per million lines, peak resident KiB, ratio to the reference.
resume() {
    LINES=$1
    RUN=$2
    LABEL=$3
    rm -f "$JOURNAL"
    : >"$JOURNAL"
    if [ "$LINES" -gt 0 ]; then
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

    fi
    BYTES=$(stat -c %s "$JOURNAL" 2>/dev/null || stat -f %z "$JOURNAL")
    STARTED=$(python3 -c 'import time; print(time.monotonic())')
    "$RUN" --port 0 --log "$JOURNAL" --resume >"$DIR/out.txt" 2>"$DIR/err.txt" &
    PID=$!
    until grep -q "skan-mock: resumed\|listening" "$DIR/err.txt" "$DIR/out.txt" 2>/dev/null; do
        if ! kill -0 "$PID" 2>/dev/null; then
            echo "resume.sh: skan-mock stopped:" >&2
            cat "$DIR/err.txt" >&2
            exit 1
        fi
        sleep 0.02
    done
    ENDED=$(python3 -c 'import time; print(time.monotonic())')
    PEAK=$(awk '/VmHWM/ {print $2}' "/proc/$PID/status" 2>/dev/null || echo 0)
    grep -h "skan-mock: --resume\|skan-mock: resumed" "$DIR/err.txt" "$DIR/out.txt" | sed 's/^/    /' >&2 || true
    kill "$PID"
    wait "$PID" 2>/dev/null || true
    PID=""
    python3 - "$LINES" "$BYTES" "$STARTED" "$ENDED" "$PEAK" "${REFERENCE_PEAK:-$PEAK}" "$LABEL" <<'PY'
import sys
lines, size, started, ended, peak, ref = int(sys.argv[1]), int(sys.argv[2]), float(sys.argv[3]), float(sys.argv[4]), int(sys.argv[5]), int(sys.argv[6])
label = sys.argv[7]
seconds = ended - started
per_million = "%.1f" % (seconds * 1e6 / lines) if lines else "-"
ratio = "%.2f" % (peak / ref) if ref else "?"
print("| %s | %s | %.1f | %.2f | %s | %.1f | %s |" % (label, "{:,}".format(lines), size / 1048576, seconds, per_million, peak / 1024, ratio))
PY
    LAST_PEAK=$PEAK
}

TABLE="$DIR/table.md"
{
    echo "| binary | lines | MiB | seconds to resume | seconds per million lines | peak resident MiB | x reference |"
    echo "|---|---:|---:|---:|---:|---:|---:|"
} >"$TABLE"
for binary in "$BINARY" ${RESUME_BEFORE:-}; do
    NAME=$([ "$binary" = "$BINARY" ] && echo "this" || echo "${RESUME_BEFORE_LABEL:-before}")
    REFERENCE_PEAK=""
    resume 0 "$binary" "$NAME" >>"$TABLE"
    REFERENCE_PEAK=$LAST_PEAK
    for size in $SIZES; do resume "$size" "$binary" "$NAME" >>"$TABLE"; done
done
cat "$TABLE"
if [ -n "${RESUME_RESULTS:-}" ]; then
    COMMIT=$(git -C "$ROOT" rev-parse --short HEAD 2>/dev/null || echo unknown)
    python3 - "$RESUME_RESULTS" "$TABLE" "$COMMIT" "$SIZES" <<'PY'
import sys, datetime
path, table, commit, sizes = sys.argv[1], open(sys.argv[2]).read(), sys.argv[3], sys.argv[4]
text = open(path).read()
start, end = "<!-- resume:start -->", "<!-- resume:end -->"
when = datetime.datetime.now(datetime.timezone.utc).strftime("%Y-%m-%d %H:%M UTC")
section = (start + "\n## Resume (`Benchmarks/resume.sh`)\n\n"
           + "Measured %s at commit %s: a synthetic journal of 1,000 devices' SKAN 4 sessions (about 630 bytes a line), "
             "resumed with `--resume` into the default journal (10,000 entries). The reference row (0 lines) is the same "
             "binary started with `--resume` on an empty log, in the same run; \"x reference\" is peak memory against it.\n\n"
             % (when, commit) + table + "\n" + end)
if start in text and end in text:
    text = text[: text.index(start)] + section + text[text.index(end) + len(end):]
else:
    text = text.rstrip("\n") + "\n\n" + section + "\n"
open(path, "w").write(text)
PY
    echo "resume.sh: wrote the table into $RESUME_RESULTS" >&2
fi
