#!/usr/bin/env bash
# docker/test.sh: proves the container image of docker/Dockerfile by building and running it.
#
# This machine (and CI) has no Docker engine and no image registry, so the script:
#   1. installs podman, runc and debootstrap when missing (docker/base-image.sh, shared with
#      Tests/Release/run.sh);
#   2. replays the Dockerfile's build stage with the local toolchain: its COPY lines into a folder,
#      then the same release build (static Swift standard library, stripped);
#   3. makes a Debian bookworm base image with debootstrap, slimmed like debian:bookworm-slim
#      (cached under /var/tmp/skan-mock-base, rebuilt when absent; docker/base-image.sh);
#   4. builds the Dockerfile's runtime stage, taken verbatim from docker/Dockerfile, on that base,
#      with the binary of step 2 standing in for the build stage;
#   5. runs the container: waits for its HEALTHCHECK, sends a SKAN 4 request and finds its journal
#      line on the container's output; fetches the served CA and sends a SKAN 4 request over HTTPS
#      with curl verifying the server against that CA alone; runs it again with a model from a temporary folder mounted
#      on /config and sees that model's answer; stops it and checks it exited 0 within 5 s;
#   6. prints the image's size and fails when it is 120 MB or more.
#
# Environment: SKAN_MOCK_BASE_CACHE (default /var/tmp/skan-mock-base), SKAN_MOCK_DEBIAN_MIRROR
# (default: none, so debootstrap uses its own default mirror), SKAN_MOCK_TEST_PORT (default: a
# free port; never 8080), SKAN_MOCK_SCRATCH (SwiftPM scratch path, default .build-docker; the build stage's sources are
# replayed into its stage-src/). Runs are serialised with a lock next to the base cache.
set -euo pipefail
cd "$(dirname "$0")/.."

started=$(date +%s)
image=localhost/skan-mock:test
scratch=${SKAN_MOCK_SCRATCH:-.build-docker}
max_image_bytes=120000000
test_label=skan-mock.docker-test=1

say() { printf 'docker/test.sh: %s\n' "$*"; }
fail() {
    printf 'docker/test.sh: FAIL: %s\n' "$*" >&2
    exit 1
}

# --- 0. compose passes what the Docker page tells Docker users to set --------------------------
# Every SKAN_MOCK_* variable docs/docker.md names must reach the container under Compose too (the page
# recommends Compose for QA); checked before anything is built. (ReadmeExampleTests checks the other
# way: the page names every variable compose passes.)
page_names=$(grep -o 'SKAN_MOCK_[A-Z_]*' docs/docker.md | sort -u)
[ -n "$page_names" ] || fail "docs/docker.md names no SKAN_MOCK_* variable; was it moved?"
for name in $page_names; do
    grep -q "$name" docker/compose.yaml || fail "docker/compose.yaml does not pass $name, which docs/docker.md names"
done
say "compose passes every SKAN_MOCK_* variable docs/docker.md names ($(echo "$page_names" | wc -w))"

# --- 1. tools ----------------------------------------------------------------------------------
# podman and the base image are docker/base-image.sh's, shared with Tests/Release/run.sh.
# shellcheck source=docker/base-image.sh
. docker/base-image.sh
base_image_tools

# --- cleanup, whatever happens -----------------------------------------------------------------
work=$(mktemp -d "${TMPDIR:-/tmp}/skan-mock-docker-test.XXXXXX")
containers=()
cleanup() {
    local c
    for c in "${containers[@]}"; do
        timeout 30 "${podman[@]}" rm -f -t 0 "$c" >/dev/null 2>&1 || true
    done
    rm -rf "$work"
}
trap cleanup EXIT
trap 'exit 130' INT TERM

# One run at a time on a machine: runs share the base cache and the image tag.
base_image_lock

# --- 2. the binary: the Dockerfile's build stage, replayed with the local toolchain -------------
# The build stage's COPY lines are replayed into a folder standing for its /src (so a file the image
# build would miss is missed here too), and the same `swift build` runs there. cp -a keeps the files'
# times, so SwiftPM rebuilds only what changed since the last run.
case $scratch in /*) ;; *) scratch="$PWD/$scratch" ;; esac
src="$scratch/stage-src"
copies=$(awk '/^FROM .* AS build$/{on=1; next} /^FROM /{on=0} on && /^COPY /{print}' docker/Dockerfile)
[ -n "$copies" ] || fail "docker/Dockerfile has no 'FROM ... AS build' stage with COPY lines"
mkdir -p "$src"
while read -r _ from to extra; do
    [ -z "$extra" ] && [ "${from#--}" = "$from" ] || fail "cannot replay 'COPY $from $to $extra'"
    case $to in
        ./) dest="$src/$(basename "$from")" ;;
        ./*) dest="$src/${to#./}" ;;
        *) fail "cannot replay 'COPY $from $to': the destination is not under WORKDIR" ;;
    esac
    rm -rf "$dest"
    cp -a "$from" "$dest"
done <<<"$copies"
# What .dockerignore keeps out of the build context.
find "$src" -mindepth 2 \( -name '.build' -o -name '.build-*' -o -name '.build_*' -o -name '.swiftpm' \) \
    -prune -exec rm -rf {} +
build_cmd=(swift build -c release --static-swift-stdlib --product skan-mock -Xlinker -s)
grep -qF "RUN ${build_cmd[*]}" docker/Dockerfile || fail "docker/Dockerfile's build command is not '${build_cmd[*]}'"
say "building the release binary like the build stage (${build_cmd[*]})"
t0=$(date +%s)
if ! (cd "$src" && "${build_cmd[@]}" --scratch-path "$scratch") >"$work/swift-build.log" 2>&1; then
    cat "$work/swift-build.log" >&2
    fail "swift build failed"
fi
binary="$(cd "$src" && "${build_cmd[@]}" --scratch-path "$scratch" --show-bin-path)/skan-mock"
[ -x "$binary" ] || fail "no binary at $binary"
say "binary built in $(( $(date +%s) - t0 )) s: $(du -h "$binary" | cut -f1)"
# The binary's libraries must all be in the runtime stage: OpenSSL, libqrencode, libcurl (--upstream).
# ldd's list is read whole first: `ldd | grep -q` under pipefail fails when grep stops reading early.
libraries=$(ldd "$binary")
if ! grep -q 'libcurl' <<<"$libraries"; then fail "the server binary does not link libcurl: --upstream would be missing from the image"; fi
if grep -q 'libswiftCore' <<<"$libraries"; then fail "the Swift standard library is not linked statically"; fi

# --- 3. the base image -------------------------------------------------------------------------
base_image_ready

# --- 4. the runtime stage ----------------------------------------------------------------------
# The Containerfile is docker/Dockerfile's global ARGs and its runtime stage, verbatim, with a
# stand-in build stage that holds the binary built above where the real one puts it (/out).
grep -q '^FROM .* AS runtime$' docker/Dockerfile || fail "docker/Dockerfile has no 'FROM ... AS runtime' stage"
context="$work/context"
mkdir -p "$context"
{
    awk '/^FROM /{exit} {print}' docker/Dockerfile
    printf 'FROM scratch AS build\nCOPY skan-mock /out/skan-mock\n\n'
    awk '/^FROM .* AS runtime$/{on=1} on{print}' docker/Dockerfile
} >"$context/Containerfile"
cp "$binary" "$context/skan-mock"
cp -R config "$context/config"
say "building the runtime stage on $base_image"
t0=$(date +%s)
# The image of the previous run goes first, with its intermediate images (storage stays bounded).
timeout 120 "${podman[@]}" rmi -f "$image" >/dev/null 2>&1 || true
timeout 600 podman build --isolation chroot --format docker --target runtime \
    --build-arg RUNTIME_IMAGE="$base_image" --label "$test_label" \
    -f "$context/Containerfile" -t "$image" "$context" >"$work/build.log" 2>&1 \
    || { tail -30 "$work/build.log" >&2; fail "podman build failed"; }
# The stand-in build stage is left as an untagged image: drop it (only images of this test).
timeout 120 "${podman[@]}" image prune -f --filter "label=$test_label" >/dev/null 2>&1 || true
say "image $image built in $(( $(date +%s) - t0 )) s"
config=$("${podman[@]}" image inspect "$image" | tr -d ' \n')
for needle in '"User":"10001:10001"' '"8080/tcp"' '"8443/tcp"' 'SKAN_MOCK_HTTPS_PORT=8443' 'SKAN_MOCK_HOST=0.0.0.0' \
    'SKAN_MOCK_MODEL=/config/singular-testing.json' 'SKAN_MOCK_LOG=-' \
    '"Entrypoint":["/usr/local/bin/skan-mock"]' '"Healthcheck":{"Test":["CMD","/usr/local/bin/skan-mock","health"]'; do
    case "$config" in *"$needle"*) ;; *) fail "the image config lacks $needle: $config" ;; esac
done

# --- 5. run it ---------------------------------------------------------------------------------
if [ -n "${SKAN_MOCK_TEST_PORT:-}" ]; then
    port=$SKAN_MOCK_TEST_PORT
else
    port=$(free_port "")
    [ -n "$port" ] || fail "found no free port"
fi
[ "$port" != 8080 ] || fail "the test must not use port 8080"
https_port=$(free_port "$port")
[ -n "$https_port" ] || fail "found no free port for HTTPS"

# GET on 127.0.0.1 with bash's /dev/tcp (no curl needed); prints the body.
http_get() {
    timeout 10 bash -c '
        exec 3<>"/dev/tcp/127.0.0.1/$1" || exit 1
        printf "GET %s HTTP/1.1\r\nHost: 127.0.0.1\r\nConnection: close\r\n\r\n" "$2" >&3
        cat <&3' _ "$port" "$1" | awk 'body{print} /^\r?$/{body=1}'
}

container_seq=0
start_container() { # extra `podman run` arguments...
    local name="skan-mock-test-$$-$container_seq"
    container_seq=$(( container_seq + 1 ))
    containers+=("$name")
    # (Without systemd, podman logs that it cannot schedule the healthcheck timer: its stderr goes
    # to a file; wait_healthy runs the image's HEALTHCHECK itself.)
    timeout 120 "${podman[@]}" run -d --name "$name" --network=host \
        --ulimit nofile=1024:1024 --ulimit nproc=1024:1024 \
        -e SKAN_MOCK_PORT="$port" -e SKAN_MOCK_HTTPS_PORT="$https_port" "$@" "$image" >/dev/null 2>>"$work/podman.log" \
        || { cat "$work/podman.log" >&2; fail "podman run failed"; }
    container=$name
}

# Waits (at most 60 s) until the image's own HEALTHCHECK passes in the container.
wait_healthy() {
    local deadline=$(( $(date +%s) + 60 ))
    until timeout 15 "${podman[@]}" healthcheck run "$container" >/dev/null 2>&1; do
        if [ "$("${podman[@]}" inspect -f '{{.State.Running}}' "$container" 2>/dev/null)" != true ]; then
            "${podman[@]}" logs "$container" >&2 || true
            fail "the container stopped before it was healthy"
        fi
        if [ "$(date +%s)" -ge "$deadline" ]; then
            "${podman[@]}" logs "$container" >&2 || true
            fail "the container was not healthy within 60 s"
        fi
        sleep 0.5
    done
}

skan4_request() { # device
    local now
    now=$(date +%s)
    http_get "/api/v2/conversion_value?a=docker-test&v=1&i=com.example.app&app_v=1.0&n=__SESSION__&p=iOS&idfv=$1&skan_current_conversion_value=0&prev_fine_value=0&skan_first_call_to_skadnetwork_timestamp=$(( now - 60 ))&skan_last_call_to_skadnetwork_timestamp=$now"
}

# Waits (at most 10 s) for a line on the container's output that holds every given string; prints it.
wait_for_output_line() { # strings...
    local deadline=$(( $(date +%s) + 10 )) lines s
    while :; do
        lines=$("${podman[@]}" logs "$container" 2>/dev/null || true)
        for s in "$@"; do lines=$(printf '%s\n' "$lines" | grep -F -- "$s" || true); done
        if [ -n "$lines" ]; then printf '%s\n' "$lines" | head -1; return 0; fi
        [ "$(date +%s)" -lt "$deadline" ] || return 1
        sleep 0.3
    done
}

# Stops the container like `docker stop` (SIGTERM, SIGKILL after 10 s) and checks it exited 0
# within 5 s.
stop_container() {
    local t0 t1 code
    t0=$(date +%s%N)
    timeout 60 "${podman[@]}" stop -t 10 "$container" >/dev/null 2>>"$work/podman.log" \
        || { cat "$work/podman.log" >&2; fail "podman stop failed"; }
    t1=$(date +%s%N)
    code=$("${podman[@]}" inspect -f '{{.State.ExitCode}}' "$container")
    local ms=$(( (t1 - t0) / 1000000 ))
    [ "$code" = 0 ] || fail "the container exited $code on SIGTERM (after $ms ms)"
    [ "$ms" -le 5000 ] || fail "the container took $ms ms to stop (more than 5 s)"
    say "stopped: exit 0 after $ms ms"
}

# Run 1: the bundled models.
say "run 1: bundled model, port $port"
start_container
wait_healthy
logs=$("${podman[@]}" logs "$container" 2>&1)
case "$logs" in
    *"skan-mock listening on http://0.0.0.0:$port"*) ;;
    *) printf '%s\n' "$logs" >&2; fail "no 'skan-mock listening on http://0.0.0.0:$port' line" ;;
esac
[ "$("${podman[@]}" inspect -f '{{.Config.User}}' "$container")" != "" ] || fail "the image runs as root"
uid=$(timeout 30 "${podman[@]}" exec "$container" grep '^Uid:' /proc/1/status | awk '{print $2}')
[ -n "$uid" ] && [ "$uid" != 0 ] || fail "the server (PID 1) runs as uid '$uid'"
say "the server runs as uid $uid"
health=$(http_get /__admin/health)
case "$health" in
    *'"source":"/config/singular-testing.json"'*) ;;
    *) fail "the server did not load /config/singular-testing.json: $health" ;;
esac
device="docker-test-$$-$RANDOM"
answer=$(skan4_request "$device")
expected='{"status":"ok","conversion_value":1,"skan_updated_coarse_value":0,"skan_updated_lock_window_value":false}'
[ "$answer" = "$expected" ] || fail "SKAN 4 answer: '$answer', expected '$expected'"
say "SKAN 4 answer: $answer"
line=$(wait_for_output_line '"endpoint":"skan4"' "\"device\":\"$device\"" '"window":"p0"') \
    || fail "no journal line for device $device on the container's output"
say "journal line: ${line:0:160}..."
# HTTPS: the served CA is the only trust anchor, the host name (127.0.0.1) is checked.
case "$logs" in
    *"skan-mock listening on https://0.0.0.0:$https_port"*) ;;
    *) printf '%s\n' "$logs" >&2; fail "no 'skan-mock listening on https://0.0.0.0:$https_port' line" ;;
esac
http_get /__admin/ca.pem >"$work/ca.pem"
grep -q 'BEGIN CERTIFICATE' "$work/ca.pem" || fail "/__admin/ca.pem did not answer a certificate"
now=$(date +%s)
answer=$(timeout 20 curl -sS --fail --cacert "$work/ca.pem" \
    "https://127.0.0.1:$https_port/api/v2/conversion_value?a=docker-test&i=com.example.app&p=iOS&n=__SESSION__&idfv=$device-tls&skan_current_conversion_value=0&skan_first_call_to_skadnetwork_timestamp=$(( now - 60 ))") \
    || fail "the HTTPS request verified against the served CA failed"
[ "$answer" = "$expected" ] || fail "SKAN 4 answer over HTTPS: '$answer', expected '$expected'"
wait_for_output_line "\"device\":\"$device-tls\"" '"tls":"TLSv1.3"' >/dev/null \
    || fail "no journal line with \"tls\":\"TLSv1.3\" for the HTTPS request"
say "HTTPS answer verified against the served CA: $answer"
stop_container

# Run 2: a model from a temporary folder mounted on /config (read-only) replaces the bundled ones.
models="$work/models"
mkdir -p "$models"
cat >"$models/singular-testing.json" <<'EOF'
{
  "name": "docker-test-model",
  "description": "docker/test.sh: every first-window session answers fine 42, coarse high, locked.",
  "skan3": {"mode": "increment", "max": 2, "when_exhausted": "empty"},
  "skan4": {
    "p0": {"combine": "last", "entries": [
      {"fine": 42, "coarse": "high", "lock": true, "when": {"event": {"name": "__SESSION__"}}}
    ]}
  }
}
EOF
chmod 0755 "$work" "$models"
chmod 0644 "$models/singular-testing.json"
"$binary" validate "$models/singular-testing.json" >/dev/null || fail "the test model does not validate"
say "run 2: model from $models mounted on /config"
start_container -v "$models:/config:ro"
wait_healthy
device="docker-test-$$-$RANDOM"
answer=$(skan4_request "$device")
expected='{"status":"ok","conversion_value":42,"skan_updated_coarse_value":2,"skan_updated_lock_window_value":true}'
[ "$answer" = "$expected" ] || fail "SKAN 4 answer with the mounted model: '$answer', expected '$expected'"
say "SKAN 4 answer with the mounted model: $answer"
wait_for_output_line '"endpoint":"skan4"' "\"device\":\"$device\"" >/dev/null \
    || fail "no journal line for device $device on the container's output"
stop_container

# --- 6. size -----------------------------------------------------------------------------------
size=$("${podman[@]}" image inspect -f '{{.Size}}' "$image")
say "image $image: $size bytes ($(( size / 1000000 )) MB; limit $(( max_image_bytes / 1000000 )) MB)"
[ "$size" -lt "$max_image_bytes" ] || fail "the image is $size bytes, over the limit"
say "passed in $(( $(date +%s) - started )) s"
