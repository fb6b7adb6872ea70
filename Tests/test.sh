#!/usr/bin/env bash
# The one test command (README, CI): installs what the tests need when it is missing, then runs
# the whole suite. Extra arguments go to `swift test` (e.g. `--filter IntegrationTests`).
set -euo pipefail
cd "$(dirname "$0")/.."

have_curl_headers() {
    printf '#include <curl/curl.h>\n' | "${CC:-cc}" -E -x c - >/dev/null 2>&1 \
        || [ -e /usr/include/curl/curl.h ] || ls /usr/include/*/curl/curl.h >/dev/null 2>&1
}

if ! have_curl_headers; then
    if command -v apt-get >/dev/null 2>&1; then
        sudo=""
        [ "$(id -u)" -ne 0 ] && sudo="sudo"
        echo "test.sh: installing libcurl4-openssl-dev (the integration tests drive the server with libcurl)"
        $sudo apt-get update -qq
        DEBIAN_FRONTEND=noninteractive $sudo apt-get install -y -qq libcurl4-openssl-dev pkg-config >/dev/null
    else
        echo "test.sh: libcurl's development headers are missing; install them (e.g. libcurl-devel) and retry" >&2
        exit 1
    fi
fi

swift build --build-tests
swift test --skip-build "$@"
