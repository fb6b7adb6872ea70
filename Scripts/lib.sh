# shellcheck shell=bash
# Scripts/lib.sh: what the release, Action, formula and Xcode pre-action scripts share, written once:
# a file's SHA-256, skan-mock's version (the top-level VERSION file, which Sources/SKANMock/Version.swift
# must match: VersionFileTests checks it), and stopping the server a script started, and only it.
#
# Sourced, never run: `. "$root/Scripts/lib.sh"`. Defines functions only, changes no shell option, and
# keeps to a Mac's bash 3.2 and the tools a Mac and a Linux runner both have (sha256sum or shasum).

# skan_mock_sha256 FILE: the file's SHA-256, in lower-case hex.
skan_mock_sha256() {
    if command -v sha256sum >/dev/null 2>&1; then
        sha256sum "$1" | cut -d ' ' -f 1
    else
        shasum -a 256 "$1" | cut -d ' ' -f 1
    fi
}

# skan_mock_version ROOT: the version in ROOT/VERSION (its one line: letters, digits, '.', '_', '-');
# prints nothing and returns 1 when the file is missing or holds anything else.
skan_mock_version() {
    local line=""
    [ -f "$1/VERSION" ] || return 1
    IFS= read -r line <"$1/VERSION" || [ -n "$line" ] || return 1
    case $line in '' | *[!A-Za-z0-9._-]*) return 1 ;; esac
    printf '%s\n' "$line"
}

# skan_mock_stop_child PID: stops a server this shell started and is still its child: SIGTERM, then
# wait, which reaps it (a child that ended stays a zombie that kill -0 still finds until then);
# returns its exit status, 0 when it stopped as it should.
skan_mock_stop_child() {
    kill -TERM "$1" 2>/dev/null || true
    wait "$1"
}

# skan_mock_stop PID STILL_OURS [SECONDS]: stops a server this script started on an earlier run or
# step, which is no child of this shell. STILL_OURS is a command that
# succeeds while PID is still that server (the same process as recorded when it started, not another
# that has its number by now); nothing is signalled unless it does. SIGTERM, up to SECONDS (10) for it
# to end, then SIGKILL and as long again. Returns 0 when it ended on SIGTERM, 1 when it had to be
# killed, 2 when PID was not ours to stop.
skan_mock_stop() {
    local pid=$1 still_ours=$2 seconds=${3:-10} tenths=0
    "$still_ours" || return 2
    kill -TERM "$pid" 2>/dev/null || true
    while "$still_ours" && [ "$tenths" -lt $((seconds * 10)) ]; do
        sleep 0.1
        tenths=$((tenths + 1))
    done
    "$still_ours" || return 0
    kill -KILL "$pid" 2>/dev/null || true
    tenths=0
    while "$still_ours" && [ "$tenths" -lt $((seconds * 10)) ]; do
        sleep 0.1
        tenths=$((tenths + 1))
    done
    return 1
}
