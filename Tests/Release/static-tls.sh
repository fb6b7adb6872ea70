#!/usr/bin/env bash
# Tests/Release/static-tls.sh: Package.swift's SKAN_MOCK_TLS=static, the way the macOS release archive
# links OpenSSL 3 and libqrencode, built and run here on Linux. No Mac runs here; this checks the part
# that is not Apple's: with SKAN_MOCK_TLS=static the package builds TLS without pkg-config, from module
# maps that name no library (Sources/COpenSSL/static, Sources/CQRencode/static), so the only OpenSSL in
# the binary is the static one the build names (-Xlinker .../libssl.a, as Scripts/release.sh does), and
# the binary serves HTTPS:
#
#   1. a debug build of the skan-mock product (scratch .build-static-tls) with Debian's libssl.a and
#      libcrypto.a (libssl-dev ships them) named by path; Debian ships no libqrencode.a, so libqrencode
#      is named as -lqrencode here (the macOS branch names libqrencode.a the same way as OpenSSL's);
#   2. the binary needs no libssl or libcrypto (readelf -d: no NEEDED entry), and holds OpenSSL's code;
#   3. `skan-mock --port 0 --https-port 0` prints its https:// listening line, answers
#      /__admin/health over HTTPS, and exits 0 on SIGTERM.
#
# Prints "Tests/Release/static-tls.sh: passed ..." or fails with "FAIL". The first build takes minutes.
set -euo pipefail
cd "$(dirname "$0")/../.."
say() { printf 'Tests/Release/static-tls.sh: %s\n' "$*"; }
fail() {
    printf 'Tests/Release/static-tls.sh: FAIL: %s\n' "$*" >&2
    exit 1
}

[ "$(uname -s)" = Linux ] || fail "runs on Linux only (readelf; on a Mac, Scripts/release.sh checks with otool)"
multiarch=$(gcc -print-multiarch 2>/dev/null || echo "$(uname -m)-linux-gnu")
libdir="/usr/lib/$multiarch"
for lib in libssl.a libcrypto.a; do
    [ -f "$libdir/$lib" ] || fail "no $libdir/$lib: apt-get install libssl-dev"
done
[ -e /usr/include/qrencode.h ] || fail "no qrencode.h: apt-get install libqrencode-dev"

scratch=${SKAN_MOCK_STATIC_TLS_SCRATCH:-.build-static-tls}
mkdir -p "$scratch"
t0=$(date +%s)
SKAN_MOCK_TLS=static swift build --product skan-mock --scratch-path "$scratch" \
    --manifest-cache none --disable-build-manifest-caching \
    -Xlinker "$libdir/libssl.a" -Xlinker "$libdir/libcrypto.a" -Xlinker -lqrencode >"$scratch/static-tls.log" 2>&1 \
    || { tail -30 "$scratch/static-tls.log" >&2; fail "SKAN_MOCK_TLS=static swift build failed (log: $scratch/static-tls.log)"; }
binary="$(SKAN_MOCK_TLS=static swift build --product skan-mock --scratch-path "$scratch" --show-bin-path)/skan-mock"
[ -x "$binary" ] || fail "no binary at $binary"
say "1. built with SKAN_MOCK_TLS=static and OpenSSL's static libraries in $(($(date +%s) - t0)) s"

needed=$(readelf -d "$binary" | sed -n 's/.*(NEEDED).*\[\(.*\)\]/\1/p')
if grep -E '^lib(ssl|crypto)\.' <<<"$needed"; then
    fail "the binary still needs a shared OpenSSL: $(tr '\n' ' ' <<<"$needed")"
fi
symbols=$(nm "$binary" 2>/dev/null || true)
grep -q ' T SSL_CTX_new$' <<<"$symbols" || fail "OpenSSL's SSL_CTX_new is not in the binary"
say "2. no NEEDED libssl or libcrypto; SSL_CTX_new is in the binary (needs: $(tr '\n' ' ' <<<"$needed" | grep -oE 'lib(qrencode|curl)[^ ]*' | tr '\n' ' '))"

state=$(mktemp -d "${TMPDIR:-/tmp}/skan-mock-static-tls.XXXXXX")
pid=""
cleanup() {
    if [ -n "$pid" ]; then kill "$pid" 2>/dev/null || true; fi
    rm -rf "$state"
}
trap cleanup EXIT
"$binary" --port 0 --https-port 0 --state-dir "$state/ca" >"$state/out" 2>&1 &
pid=$!
for _ in $(seq 1 300); do
    grep -q '^skan-mock listening on https://' "$state/out" && break
    kill -0 "$pid" 2>/dev/null || fail "the server stopped before it listened: $(cat "$state/out")"
    sleep 0.1
done
url=$(sed -n 's/^skan-mock listening on \(https:[^ ]*\).*/\1/p' "$state/out")
[ -n "$url" ] || fail "no https:// listening line within 30 s: $(cat "$state/out")"
answer=$(curl -sS --max-time 10 --cacert "$state/ca/ca.pem" "$url/__admin/health") || fail "curl $url/__admin/health failed"
grep -q '"status":"ok"' <<<"$answer" || fail "health over HTTPS answered: $answer"
kill -TERM "$pid"
code=0
wait "$pid" || code=$?
pid=""
[ "$code" = 0 ] || fail "the server exited $code on SIGTERM"
say "3. $url answers /__admin/health (its CA trusted), and the server exits 0 on SIGTERM"
say "passed (Linux's linker; Apple's, Homebrew's bottles and the universal build are for a Mac to show)"
