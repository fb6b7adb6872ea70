#!/usr/bin/env bash
# The one test command (README, CI): installs what the tests need when it is missing, then runs
# the whole suite. Extra arguments go to `swift test` (e.g. `--filter IntegrationTests`).
set -euo pipefail
cd "$(dirname "$0")/.."

have_header() {
    printf '#include <%s>\n' "$1" | "${CC:-cc}" -E -x c - >/dev/null 2>&1 \
        || [ -e "/usr/include/$1" ] || ls /usr/include/*/"$1" >/dev/null 2>&1
}

# What the tests need and the Debian package that has it: libcurl drives the integration tests.
# With TLS (Linux, unless SKAN_MOCK_TLS=0; a Mac with SKAN_MOCK_TLS=1, see Package.swift), OpenSSL 3
# and libqrencode are linked by SKANTLS and SKANPhoneSetup, and openssl and zbarimg judge the
# certificates and QR codes they make.
missing=()
have_header curl/curl.h || missing+=(libcurl4-openssl-dev)
command -v pkg-config >/dev/null 2>&1 || missing+=(pkg-config)
if { [ "$(uname -s)" = Linux ] && [ "${SKAN_MOCK_TLS:-}" != 0 ]; } || [ "${SKAN_MOCK_TLS:-}" = 1 ]; then
    have_header openssl/ssl.h || missing+=(libssl-dev)
    have_header qrencode.h || missing+=(libqrencode-dev)
    command -v openssl >/dev/null 2>&1 || missing+=(openssl)
    command -v zbarimg >/dev/null 2>&1 || missing+=(zbar-tools)
fi

if [ "${#missing[@]}" -gt 0 ]; then
    if command -v apt-get >/dev/null 2>&1; then
        sudo=""
        [ "$(id -u)" -ne 0 ] && sudo="sudo"
        echo "test.sh: installing ${missing[*]}"
        $sudo apt-get update -qq
        DEBIAN_FRONTEND=noninteractive $sudo apt-get install -y -qq "${missing[@]}" >/dev/null
    else
        echo "test.sh: missing ${missing[*]} (Debian names); install them (e.g. libcurl-devel openssl-devel qrencode-devel zbar) and retry" >&2
        exit 1
    fi
fi

swift build --build-tests
swift test --skip-build "$@"
