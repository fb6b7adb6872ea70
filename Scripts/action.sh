#!/usr/bin/env bash
# Scripts/action.sh: what the GitHub Action in action.yml runs (uses: OWNER/skan-mock@VERSION). Three
# modes, one per step of action.yml:
#
#   action.sh fetch   finds skan-mock for this runner: the release archive of the version asked for,
#                     downloaded and checked against its .sha256, unpacked under $RUNNER_TEMP; or, when
#                     there is no archive for this runner (or version is `source`), says to build this
#                     action's own checkout from source (outputs build=true and a cache key for
#                     actions/cache). A checksum that does not match is never built around: it fails.
#   action.sh start   builds from source when fetch said so, starts the server in the background
#                     (journal to a file, pid file), waits for it with a limit, and sets SKAN_MOCK_URL,
#                     SKAN_MOCK_PORT and SKAN_MOCK_JOURNAL_FILE for the job's later steps; puts skan-mock
#                     on their PATH. A server that exits (a port in use, a bad model) or does not answer
#                     in time fails the step with its own words, and is not left running.
#   action.sh stop    stops the server that start started, and only it: the process whose PID start
#                     recorded, when its command line is still the one start ran (SIGTERM, SIGKILL after
#                     10 s); prints the journal's report and outputs the journal for the upload step.
#                     Without a server started by this action it says so and exits 0.
#
# Composite actions have no post step, so `stop` is the same action called again, with `if: always()`
# (docs/testing-your-app.md#a-ci-job).
#
# Inputs (environment, set by action.yml from the action's inputs): SKAN_MOCK_ACTION_VERSION (a tag
# such as v1.2.0 or 1.2.0, or `source`; empty: the ref the action was used at when it is a version,
# else source), SKAN_MOCK_ACTION_PORT (0: a free port), SKAN_MOCK_ACTION_MODEL, SKAN_MOCK_ACTION_ARGS
# (more serve arguments, quoted as in a shell), SKAN_MOCK_ACTION_WAIT (seconds, default 60),
# SKAN_MOCK_ACTION_ARTIFACT (the journal artifact's name), SKAN_MOCK_ACTION_REF and
# SKAN_MOCK_ACTION_REPOSITORY (github.action_ref and github.action_repository, which composite actions
# do not always get: GITHUB_ACTION_PATH, .../_actions/OWNER/NAME/REF, is read when they are empty),
# SKAN_MOCK_ACTION_BINARY and SKAN_MOCK_ACTION_BUILD (fetch's outputs, for start).
# From the runner: RUNNER_OS, RUNNER_ARCH, RUNNER_TEMP, GITHUB_ENV, GITHUB_OUTPUT, GITHUB_PATH,
# GITHUB_ACTION_PATH, GITHUB_REPOSITORY, GITHUB_JOB.
# For tests and mirrors: SKAN_MOCK_RELEASE_URL (where releases are, default
# https://github.com/REPOSITORY/releases/download; file:// works too), SKAN_MOCK_ACTION_SWIFT (the swift
# command, default swift).
#
# Runs on a Linux runner's bash and a Mac's bash 3.2: no mapfile, no empty arrays under set -u, only
# tools both have (curl, tar, ps, sha256sum or shasum).
set -euo pipefail

mode=${1:-}
action_root=$(cd "$(dirname "$0")/.." && pwd)
# shellcheck source=Scripts/lib.sh
. "$action_root/Scripts/lib.sh"
state=${RUNNER_TEMP:-${TMPDIR:-/tmp}}/skan-mock-action

# The runner reads a line of the step's output that starts with :: as a workflow command, so a
# caller's text is never printed at the start of a line: say and fail print one line each (a line
# break in their text becomes a space, or %0A in ::error's), and text from elsewhere (the server's
# log, the journal's report) goes through untrusted.
one_line() { printf '%s' "$*" | tr '\r\n' '  '; }
say() { printf 'skan-mock action: %s\n' "$(one_line "$*")"; }
fail() {
    local message
    # ::error:: puts the line on the run's summary page as well as in the log; its message escapes
    # %, CR and LF as GitHub's own toolkit does.
    message=$*
    message=${message//"%"/%25}
    message=${message//$'\r'/%0D}
    message=${message//$'\n'/%0A}
    printf '::error title=skan-mock::%s\n' "$message"
    printf 'skan-mock action: %s\n' "$(one_line "$*")" >&2
    exit 1
}
untrusted() { # prints standard input with workflow commands off (::stop-commands::), prefixed
    local token
    token=$(od -An -N8 -tx1 /dev/urandom | tr -d ' \n')
    printf '::stop-commands::%s\n' "$token"
    sed "s/^/$1/"
    printf '::%s::\n' "$token"
}
has_line_break() { case $1 in *$'\n'* | *$'\r'*) return 0 ;; *) return 1 ;; esac; }
output() { # name value: a step output (GITHUB_OUTPUT), or printed outside Actions
    # One line per output: a value with a line break would write outputs of its own choosing.
    has_line_break "$2" && fail "output $1 would hold a line break: not written"
    if [ -n "${GITHUB_OUTPUT:-}" ]; then printf '%s=%s\n' "$1" "$2" >>"$GITHUB_OUTPUT"; else say "output $1=$2"; fi
}
export_env() { # name value: for the job's later steps
    has_line_break "$2" && fail "$1 would hold a line break: not set"
    if [ -n "${GITHUB_ENV:-}" ]; then printf '%s=%s\n' "$1" "$2" >>"$GITHUB_ENV"; fi
    say "$1=$2"
}
# The inputs, one line each: an artifact name with a second line journal=/etc/passwd rewrote the
# journal output (and so the file the upload step uploads). args alone may span lines (a line break
# separates arguments there, and args is never written to an output).
refuse_line_breaks() { # variable names (SKAN_MOCK_ACTION_ARTIFACT is the input artifact)
    local name value input
    for name in "$@"; do
        eval "value=\${$name:-}"
        if has_line_break "$value"; then
            input=$(printf '%s' "${name#SKAN_MOCK_ACTION_}" | tr '[:upper:]' '[:lower:]')
            fail "the input $input ($name) has a line break, which could rewrite the step's outputs: give it on one line"
        fi
    done
}

# The action's own ref and repository: from action.yml's env, else from the folder the runner put the
# action in (.../_actions/OWNER/NAME/REF), else (uses: ./) the workflow's own repository.
action_ref=${SKAN_MOCK_ACTION_REF:-}
action_repository=${SKAN_MOCK_ACTION_REPOSITORY:-}
case ${GITHUB_ACTION_PATH:-} in
    */_actions/*/*/*)
        rest=${GITHUB_ACTION_PATH#*/_actions/}
        owner=${rest%%/*}; rest=${rest#*/}
        repo=${rest%%/*}; rest=${rest#*/}
        [ -n "$action_repository" ] || action_repository="$owner/$repo"
        [ -n "$action_ref" ] || action_ref=${rest%%/*}
        ;;
esac
[ -n "$action_repository" ] || action_repository=${GITHUB_REPOSITORY:-}

version_pattern='^v?[0-9]+\.[0-9]+\.[0-9]+([-+][0-9A-Za-z.-]+)?$'
is_version() { # v1.2.3, 1.2.3, v1.2.3-rc.1: the whole value (grep matched any one of its lines)
    [[ $1 =~ $version_pattern ]]
}

platform_name() { # prints linux-x86_64, linux-aarch64 or macos-universal for this runner
    local os=${RUNNER_OS:-} arch=${RUNNER_ARCH:-}
    if [ -z "$os" ]; then
        case $(uname -s) in Linux) os=Linux ;; Darwin) os=macOS ;; *) os=$(uname -s) ;; esac
    fi
    if [ -z "$arch" ]; then
        case $(uname -m) in x86_64 | amd64) arch=X64 ;; aarch64 | arm64) arch=ARM64 ;; *) arch=$(uname -m) ;; esac
    fi
    case $os in
        Linux)
            case $arch in
                X64) echo linux-x86_64 ;;
                ARM64) echo linux-aarch64 ;;
                *) echo "linux-$arch" ;;
            esac
            ;;
        macOS) echo macos-universal ;;
        *) echo "unsupported-$os" ;;
    esac
}

# --- fetch ---------------------------------------------------------------------------------------
fetch() {
    local version=${SKAN_MOCK_ACTION_VERSION:-} platform tag file name base url code dir expected actual listed
    refuse_line_breaks SKAN_MOCK_ACTION_VERSION SKAN_MOCK_ACTION_REF SKAN_MOCK_ACTION_REPOSITORY
    if [ -z "$version" ]; then
        if is_version "$action_ref"; then version=$action_ref; else version=source; fi
    fi
    platform=$(platform_name)
    case $platform in
        unsupported-*) fail "no skan-mock for ${RUNNER_OS:-this} runners: Linux and macOS only" ;;
    esac
    mkdir -p "$state"
    if [ "$version" = source ]; then
        say "version source: building this action's checkout (${action_ref:-local})"
        build_from_source "this action is used at ${action_ref:-a local path}, not at a version"
        return
    fi
    is_version "$version" || fail "version '$version' is not a release (v1.2.0, 1.2.0) nor 'source'"
    tag=v${version#v}
    version=${version#v}
    name="skan-mock-$version-$platform"
    file="$name.tar.gz"
    [ -n "$action_repository" ] || [ -n "${SKAN_MOCK_RELEASE_URL:-}" ] \
        || fail "cannot tell which repository's releases to download from: set SKAN_MOCK_RELEASE_URL"
    base=${SKAN_MOCK_RELEASE_URL:-https://github.com/$action_repository/releases/download}
    url="${base%/}/$tag/$file"
    dir="$state/$version"
    rm -rf "$dir"
    mkdir -p "$dir"
    say "downloading $url"
    code=0
    curl -fsSL --retry 3 --retry-delay 2 --connect-timeout 20 --max-time 300 -o "$dir/$file" "$url" || code=$?
    if [ "$code" != 0 ]; then
        # 22: an HTTP error (404: the release has no such file); 37: a file:// that is not there.
        if [ "$code" = 22 ] || [ "$code" = 37 ]; then
            say "no archive $file in release $tag"
            if [ "$tag" = "v${action_ref#v}" ]; then
                build_from_source "release $tag has no archive for $platform"
                return
            fi
            fail "release $tag has no archive for $platform ($url). Use a version that has one, or OWNER/skan-mock@$tag (this action at that tag) to build it from source"
        fi
        fail "downloading $url failed (curl exit $code)"
    fi
    curl -fsSL --retry 3 --retry-delay 2 --connect-timeout 20 --max-time 60 -o "$dir/$file.sha256" "$url.sha256" \
        || fail "release $tag has $file but no $file.sha256 to check it against: not used"
    expected=$(cut -d ' ' -f 1 <"$dir/$file.sha256")
    listed=$(sed -n '1s/^[0-9a-f]*  *\*\{0,1\}//p' "$dir/$file.sha256")
    [ "$listed" = "$file" ] || fail "$file.sha256 is for '$listed', not $file: not used"
    actual=$(skan_mock_sha256 "$dir/$file")
    [ "$actual" = "$expected" ] || fail "$file does not match its .sha256 (got $actual, expected $expected): not used"
    say "$file matches its .sha256 ($actual)"
    tar -xzf "$dir/$file" -C "$dir" || fail "cannot unpack $file"
    [ -x "$dir/$name/skan-mock" ] || fail "$file has no $name/skan-mock"
    output build false
    output binary "$dir/$name/skan-mock"
}

# Says that start must build from source, and the cache key for the build folder; fails when there
# is no swift to build with.
build_from_source() { # reason
    local swift=${SKAN_MOCK_ACTION_SWIFT:-swift} key
    [ -f "$action_root/Package.swift" ] || fail "$1, and this action's folder ($action_root) has no Package.swift to build"
    command -v "$swift" >/dev/null 2>&1 \
        || fail "$1, and there is no swift on this runner to build it from source (macOS runners have Xcode; on Linux use a swift container image or swift-actions/setup-swift)"
    key=$(cd "$action_root" && find Package.swift Sources -type f | LC_ALL=C sort | while read -r f; do
        printf '%s %s\n' "$(skan_mock_sha256 "$f")" "$f"
    done | { if command -v sha256sum >/dev/null 2>&1; then sha256sum; else shasum -a 256; fi; } | cut -c 1-16)
    say "$1: building skan-mock from source with $swift (the build folder is cached between runs)"
    output build true
    output cache-key "skan-mock-build-$(platform_name)-$key"
    output build-path "$action_root/.build-action"
}

# --- start ---------------------------------------------------------------------------------------
start() {
    local binary=${SKAN_MOCK_ACTION_BINARY:-} port=${SKAN_MOCK_ACTION_PORT:-0} model=${SKAN_MOCK_ACTION_MODEL:-}
    local wait=${SKAN_MOCK_ACTION_WAIT:-60} swift=${SKAN_MOCK_ACTION_SWIFT:-swift} bin_path pid deadline line url
    local listen_port args_file token="" token_next="" probe probed
    refuse_line_breaks SKAN_MOCK_ACTION_PORT SKAN_MOCK_ACTION_MODEL SKAN_MOCK_ACTION_WAIT SKAN_MOCK_ACTION_BINARY \
        SKAN_MOCK_ACTION_BUILD
    case $port in '' | *[!0-9]*) fail "port '$port' is not a number (0 picks a free one)" ;; esac
    case $wait in '' | *[!0-9]*) fail "wait '$wait' is not a number of seconds" ;; esac
    mkdir -p "$state"
    if [ -f "$state/pid" ] && running_server >/dev/null; then
        fail "a skan-mock this action started is still running (pid $(cat "$state/pid")): stop it first (mode: stop)"
    fi
    if [ "${SKAN_MOCK_ACTION_BUILD:-false}" = true ]; then
        say "swift build -c release --product skan-mock in $action_root"
        (cd "$action_root" && "$swift" build -c release --product skan-mock --scratch-path "$action_root/.build-action") \
            || fail "swift build failed"
        bin_path=$(cd "$action_root" && "$swift" build -c release --product skan-mock --scratch-path "$action_root/.build-action" --show-bin-path) \
            || fail "swift build --show-bin-path failed"
        binary="$bin_path/skan-mock"
    fi
    [ -n "$binary" ] || fail "no skan-mock to start: run the action's fetch step first"
    [ -x "$binary" ] || fail "$binary is not an executable"
    say "$("$binary" --version 2>/dev/null | sed 's/^/skan-mock /') at $binary"

    # The server's arguments: serve, the inputs, then args split as a shell would (quotes kept
    # together, nothing expanded or run).
    rm -f "$state/journal.jsonl" "$state/server.log" "$state/pid" "$state/command"
    set -- serve --port "$port" --log "$state/journal.jsonl" --pid-file "$state/skan-mock.pid"
    if [ -n "$model" ]; then set -- "$@" --model "$model"; fi
    case ${SKAN_MOCK_ACTION_ARGS:-} in *[![:space:]]*)
        args_file="$state/args"
        printf '%s\n' "$SKAN_MOCK_ACTION_ARGS" | tr '\n' ' ' | xargs printf '%s\n' >"$args_file" \
            || fail "cannot read args '$SKAN_MOCK_ACTION_ARGS' (an unmatched quote?)"
        while IFS= read -r line; do
            set -- "$@" "$line"
            # The server's --admin-token, for the readiness probe (the last one given, as serve takes it).
            if [ -n "$token_next" ]; then token=$line; token_next=""; fi
            case $line in
                --admin-token) token_next=1 ;;
                --admin-token=*) token=${line#--admin-token=} ;;
            esac
        done <"$args_file"
        ;;
    esac
    # The token never reaches the log: GitHub masks it in every later line, and the start line
    # shows *** in its place.
    shown="$*"
    if [ -n "$token" ]; then
        [ "${GITHUB_ACTIONS:-}" = true ] && printf '::add-mask::%s\n' "$token"
        shown=${shown//"$token"/***}
    fi
    say "starting: skan-mock $shown"
    nohup "$binary" "$@" </dev/null >"$state/server.log" 2>&1 &
    pid=$!
    printf '%s\n' "$pid" >"$state/pid"
    printf '%s\n' "$binary" >"$state/binary"

    # Ready when skan-mock health gets 200 at the port the start-up line names. The probe sends the
    # --admin-token of args (health reads SKAN_MOCK_ADMIN_TOKEN; the job's own, if it set one, when
    # args has none): without it a server with a token answered 401, and was killed after the wait.
    # A 401 all the same (a token given some other way) is a server that answers: up, said so.
    deadline=$(( $(date +%s) + wait ))
    listen_port=""
    probe="it never printed its start-up line"
    while :; do
        line=$(grep -m 1 '^skan-mock listening on http://' "$state/server.log" 2>/dev/null || true)
        if [ -n "$line" ]; then
            listen_port=$(printf '%s\n' "$line" | sed -n 's|^skan-mock listening on http://[^ ]*:\([0-9][0-9]*\).*|\1|p')
            if [ -n "$listen_port" ]; then
                if [ -n "$token" ]; then
                    probed=$(SKAN_MOCK_ADMIN_TOKEN=$token "$binary" health --port "$listen_port" --timeout 2 2>&1 >/dev/null) && break
                else
                    probed=$("$binary" health --port "$listen_port" --timeout 2 2>&1 >/dev/null) && break
                fi
                probe=$(printf '%s\n' "$probed" | tail -n 1)
                case $probe in
                    *"HTTP 401"*)
                        say "the server answers, but refused the readiness probe's admin token ($probe): taken as up"
                        break
                        ;;
                esac
            fi
        fi
        if ! kill -0 "$pid" 2>/dev/null; then
            wait "$pid" 2>/dev/null || true
            rm -f "$state/pid"
            untrusted '  | ' <"$state/server.log" >&2
            fail "the server did not start: $(grep -v '^{' "$state/server.log" | tail -n 1)"
        fi
        if [ "$(date +%s)" -ge "$deadline" ]; then
            kill "$pid" 2>/dev/null || true
            sleep 1
            kill -9 "$pid" 2>/dev/null || true
            rm -f "$state/pid"
            untrusted '  | ' <"$state/server.log" >&2
            fail "the server did not answer skan-mock health within $wait s (stopped; its output is above); the last probe: $probe"
        fi
        sleep 0.2
    done
    # What stop compares before it signals: the command line ps shows for the pid now that it is the
    # server (right after the fork it may still be this shell or nohup).
    command_of "$pid" >"$state/command" || fail "cannot read the command line of pid $pid with ps"
    url="http://127.0.0.1:$listen_port"
    case $line in "skan-mock listening on http://["*) url="http://[::1]:$listen_port" ;; esac
    say "listening: $line (pid $pid)"
    export_env SKAN_MOCK_URL "$url"
    export_env SKAN_MOCK_PORT "$listen_port"
    export_env SKAN_MOCK_JOURNAL_FILE "$state/journal.jsonl"
    if [ -n "${GITHUB_PATH:-}" ]; then printf '%s\n' "$(dirname "$binary")" >>"$GITHUB_PATH"; fi
    output url "$url"
    output port "$listen_port"
    output pid "$pid"
    output journal "$state/journal.jsonl"
}

command_of() { # pid: its command line as ps shows it (Linux and macOS alike), or /proc's where no ps is
    if command -v ps >/dev/null 2>&1; then
        ps -o command= -p "$1" 2>/dev/null
    elif [ -r "/proc/$1/cmdline" ]; then
        tr '\0' ' ' <"/proc/$1/cmdline"
    else
        return 1
    fi
}

# Prints the recorded pid when that process is still the server start started (same command line).
running_server() {
    local pid recorded now
    pid=$(cat "$state/pid" 2>/dev/null || true)
    case $pid in '' | *[!0-9]*) return 1 ;; esac
    kill -0 "$pid" 2>/dev/null || return 1
    recorded=$(cat "$state/command" 2>/dev/null || true)
    now=$(command_of "$pid" || true)
    [ -n "$recorded" ] && [ "$now" = "$recorded" ] || return 1
    printf '%s\n' "$pid"
}

# Whether the pid start recorded is still that server (skan_mock_stop asks before each signal).
# shellcheck disable=SC2317  # called by skan_mock_stop
still_ours() { running_server >/dev/null; }

# --- stop ----------------------------------------------------------------------------------------
stop() {
    local pid binary artifact stopped
    refuse_line_breaks SKAN_MOCK_ACTION_ARTIFACT
    if [ ! -f "$state/pid" ]; then
        say "no server started by this action is running: nothing to stop"
    elif ! pid=$(running_server); then
        say "the server this action started (pid $(cat "$state/pid")) is no longer running"
        rm -f "$state/pid"
    else
        say "stopping skan-mock (pid $pid)"
        stopped=0
        skan_mock_stop "$pid" still_ours || stopped=$?
        [ "$stopped" != 1 ] || say "pid $pid did not stop within 10 s of SIGTERM: SIGKILL"
        rm -f "$state/pid"
    fi
    if [ -f "$state/journal.jsonl" ]; then
        # Kept even when empty: "the app sent nothing" is worth knowing too.
        binary=$(cat "$state/binary" 2>/dev/null || true)
        if [ -n "$binary" ] && [ -x "$binary" ]; then
            # The journal holds what the app sent: printed with workflow commands off.
            { "$binary" report "$state/journal.jsonl" 2>&1 || true; } | untrusted ''
        fi
        artifact=${SKAN_MOCK_ACTION_ARTIFACT:-}
        if [ -z "$artifact" ]; then
            artifact="skan-mock-journal-${GITHUB_JOB:-job}-$(platform_name)-$(od -An -N3 -tx1 /dev/urandom | tr -d ' \n')"
        fi
        output journal "$state/journal.jsonl"
        output artifact "$artifact"
    else
        say "no journal to keep"
        output journal ""
    fi
}

case $mode in
    fetch) fetch ;;
    start) start ;;
    stop) stop ;;
    *)
        echo "usage: Scripts/action.sh fetch|start|stop (the steps of action.yml)" >&2
        exit 2
        ;;
esac
