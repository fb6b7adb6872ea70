#!/usr/bin/env bash
# Benchmarks/instructions.sh: user-space instructions per request, counted by valgrind's callgrind
# (deterministic: the same binary gives the same count on a busy machine, where wrk's figures move
# by a fifth). One connection sends the p0 SKAN 4 query N times with the journal written to a file;
# the count of a run with one request is subtracted (start-up, model, first-use costs), so what is
# left is the steady cost of a request on every thread of the server. Prints the total and the
# functions that cost most per request (their own instructions, not their callees').
#
#   Benchmarks/instructions.sh                       # builds a release binary first
#   BENCH_BINARY=path INSTRUCTIONS_REQUESTS=2000 Benchmarks/instructions.sh
#   INSTRUCTIONS_PREFIX=/t/bench Benchmarks/instructions.sh   # the same query in a tenant (/t/NAME)
#   INSTRUCTIONS_WAITS=16 Benchmarks/instructions.sh  # the default query while 16 tenants each hold a
#                                                     # pending requests/wait (issue 46.2)
#
# It compares builds, not servers: nginx's count is not measured (the kernel's work, a third of a
# request's CPU, is outside callgrind's view for both). Only 127.0.0.1 is used.
set -euo pipefail
ROOT=$(cd "$(dirname "$0")/.." && pwd)
REQUESTS=${INSTRUCTIONS_REQUESTS:-1000}
WAITS=${INSTRUCTIONS_WAITS:-0}
TOP=${INSTRUCTIONS_TOP:-15}
command -v valgrind >/dev/null || {
    sudo=""; [ "$(id -u)" -ne 0 ] && sudo=sudo
    $sudo apt-get update -qq && $sudo env DEBIAN_FRONTEND=noninteractive apt-get install -y -qq valgrind >/dev/null
}
BIN=${BENCH_BINARY:-}
if [ -z "$BIN" ]; then
    (cd "$ROOT" && swift build -c release --static-swift-stdlib --scratch-path .build-bench --product skan-mock >&2)
    BIN="$ROOT/.build-bench/release/skan-mock"
fi
TMP=$(mktemp -d)
trap 'rm -rf "$TMP"' EXIT
# Valgrind 3.19 cannot read the DWARF 5 that Swift writes; the symbols are all it needs.
strip --strip-debug -o "$TMP/skan-mock" "$BIN"
QUERY=${INSTRUCTIONS_PREFIX:-}$(python3 "$ROOT/Benchmarks/tools.py" v2-p0-query)

count() {  # requests -> callgrind output file
    local n=$1 port
    port=$(python3 "$ROOT/Benchmarks/tools.py" port)
    valgrind --tool=callgrind --callgrind-out-file="$TMP/cg-$n.out" "$TMP/skan-mock" --host 127.0.0.1 \
        --port "$port" --log "$TMP/journal-$n.jsonl" >/dev/null 2>"$TMP/valgrind-$n.err" &
    local pid=$!
    python3 - "$port" "$n" "$QUERY" "$WAITS" <<'PY'
import socket, sys, time
port, n, query, waits = int(sys.argv[1]), int(sys.argv[2]), sys.argv[3], int(sys.argv[4])
for _ in range(600):  # valgrind starts the server slowly
    try:
        s = socket.create_connection(("127.0.0.1", port)); break
    except OSError:
        time.sleep(0.1)
else:
    sys.exit("the server did not start under valgrind")
# Waits for a device that never comes, one tenant each, filed before the requests and held open
# through them (in both runs, so their filing cancels out of the difference).
held = []
for i in range(waits):
    w = socket.create_connection(("127.0.0.1", port))
    w.sendall(f"GET /t/wait-{i}/__admin/requests/wait?device=never&timeout_ms=600000 HTTP/1.1\r\nHost: 127.0.0.1\r\n\r\n".encode())
    held.append(w)
if waits:
    # Filed when the tenants list them all (each wait's tenant is made by its request).
    for _ in range(600):
        probe = socket.create_connection(("127.0.0.1", port))
        probe.sendall(b"GET /__admin/tenants HTTP/1.1\r\nHost: 127.0.0.1\r\nConnection: close\r\n\r\n")
        answer = b""
        while chunk := probe.recv(65536): answer += chunk
        probe.close()
        if answer.count(b'"name":"wait-') >= waits: break
        time.sleep(0.1)
    time.sleep(0.5)
request = f"GET {query} HTTP/1.1\r\nHost: 127.0.0.1\r\nUser-Agent: instructions.sh\r\nAccept: */*\r\n\r\n".encode()
buffer = b""
for _ in range(n):
    s.sendall(request)
    while True:
        end = buffer.find(b"\r\n\r\n")
        if end >= 0:
            length = 0
            for line in buffer[:end].split(b"\r\n")[1:]:
                name, _, value = line.partition(b":")
                if name.strip().lower() == b"content-length": length = int(value)
            if len(buffer) >= end + 4 + length:
                if not buffer.startswith(b"HTTP/1.1 200"): sys.exit(f"unexpected answer: {buffer[:80]!r}")
                buffer = buffer[end + 4 + length:]
                break
        chunk = s.recv(65536)
        if not chunk: sys.exit("the server closed the connection")
        buffer += chunk
s.close()
PY
    kill -INT "$pid"
    wait "$pid" || true
}
count 1
count $((REQUESTS + 1))
python3 - "$TMP/cg-1.out" "$TMP/cg-$((REQUESTS + 1)).out" "$REQUESTS" "$TOP" "$WAITS" <<'PY'
import re, subprocess, sys
def load(path):
    text = subprocess.run(["callgrind_annotate", path], capture_output=True, text=True, check=True).stdout
    total, functions = 0, {}
    for line in text.splitlines():
        m = re.match(r"\s*([\d,]+) \([\s\d.]+%\)\s+(.*)", line)
        if not m: continue
        value = int(m.group(1).replace(",", ""))
        if "PROGRAM TOTALS" in m.group(2): total = value
        else: functions[m.group(2)] = value
    return total, functions
(t1, f1), (tn, fn) = load(sys.argv[1]), load(sys.argv[2])
n, top = int(sys.argv[3]), int(sys.argv[4])
extra = f", {sys.argv[5]} waits pending" if sys.argv[5] != "0" else ""
def name(raw):
    raw = re.sub(r"^\S*:", "", raw.split(" [")[0], count=1)
    if not raw.startswith("$s"):
        return raw[:110]
    try:
        out = subprocess.run(["swift", "demangle", "--simplified", "--compact", raw], capture_output=True, text=True, timeout=10).stdout.strip()
        return (out or raw)[:110]
    except Exception:
        return raw[:110]
print(f"instructions per request (user space, all threads, {n} requests on one connection{extra}): {(tn - t1) / n:,.0f}")
rows = sorted(((fn.get(k, 0) - f1.get(k, 0)) / n, k) for k in fn)[::-1][:top]
for value, key in rows:
    print(f"{value:>9,.0f}  {name(key)}")
PY
