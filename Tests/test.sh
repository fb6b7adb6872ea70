#!/usr/bin/env bash
# The one test command (README, CI): installs what the tests need when it is missing, then runs
# the whole suite. Extra arguments go to `swift test` (e.g. `--filter IntegrationTests`).
#
# Linux: libcurl's headers drive the integration tests; with TLS (unless SKAN_MOCK_TLS=0, see
# Package.swift) OpenSSL 3 and libqrencode are linked by SKANTLS and SKANPhoneSetup, and openssl
# and zbarimg judge the certificates and QR codes they make (openssl and jq also run
# docs/postbacks.md's signature checks as written). Missing Debian packages are installed
# with apt-get.
# macOS: Xcode (16.0 or later) is all the plain build needs (its SDK has curl). With
# SKAN_MOCK_TLS=1 the same libraries come from Homebrew (openssl@3, qrencode, zbar, found with
# pkg-config); Homebrew's OpenSSL 3 goes first on PATH, since the `openssl` a Mac ships is
# LibreSSL. Nothing is installed on a Mac: the missing `brew install` line is printed instead.
set -euo pipefail
cd "$(dirname "$0")/.."

os=$(uname -s)
tls=0
if { [ "$os" = Linux ] && [ "${SKAN_MOCK_TLS:-}" != 0 ]; } || [ "${SKAN_MOCK_TLS:-}" = 1 ]; then
    tls=1
fi

have_header() {
    printf '#include <%s>\n' "$1" | "${CC:-cc}" -E -x c - >/dev/null 2>&1 \
        || [ -e "/usr/include/$1" ] || ls /usr/include/*/"$1" >/dev/null 2>&1
}

if [ "$os" = Darwin ]; then
    have_header curl/curl.h || {
        echo "test.sh: curl's header is missing from the SDK: install Xcode 16.0 or later, or run xcode-select --install" >&2
        exit 1
    }
    if [ "$tls" = 1 ]; then
        command -v brew >/dev/null 2>&1 || { echo "test.sh: SKAN_MOCK_TLS=1 on a Mac needs Homebrew (https://brew.sh)" >&2; exit 1; }
        missing=()
        command -v pkg-config >/dev/null 2>&1 || missing+=(pkg-config)
        command -v jq >/dev/null 2>&1 || missing+=(jq)
        for formula in openssl@3 qrencode zbar; do
            brew --prefix --installed "$formula" >/dev/null 2>&1 || missing+=("$formula")
        done
        if [ "${#missing[@]}" -gt 0 ]; then
            echo "test.sh: missing for SKAN_MOCK_TLS=1: brew install ${missing[*]}" >&2
            exit 1
        fi
        # openssl@3 is keg-only: its pkg-config file and its openssl command are not linked into
        # Homebrew's prefix, so both are pointed at here.
        openssl_prefix=$(brew --prefix openssl@3)
        export PKG_CONFIG_PATH="$openssl_prefix/lib/pkgconfig:$(brew --prefix qrencode)/lib/pkgconfig${PKG_CONFIG_PATH:+:$PKG_CONFIG_PATH}"
        export PATH="$openssl_prefix/bin:$PATH"
    fi
else
    missing=()
    have_header curl/curl.h || missing+=(libcurl4-openssl-dev)
    command -v pkg-config >/dev/null 2>&1 || missing+=(pkg-config)
    if [ "$tls" = 1 ]; then
        have_header openssl/ssl.h || missing+=(libssl-dev)
        have_header qrencode.h || missing+=(libqrencode-dev)
        command -v openssl >/dev/null 2>&1 || missing+=(openssl)
        command -v zbarimg >/dev/null 2>&1 || missing+=(zbar-tools)
        command -v jq >/dev/null 2>&1 || missing+=(jq)
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
fi

# SwiftPM keeps the build plan it made from Package.swift until Package.swift or the environment
# changes, even when the headers that Package.swift looks for have been installed since (a first
# `swift run` before the headers gives a plain-HTTP plan that outlives them). Reading the manifest
# anew here costs about a second and makes the plan match what is installed now.
swift build --build-tests --manifest-cache none --disable-build-manifest-caching

# Never compile the HTTPS tests out without saying so: on Linux the plan must now have TLS.
plan=.build/debug.yaml
if [ "$tls" = 1 ]; then
    if ! grep -q -- '-DSKAN_MOCK_TLS' "$plan" 2>/dev/null; then
        echo "test.sh: HTTPS was expected (OpenSSL and libqrencode are installed) but the build plan ($plan) has no -DSKAN_MOCK_TLS; remove .build and retry" >&2
        exit 1
    fi
    echo "test.sh: HTTPS (OpenSSL, libqrencode) is compiled in: the HTTPS tests run"
else
    echo "test.sh: plain HTTP build (SKAN_MOCK_TLS=${SKAN_MOCK_TLS:-unset}): the HTTPS tests are compiled out"
fi
# A test that waits forever (a server that never stops, a pipe never closed) must fail the run, not
# hold CI until its own limit: the whole suite takes a minute or two, so past 20 minutes it is stopped
# and the last test started is the one to look at. (`timeout` is coreutils'; a Mac without it runs
# the suite unbounded.)
limit=${SKAN_MOCK_TEST_MINUTES:-20}
if command -v timeout >/dev/null 2>&1; then
    status=0
    timeout --kill-after=30 "$((limit * 60))" swift test --skip-build "$@" || status=$?
    if [ "$status" = 124 ] || [ "$status" = 137 ]; then
        echo "test.sh: the suite ran past $limit minutes and was stopped: a test hangs (the last one started above without an end)" >&2
    fi
    exit "$status"
fi
swift test --skip-build "$@"
