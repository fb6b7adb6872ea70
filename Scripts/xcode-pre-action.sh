#!/usr/bin/env bash
# The Xcode scheme's Test pre-action (docs/testing-your-app.md): builds this checkout's skan-mock,
# stops the server this script started last time (and only that one: the process its --pid-file
# names, when its start time and command line are the ones this script recorded; never pkill, which
# would stop another project's skan-mock too), starts a new one and waits until it listens.
# When the port is taken by something else, it says so and exits 1 instead of leaving the tests to
# talk to another server.
#
#   Scripts/xcode-pre-action.sh            # port 8080, or SKAN_MOCK_PORT
# Environment: SKAN_MOCK_PORT (8080), SKAN_MOCK_ADMIN_TOKEN (none), SKAN_MOCK_PRE_ACTION_DIR (where the
# pid file, the log and the journal go; default $TMPDIR/skan-mock-UID-PORT), SKAN_MOCK_BINARY (use this
# binary instead of building one).
#
# Only POSIX tools a Mac has (no flock, no GNU-only flags, no stat, whose flags differ). Scripts/lib.sh
# must be beside it (a copy of this script takes a copy of lib.sh with it).
set -u
root=$(cd "$(dirname "$0")/.." && pwd)
port=${SKAN_MOCK_PORT:-8080}
say() { echo "skan-mock pre-action: $*" >&2; }
here=$(cd "$(dirname "$0")" && pwd)
if [ ! -f "$here/lib.sh" ]; then
    say "lib.sh is missing beside this script ($here): copy Scripts/lib.sh with it"
    exit 1
fi
# shellcheck source=Scripts/lib.sh
. "$here/lib.sh"

# The folder: this user's alone (theirs, not a link, writable by no one else), so that no other local
# user can plant links in it that would make this script truncate or append to a file of this user's,
# or a pid file that would make it signal a process of theirs choosing. Made with mode 0700.
dir=${SKAN_MOCK_PRE_ACTION_DIR:-${TMPDIR:-/tmp}/skan-mock-$(id -u)-$port}
while [ "${dir%/}" != "$dir" ] && [ "$dir" != / ]; do dir=${dir%/}; done
mkdir -p "$(dirname "$dir")" 2>/dev/null
mkdir -m 0700 "$dir" 2>/dev/null
if [ -L "$dir" ]; then
    say "$dir is a symbolic link: give a folder of your own (SKAN_MOCK_PRE_ACTION_DIR)"
    exit 1
elif [ ! -d "$dir" ]; then
    say "cannot make the folder $dir: give another one (SKAN_MOCK_PRE_ACTION_DIR)"
    exit 1
elif [ ! -O "$dir" ]; then
    say "$dir belongs to another user: give a folder of your own (SKAN_MOCK_PRE_ACTION_DIR)"
    exit 1
fi
# ls -ld's first field (drwxr-x---): the 6th and 9th characters are the group's and others' w.
case $(ls -ld "$dir") in
    d????-??-*) ;;
    *)
        say "other users can write in $dir: make it private (chmod 700 '$dir') or give another folder (SKAN_MOCK_PRE_ACTION_DIR)"
        exit 1
        ;;
esac
pidfile="$dir/skan-mock.pid"
log="$dir/skan-mock.log"
journal="$dir/journal.jsonl"
identity="$dir/skan-mock.identity"
lock="$dir/pre-action.lock"
for file in "$pidfile" "$log" "$journal" "$identity" "$lock"; do
    if [ -L "$file" ]; then
        say "$file is a symbolic link: this script follows none in its folder; remove it"
        exit 1
    fi
done

# A process as this script knows it: its id, start time and command line (ps -o lstart= and
# command= mean the same on macOS and Linux); empty lines when there is no such process.
identity_of() {
    printf '%s\n%s\n%s\n' "$1" "$(ps -o lstart= -p "$1" 2>/dev/null)" "$(ps -ww -o command= -p "$1" 2>/dev/null)"
}
# Whether $1 (an identity_of) is still that process, started at that time.
is_running() {
    [ "$(identity_of "$(printf '%s\n' "$1" | sed -n 1p)")" = "$1" ] && [ -n "$(printf '%s\n' "$1" | sed -n 2p)" ]
}

binary=${SKAN_MOCK_BINARY:-}
if [ -z "$binary" ]; then
    cd "$root" || exit 1
    if ! swift build -c release --product skan-mock >"$log" 2>&1; then
        say "the build failed; see $log"
        exit 1
    fi
    binary="$(swift build -c release --show-bin-path)/skan-mock"
fi

# One pre-action at a time per folder (two schemes' at once must leave one server): a lock folder
# (mkdir is atomic) naming its holder; a holder that is gone (a cancelled build) leaves it stale.
# A run stopped between its mkdir and writing the holder file leaves a folder naming no one: one
# that has had no holder file for 3 s (a holder writes it at once) is stale too. It is told apart
# from a new lock folder by its inode (ls -di, the same on a Mac), so a folder another run has
# made meanwhile is never taken.
me=$(identity_of $$)
locked=
unnamed=
unnamed_checks=0
for _ in $(seq 600); do
    if mkdir "$lock" 2>/dev/null; then
        printf '%s' "$me" >"$lock/holder"
        locked=1
        break
    fi
    holder=$(cat "$lock/holder" 2>/dev/null)
    if [ -n "$holder" ] && ! is_running "$holder"; then
        rm -rf "$lock"
        continue
    fi
    if [ -z "$holder" ] && [ ! -e "$lock/holder" ]; then
        inode=$(ls -di "$lock" 2>/dev/null | awk '{print $1}')
        if [ -n "$inode" ] && [ "$inode" = "$unnamed" ]; then
            unnamed_checks=$((unnamed_checks + 1))
        else
            unnamed=$inode
            unnamed_checks=0
        fi
        if [ "$unnamed_checks" -ge 30 ]; then
            say "$lock has named no holder for 3 s (a run stopped before it wrote one): taken over"
            rm -rf "$lock"
            unnamed=
            unnamed_checks=0
            continue
        fi
    else
        unnamed=
        unnamed_checks=0
    fi
    sleep 0.1
done
if [ -z "$locked" ]; then
    say "another pre-action has held $lock for 60 s; if none runs, remove that folder"
    exit 1
fi
trap 'rm -rf "$lock"' EXIT

# The server this script started last time: the pid file's process, when it is the one recorded
# when it started (a stale file's number may name another program by now).
if [ -f "$pidfile" ] && [ -f "$identity" ]; then
    old=$(tr -cd '0-9' <"$pidfile")
    recorded=$(cat "$identity")
    if [ -n "$old" ] && [ "$old" = "$(printf '%s\n' "$recorded" | sed -n 1p)" ]; then
        # shellcheck disable=SC2317  # called by skan_mock_stop
        still_ours() { is_running "$recorded"; }
        skan_mock_stop "$old" still_ours
        [ $? != 1 ] || say "the server of the last run (pid $old) did not stop within 10 s: killed"
    fi
fi
rm -f "$identity"

: >"$log"
# ${token[@]+...}: a Mac's bash 3.2 calls an empty array unbound under set -u.
token=()
[ -n "${SKAN_MOCK_ADMIN_TOKEN:-}" ] && token=(--admin-token "$SKAN_MOCK_ADMIN_TOKEN")
nohup "$binary" --port "$port" --pid-file "$pidfile" ${token[@]+"${token[@]}"} --log "$journal" \
    >>"$log" 2>&1 </dev/null &
started=$!
# Ready once its pid file names it; gone when it could not start (the port taken by something else).
for _ in $(seq 150); do
    if ! kill -0 "$started" 2>/dev/null; then
        say "the server did not start: $(grep '^skan-mock:' "$log" | tail -n 1)"
        exit 1
    fi
    if [ -f "$pidfile" ] && [ "$(tr -cd '0-9' <"$pidfile")" = "$started" ]; then
        identity_of "$started" >"$identity"
        say "serving on http://127.0.0.1:$port (pid $started; log $log; journal $journal)"
        exit 0
    fi
    sleep 0.1
done
kill -KILL "$started" 2>/dev/null
say "the server did not listen within 15 s (stopped); see $log"
exit 1
