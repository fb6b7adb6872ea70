#!/usr/bin/env bash
# The Xcode scheme's Test pre-action (docs/testing-your-app.md): builds this checkout's skan-mock,
# stops the server this script started last time (and only that one: its --pid-file, never pkill,
# which would stop another project's skan-mock too), starts a new one and waits until it listens.
# When the port is taken by something else, it says so and exits 1 instead of leaving the tests to
# talk to another server.
#
#   Scripts/xcode-pre-action.sh            # port 8080, or SKAN_MOCK_PORT
# Environment: SKAN_MOCK_PORT (8080), SKAN_MOCK_ADMIN_TOKEN (none), SKAN_MOCK_PRE_ACTION_DIR (where the
# pid file, the log and the journal go; default $TMPDIR/skan-mock-PORT), SKAN_MOCK_BINARY (use this
# binary instead of building one).
set -u
root=$(cd "$(dirname "$0")/.." && pwd)
port=${SKAN_MOCK_PORT:-8080}
dir=${SKAN_MOCK_PRE_ACTION_DIR:-${TMPDIR:-/tmp}/skan-mock-$port}
mkdir -p "$dir"
pidfile="$dir/skan-mock.pid"
log="$dir/skan-mock.log"
say() { echo "skan-mock pre-action: $*" >&2; }

binary=${SKAN_MOCK_BINARY:-}
if [ -z "$binary" ]; then
    cd "$root" || exit 1
    if ! swift build -c release --product skan-mock >"$log" 2>&1; then
        say "the build failed; see $log"
        exit 1
    fi
    binary="$(swift build -c release --show-bin-path)/skan-mock"
fi

# The server this script started last time, by its pid file.
if [ -f "$pidfile" ]; then
    old=$(tr -cd '0-9' <"$pidfile")
    if [ -n "$old" ] && kill "$old" 2>/dev/null; then
        for _ in $(seq 100); do kill -0 "$old" 2>/dev/null || break; sleep 0.1; done
    fi
fi

: >"$log"
token=()
[ -n "${SKAN_MOCK_ADMIN_TOKEN:-}" ] && token=(--admin-token "$SKAN_MOCK_ADMIN_TOKEN")
nohup "$binary" --port "$port" --pid-file "$pidfile" "${token[@]}" --log "$dir/journal.jsonl" \
    >>"$log" 2>&1 </dev/null &
started=$!
# Ready once its pid file names it; gone when it could not start (the port taken by something else).
for _ in $(seq 150); do
    if ! kill -0 "$started" 2>/dev/null; then
        say "the server did not start: $(grep '^skan-mock:' "$log" | tail -n 1)"
        exit 1
    fi
    if [ -f "$pidfile" ] && [ "$(tr -cd '0-9' <"$pidfile")" = "$started" ]; then
        say "serving on http://127.0.0.1:$port (pid $started; log $log; journal $dir/journal.jsonl)"
        exit 0
    fi
    sleep 0.1
done
say "the server did not listen within 15 s; see $log"
exit 1
