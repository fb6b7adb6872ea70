#!/usr/bin/env bash
# Lints the QA console's JavaScript with Node (Debian's nodejs, installed when missing): see lint.mjs.
set -euo pipefail
cd "$(dirname "$0")/../.."
if ! command -v node >/dev/null 2>&1; then
    sudo=""
    [ "$(id -u)" -ne 0 ] && sudo="sudo"
    echo "console lint: installing nodejs"
    $sudo apt-get update -qq
    DEBIAN_FRONTEND=noninteractive $sudo apt-get install -y -qq nodejs >/dev/null
fi
exec node --experimental-vm-modules --no-warnings Tests/Console/lint.mjs Sources/SKANMock/Console/assets
