#!/usr/bin/env bash
# The journal out as HAR against the HAR 1.2 schema, and read back by `skan-mock check` with the live
# findings (har_schema_test.py). Installs Debian's python3-jsonschema when missing; builds skan-mock.
set -euo pipefail
cd "$(dirname "$0")/../.."
if ! python3 -c 'import jsonschema' >/dev/null 2>&1; then
    sudo=""
    [ "$(id -u)" -ne 0 ] && sudo="sudo"
    echo "har-schema: installing python3-jsonschema"
    $sudo apt-get update -qq
    DEBIAN_FRONTEND=noninteractive $sudo apt-get install -y -qq python3-jsonschema >/dev/null
fi
swift build --product skan-mock >/dev/null
exec python3 Tests/HARSchema/har_schema_test.py "$(swift build --show-bin-path)/skan-mock"
