#!/usr/bin/env bash
# Builds and runs one libFuzzer target for a given time.
#
#   Tests/Fuzz/run.sh TARGET SECONDS        TARGET: http (HTTPRequestParser) or skan (SKAN parameters,
#                                           ConversionService endpoints, JSONParser, ConversionModel.parse)
#
# Builds Tests/Fuzz (a separate package; the root build never sees it) with
# -sanitize=fuzzer,address into .build-fuzz/, then runs the fuzzer with one job (-jobs=1) starting from
# the seed corpus Tests/Fuzz/Corpus/TARGET/ (read only). New inputs go to Tests/Fuzz/.out/TARGET/corpus/,
# crashes to Tests/Fuzz/.out/TARGET/crashes/, the log to Tests/Fuzz/.out/TARGET/fuzz.log (all gitignored).
# Exits 1 when the fuzzer found a crash (or failed), 0 otherwise.
#
# Reproduce a crash:   .build-fuzz/x86_64-unknown-linux-gnu/release/FuzzHTTPParser CRASH_FILE
# or without ASan:     swift run -c release --package-path Tests/Fuzz --scratch-path .build-fuzz-corpus \
#                        parse-corpus --replay http CRASH_FILE
# Extra libFuzzer flags can be passed in FUZZ_FLAGS (e.g. FUZZ_FLAGS="-max_len=16384").
set -euo pipefail

target=${1:?usage: run.sh http|skan SECONDS}
seconds=${2:?usage: run.sh http|skan SECONDS}
case "$target" in
    http) product=FuzzHTTPParser; max_len=4096 ;;
    skan) product=FuzzSKANParameters; max_len=8192 ;;
    *) echo "unknown target '$target' (http or skan)" >&2; exit 2 ;;
esac

here=$(cd "$(dirname "$0")" && pwd)
root=$(cd "$here/../.." && pwd)
scratch="$root/.build-fuzz"
out="$here/.out/$target"
mkdir -p "$out/corpus" "$out/crashes"

swift build -c release --package-path "$here" --scratch-path "$scratch" \
    -Xswiftc -sanitize=fuzzer,address -Xswiftc -parse-as-library --product "$product" >&2
binary="$(swift build -c release --package-path "$here" --scratch-path "$scratch" \
    -Xswiftc -sanitize=fuzzer,address -Xswiftc -parse-as-library --show-bin-path)/$product"

# The Swift backtracer would turn each crash into a long interactive-style report; libFuzzer and ASan
# report enough. Deterministic hashing keeps Dictionary/Set order the same from run to run.
export SWIFT_BACKTRACE=enable=no SWIFT_DETERMINISTIC_HASHING=1
export ASAN_OPTIONS=${ASAN_OPTIONS:-detect_leaks=0:abort_on_error=0}

before=$(find "$out/crashes" -type f | wc -l)
status=0
# -jobs=1 runs the fuzzer in one child process whose output libFuzzer writes to fuzz-0.log in the
# working directory; run from $out so it lands there.
(cd "$out" && rm -f fuzz-0.log && "$binary" -jobs=1 -max_total_time="$seconds" -max_len="$max_len" \
    -timeout=10 -rss_limit_mb=2048 -print_final_stats=1 \
    -dict="$here/Dictionaries/$target.dict" -artifact_prefix="$out/crashes/" \
    ${FUZZ_FLAGS:-} "$out/corpus" "$here/Corpus/$target") || status=$?
[ -f "$out/fuzz-0.log" ] && mv "$out/fuzz-0.log" "$out/fuzz.log"
[ -f "$out/fuzz.log" ] && grep -E '^(#[0-9]+ +DONE|stat::|SUMMARY|==[0-9]+== ERROR|Fatal error|.*Fatal error)' "$out/fuzz.log" | awk '!seen[$0]++' | tail -20
after=$(find "$out/crashes" -type f | wc -l)
if [ "$after" -gt "$before" ] || [ "$status" -ne 0 ]; then
    echo "fuzzer $target: FAILED (exit $status, $((after - before)) new crash file(s) in $out/crashes)" >&2
    exit 1
fi
echo "fuzzer $target: no crash in ${seconds}s; corpus $(find "$out/corpus" -type f | wc -l) files"
