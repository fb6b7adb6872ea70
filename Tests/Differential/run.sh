#!/usr/bin/env bash
# Differential test of HTTPRequestParser against h11 over Tests/Differential/corpus/.
# Installs h11 with pip when it is missing, builds the parse-corpus helper of Tests/Fuzz (plain release
# build in .build-fuzz-corpus/), runs h11_differential.py. Exits 1 when h11 rejects a file that we
# accept (outside KNOWN_EXCEPTIONS) or the two parsers frame the requests differently.
#   Tests/Differential/run.sh [--verbose]
# DIFF_CORPUS=DIR compares over another directory instead, e.g. the HTTP fuzzer's
# Tests/Fuzz/.out/http/corpus (2,500 inputs, no disagreement of the failing kinds at the time of writing).
set -euo pipefail
here=$(cd "$(dirname "$0")" && pwd)
root=$(cd "$here/../.." && pwd)

python3 -c 'import h11' 2>/dev/null || python3 -m pip install --quiet h11
swift build -c release --package-path "$root/Tests/Fuzz" --scratch-path "$root/.build-fuzz-corpus" \
    --product parse-corpus >&2
binary="$(swift build -c release --package-path "$root/Tests/Fuzz" --scratch-path "$root/.build-fuzz-corpus" \
    --show-bin-path)/parse-corpus"
python3 "$here/h11_differential.py" "$binary" "${DIFF_CORPUS:-$here/corpus}" "$@"
