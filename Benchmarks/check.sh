#!/usr/bin/env bash
# How long `skan-mock check CAPTURE.har` takes on a large capture, and how much memory it needs
# (issue 49: a capture of 100,000 entries, read as a stream). Writes a synthetic HAR 1.2 file of
# CHECK_ENTRIES entries as a proxy writes them (four in five SKAN 4 calls of 1,000 devices on
# Singular's host, a second apart, their answers; one in five other traffic), then runs, on the same
# file, in the same run: `skan-mock check FILE --json` and the reference, Python's `json.load` of the
# whole file (what any tool that reads a HAR at all must at least do). Time and peak resident memory
# from /usr/bin/time -v; the result is quoted as ratios to the reference, which the shared machine's
# load moves alike. Prints a Markdown table; stops nothing it did not start.
#
#   Benchmarks/check.sh                          # 100,000 entries, the release build
#   CHECK_ENTRIES=2000 Benchmarks/check.sh       # a small file, for trying the script
#
# Environment: CHECK_ENTRIES (default 100000), CHECK_BINARY (default .build/release/skan-mock, else
# .build/debug/skan-mock), CHECK_DIR (where the capture is written, default a temporary folder, removed).
set -euo pipefail

ROOT=$(cd "$(dirname "$0")/.." && pwd)
ENTRIES=${CHECK_ENTRIES:-100000}
BINARY=${CHECK_BINARY:-}
if [ -z "$BINARY" ]; then
    for candidate in "$ROOT/.build/release/skan-mock" "$ROOT/.build/debug/skan-mock"; do
        if [ -x "$candidate" ]; then BINARY=$candidate; break; fi
    done
fi
[ -n "$BINARY" ] && [ -x "$BINARY" ] || { echo "check.sh: build skan-mock first (swift build -c release)" >&2; exit 2; }
[ -x /usr/bin/time ] || { echo "check.sh: needs GNU time (apt-get install time)" >&2; exit 2; }
DIR=${CHECK_DIR:-$(mktemp -d)}
cleanup() { [ -z "${CHECK_DIR:-}" ] && rm -rf "$DIR"; return 0; }
trap cleanup EXIT
CAPTURE="$DIR/check-bench.har"

python3 - "$CAPTURE" "$ENTRIES" <<'PY'
import datetime, json, sys, urllib.parse
path, count = sys.argv[1], int(sys.argv[2])
start = datetime.datetime(2026, 9, 15, 12, 0, 0, tzinfo=datetime.timezone.utc)
first_call = int(start.timestamp()) - 60
headers = [{"name": "Host", "value": "sdk-api-v1.singular.net"}, {"name": "User-Agent", "value": "MyApp/1 CFNetwork/1490 Darwin/23.2.0"},
           {"name": "Accept", "value": "*/*"}, {"name": "Accept-Language", "value": "en-GB,en;q=0.9"}]
with open(path, "w") as out:
    out.write('{"log":{"version":"1.2","creator":{"name":"check.sh","version":"1"},"pages":[],"entries":[\n')
    for n in range(count):
        time = (start + datetime.timedelta(seconds=n)).strftime("%Y-%m-%dT%H:%M:%S.000Z")
        if n % 5 == 4:
            url = "https://cdn.example.com/assets/image-%d.png?v=3" % n
            body = {"size": 2048, "mimeType": "image/png", "text": "iVBORw0KGgoAAAANSUhEUgAAAAEAAAABCAYAAAAfFcSJAAAADUlEQVR42mNkYPhfDwAChwGA60e6kgAAAABJRU5ErkJggg==", "encoding": "base64"}
            status = 200
        else:
            params = [("a", "KEY"), ("v", "17.4"), ("i", "com.example.app"), ("p", "iOS"), ("idfv", "BENCH-%d" % (n % 1000)),
                      ("n", "__SESSION__" if n % 3 else "purchase"), ("skan_current_conversion_value", "0"),
                      ("prev_fine_value", "0"), ("skan_first_call_to_skadnetwork_timestamp", str(first_call)),
                      ("skan_total_revenue_by_currency", '{"USD":4.99}')]
            url = "https://sdk-api-v1.singular.net/api/v2/conversion_value?" + urllib.parse.urlencode(params)
            answer = '{"status":"ok","conversion_value":1,"skan_updated_coarse_value":0,"skan_updated_lock_window_value":false}'
            body = {"size": len(answer), "mimeType": "application/json", "text": answer}
            status = 200
        query = [{"name": k, "value": v} for k, v in urllib.parse.parse_qsl(urllib.parse.urlsplit(url).query)]
        entry = {"startedDateTime": time, "time": 84.2,
                 "request": {"method": "GET", "url": url, "httpVersion": "HTTP/2", "cookies": [], "headers": headers,
                             "queryString": query, "headersSize": -1, "bodySize": 0},
                 "response": {"status": status, "statusText": "", "httpVersion": "HTTP/2", "cookies": [],
                              "headers": [{"name": "Content-Type", "value": body["mimeType"]}], "content": body,
                              "redirectURL": "", "headersSize": -1, "bodySize": body["size"]},
                 "cache": {}, "timings": {"blocked": 0.2, "dns": -1, "connect": -1, "ssl": -1, "send": 0.1, "wait": 83.5, "receive": 0.4}}
        out.write(("," if n else "") + json.dumps(entry, separators=(",", ":")) + "\n")
    out.write("]}}\n")
PY
BYTES=$(stat -c %s "$CAPTURE")

# measure LABEL COMMAND...: one run under /usr/bin/time -v; prints "seconds KiB".
measure() {
    shift
    /usr/bin/time -v "$@" >"$DIR/out.txt" 2>"$DIR/time.txt" || { cat "$DIR/time.txt" >&2; exit 1; }
    python3 - "$DIR/time.txt" <<'PY'
import re, sys
text = open(sys.argv[1]).read()
clock = re.search(r"Elapsed \(wall clock\) time \(h:mm:ss or m:ss\): (\S+)", text).group(1).split(":")
seconds = sum(float(part) * 60 ** i for i, part in enumerate(reversed(clock)))
kib = int(re.search(r"Maximum resident set size \(kbytes\): (\d+)", text).group(1))
print(seconds, kib)
PY
}

read -r REF_S REF_KIB < <(measure reference python3 -c 'import json, sys; json.load(open(sys.argv[1]))' "$CAPTURE")
read -r CHECK_S CHECK_KIB < <(measure check "$BINARY" check "$CAPTURE" --json)
SINGULAR=$(python3 -c 'import json, sys; print(json.load(open(sys.argv[1]))["singular"])' "$DIR/out.txt")

python3 - "$ENTRIES" "$BYTES" "$SINGULAR" "$REF_S" "$REF_KIB" "$CHECK_S" "$CHECK_KIB" "$BINARY" <<'PY'
import sys
entries, size, singular = int(sys.argv[1]), int(sys.argv[2]), int(sys.argv[3])
ref_s, ref_kib, check_s, check_kib = float(sys.argv[4]), int(sys.argv[5]), float(sys.argv[6]), int(sys.argv[7])
print("capture: %s entries (%s to Singular), %.1f MiB; binary %s" % (format(entries, ","), format(singular, ","), size / 2**20, sys.argv[8]))
print()
print("| run | seconds | peak resident MiB | x reference time | x reference memory |")
print("|---|---:|---:|---:|---:|")
print("| reference: python3 json.load of the file | %.2f | %.1f | 1.00 | 1.00 |" % (ref_s, ref_kib / 1024))
print("| skan-mock check FILE --json | %.2f | %.1f | %.2f | %.2f |" % (check_s, check_kib / 1024, check_s / ref_s, check_kib / ref_kib))
PY
