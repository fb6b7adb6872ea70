#!/usr/bin/env bash
# Tests/Release/make-archive.sh OUTDIR: runs Scripts/release.sh --output OUTDIR for this machine and
# prints the archive's path (its .sha256 is beside it). For the tests (Tests/Release/run.sh,
# Tests/Action/run.sh), not for releases.
#
# When docker/test.sh's copy of the sources (its scratch folder's stage-src/, .build-docker by default,
# SKAN_MOCK_SCRATCH) holds the same Package.swift, Sources/ and Tests/ as this checkout, release.sh
# builds there, in docker/test.sh's scratch folder: the same command on the same files, so the build
# is already done and CI compiles the release binary once (.ci/run runs docker/test.sh first).
# Otherwise release.sh builds this checkout in .build-release, which takes minutes.
set -euo pipefail
cd "$(dirname "$0")/../.."
[ $# -eq 1 ] || { echo "usage: Tests/Release/make-archive.sh OUTDIR" >&2; exit 2; }
output=$1

# What a Linux release build needs (release.sh refuses without them rather than build less): the
# Debian packages Tests/test.sh installs too.
if [ "$(uname -s)" = Linux ]; then
    missing=()
    [ -e /usr/include/openssl/ssl.h ] || missing+=(libssl-dev)
    [ -e /usr/include/qrencode.h ] || missing+=(libqrencode-dev)
    [ -e /usr/include/curl/curl.h ] || ls /usr/include/*/curl/curl.h >/dev/null 2>&1 || missing+=(libcurl4-openssl-dev)
    command -v pkg-config >/dev/null 2>&1 || missing+=(pkg-config)
    if [ "${#missing[@]}" -gt 0 ] && command -v apt-get >/dev/null 2>&1; then
        sudo=""
        [ "$(id -u)" -ne 0 ] && sudo="sudo"
        echo "make-archive.sh: installing ${missing[*]}" >&2
        $sudo apt-get update -qq >&2
        DEBIAN_FRONTEND=noninteractive $sudo apt-get install -y -qq "${missing[@]}" >/dev/null
    fi
fi

docker_scratch=${SKAN_MOCK_SCRATCH:-.build-docker}
stage="$docker_scratch/stage-src"
same=0
if [ -f "$stage/Package.swift" ] && cmp -s Package.swift "$stage/Package.swift" \
    && diff -rq -x .build -x '.build-*' -x '.build_*' -x .swiftpm -x .out Sources "$stage/Sources" >/dev/null 2>&1 \
    && diff -rq -x .build -x '.build-*' -x '.build_*' -x .swiftpm -x .out Tests "$stage/Tests" >/dev/null 2>&1; then
    same=1
fi
if [ "$same" = 1 ]; then
    echo "make-archive.sh: building in docker/test.sh's copy of these sources ($stage)" >&2
    SKAN_MOCK_RELEASE_SOURCE="$stage" SKAN_MOCK_RELEASE_SCRATCH="$docker_scratch" \
        bash Scripts/release.sh --output "$output" >&2
else
    echo "make-archive.sh: no current copy of these sources from docker/test.sh: a release build of its own (minutes)" >&2
    bash Scripts/release.sh --output "$output" >&2
fi
archives=$(find "$output" -maxdepth 1 -name 'skan-mock-*.tar.gz' | sort)
[ "$(printf '%s\n' "$archives" | grep -c .)" = 1 ] || { echo "make-archive.sh: expected one archive in $output: $archives" >&2; exit 1; }
printf '%s\n' "$archives"
