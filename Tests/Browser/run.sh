#!/usr/bin/env bash
# The QA console in a real browser: Debian's chromium and chromium-driver driven by Selenium
# (installed when missing), against a freshly built skan-mock. Prints "N passed, M failed" and
# saves screenshots under Tests/Browser/.out/.
set -euo pipefail
cd "$(dirname "$0")/../.."

sudo=""
[ "$(id -u)" -ne 0 ] && sudo="sudo"
if ! command -v chromedriver >/dev/null 2>&1 || ! command -v chromium >/dev/null 2>&1; then
    echo "browser tests: installing chromium and chromium-driver"
    $sudo apt-get update -qq
    DEBIAN_FRONTEND=noninteractive $sudo apt-get install -y -qq chromium chromium-driver >/dev/null
fi
if ! python3 -c 'import selenium' >/dev/null 2>&1; then
    echo "browser tests: installing selenium"
    python3 -m pip install -q selenium
fi

swift build --product skan-mock >/dev/null
exec python3 Tests/Browser/console_test.py .build/debug/skan-mock
