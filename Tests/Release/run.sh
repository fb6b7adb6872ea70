#!/usr/bin/env bash
# Tests/Release/run.sh: the Linux archive that Scripts/release.sh makes runs where no Swift is.
#
#   1. makes the archive for this machine (Tests/Release/make-archive.sh: Scripts/release.sh, reusing
#      docker/test.sh's release build when it is of the same sources) and checks its .sha256 and its
#      contents: one folder with the binary, every model of config/, README.md, and LICENSE exactly when
#      the repository has one;
#   2. builds a container image on the bare Debian bookworm base that docker/test.sh uses
#      (docker/base-image.sh: debootstrap, podman, no registry) with nothing added but the packages
#      the archive's README tells a user to install, and the archive unpacked; checks that it holds
#      no Swift (no swift command, no libswift*) and that ldd finds every library the binary needs;
#   3. in that container: `skan-mock --version` is the archive's version, `skan-mock validate` accepts
#      the bundled models, and the server started as the README says answers the README's curl with
#      the answer the README shows, passes `skan-mock health`, and exits 0 on SIGTERM.
#
# Bounded: every podman call has a timeout, the server gets 60 s to answer. Prints one line
# "Tests/Release/run.sh: passed ..." or fails with "Tests/Release/run.sh: FAIL: ...".
# Environment: as docker/base-image.sh (SKAN_MOCK_BASE_CACHE, SKAN_MOCK_DEBIAN_MIRROR).
set -euo pipefail
cd "$(dirname "$0")/../.."

started=$(date +%s)
image=localhost/skan-mock-release:test
test_label=skan-mock.release-test=1
say() { printf 'Tests/Release/run.sh: %s\n' "$*"; }
fail() {
    printf 'Tests/Release/run.sh: FAIL: %s\n' "$*" >&2
    exit 1
}

[ "$(uname -s)" = Linux ] || fail "runs on Linux only (it tests the Linux archive in a container)"
# shellcheck source=docker/base-image.sh
. docker/base-image.sh
base_image_tools

work=$(mktemp -d "${TMPDIR:-/tmp}/skan-mock-release-test.XXXXXX")
container=""
cleanup() {
    if [ -n "$container" ]; then timeout 30 "${podman[@]}" rm -f -t 0 "$container" >/dev/null 2>&1 || true; fi
    rm -rf "$work"
}
trap cleanup EXIT
trap 'exit 130' INT TERM

# --- 1. the archive ------------------------------------------------------------------------------
# release.sh's Linux build is the Dockerfile's, so the archive's binary is the image's.
build_line=$(grep -o 'swift build -c release --static-swift-stdlib --product skan-mock -Xlinker -s' docker/Dockerfile | head -n 1)
[ -n "$build_line" ] || fail "docker/Dockerfile's build command changed: change Scripts/release.sh's with it"
grep -qF "build=(${build_line})" Scripts/release.sh || fail "Scripts/release.sh does not build with the Dockerfile's command ($build_line)"

t0=$(date +%s)
archive=$(bash Tests/Release/make-archive.sh "$work/dist") || fail "Scripts/release.sh failed"
file=$(basename "$archive")
name=${file%.tar.gz}
# shellcheck source=Scripts/lib.sh
. Scripts/lib.sh
version=$(skan_mock_version .) || fail "cannot read the version from VERSION"
case $(uname -m) in x86_64) arch=x86_64 ;; aarch64) arch=aarch64 ;; *) arch=$(uname -m) ;; esac
[ "$name" = "skan-mock-$version-linux-$arch" ] || fail "archive named $file, expected skan-mock-$version-linux-$arch.tar.gz"
(cd "$work/dist" && sha256sum -c --quiet "$file.sha256") || fail "$file does not match $file.sha256"
say "archive $file ($(du -h "$archive" | cut -f1)) matches its .sha256, made in $(( $(date +%s) - t0 )) s"

listing=$(tar -tzf "$archive")
expected="$name/
$name/README.md
$name/skan-mock"
for model in $(cd config && find . -type f | sed 's|^\./||' | sort); do expected="$expected
$name/config/$model"; done
licence=""
for candidate in LICENSE LICENSE.md LICENSE.txt COPYING; do
    if [ -f "$candidate" ]; then licence=$candidate; break; fi
done
if [ -n "$licence" ]; then expected="$expected
$name/$licence"; fi
actual=$(printf '%s\n' "$listing" | grep -v '/$' | sort)
wanted=$(printf '%s\n' "$expected" | grep -v '/$' | sort)
[ "$actual" = "$wanted" ] || fail "the archive holds
$actual
expected
$wanted"
printf '%s\n' "$listing" | grep -v "^$name/" && fail "the archive has entries outside $name/"
say "it holds the binary, README.md, ${licence:-no licence (the repository has none)} and all $(find config -type f | wc -l | tr -d ' ') files of config/"

tar -xzf "$archive" -C "$work"
readme="$work/$name/README.md"
packages=$(sed -n 's/^sudo apt-get install -y \(.*[^ ]\) *# Debian 12$/\1/p' "$readme")
[ -n "$packages" ] || fail "the archive's README has no 'sudo apt-get install -y ... # Debian 12' line"
for library in libcurl libssl libqrencode; do
    grep -q "$library" <<<"$packages" || fail "the README's install line does not name $library: $packages"
done
curl_line=$(grep -m 1 "^curl 'http://127.0.0.1:8080/" "$readme") || fail "the archive's README has no curl line"
answer_line=$(grep -A 1 -F "$curl_line" "$readme" | sed -n '2s/^# //p')
[ -n "$answer_line" ] || fail "the README's curl line has no '# {...}' answer under it"
grep -q '^\./skan-mock health' "$readme" || fail "the archive's README does not show ./skan-mock health"

# --- 2. the image: bare bookworm, the README's packages, the archive ------------------------------
base_image_lock
base_image_ready
mkdir -p "$work/context"
cp "$archive" "$work/context/"
cat >"$work/context/Containerfile" <<EOF
FROM $base_image
RUN apt-get update \\
 && DEBIAN_FRONTEND=noninteractive apt-get install -y --no-install-recommends $packages \\
 && rm -rf /var/lib/apt/lists/*
COPY $file /tmp/$file
RUN tar -xzf /tmp/$file -C /opt && rm /tmp/$file
WORKDIR /opt/$name
USER 10001:10001
EOF
t0=$(date +%s)
timeout 120 "${podman[@]}" rmi -f "$image" >/dev/null 2>&1 || true
timeout 600 podman build --isolation chroot --format docker --label "$test_label" \
    -f "$work/context/Containerfile" -t "$image" "$work/context" >"$work/build.log" 2>&1 \
    || { tail -30 "$work/build.log" >&2; fail "podman build failed"; }
timeout 120 "${podman[@]}" image prune -f --filter "label=$test_label" >/dev/null 2>&1 || true
say "image on $base_image with only '$packages' added, built in $(( $(date +%s) - t0 )) s"

# The limits docker/test.sh gives too: runc may not raise the container's above the machine's.
limits=(--ulimit nofile=1024:1024 --ulimit nproc=1024:1024)
in_image() { timeout 60 "${podman[@]}" run --rm --network=none "${limits[@]}" "$image" "$@"; }
swift_files=$(in_image sh -c 'command -v swift swiftc; find / -xdev \( -name "libswift*" -o -name "swift*" -path "*/bin/*" \) 2>/dev/null | head -n 5')
[ -z "$swift_files" ] || fail "the image has Swift in it: $swift_files"
unresolved=$(in_image sh -c 'ldd ./skan-mock | grep "not found" || true')
[ -z "$unresolved" ] || fail "libraries missing in the image: $unresolved"
reported=$(in_image ./skan-mock --version)
[ "$reported" = "$version" ] || fail "skan-mock --version in the image: '$reported', expected $version"
in_image sh -c './skan-mock validate config/*.json' >"$work/validate.log" 2>&1 \
    || { cat "$work/validate.log" >&2; fail "skan-mock validate config/*.json failed in the image"; }
say "no Swift in the image, ldd finds every library, --version is $reported, the bundled models validate"

# --- 3. the server, as the README starts it ---------------------------------------------------------
port=$(free_port "")
[ -n "$port" ] || fail "found no free port"
container="skan-mock-release-test-$$"
timeout 120 "${podman[@]}" run -d --name "$container" --network=host "${limits[@]}" "$image" ./skan-mock --port "$port" \
    >/dev/null 2>"$work/podman.log" || { cat "$work/podman.log" >&2; fail "podman run failed"; }
deadline=$(( $(date +%s) + 60 ))
until timeout 15 "${podman[@]}" exec "$container" ./skan-mock health --port "$port" >/dev/null 2>&1; do
    if [ "$("${podman[@]}" inspect -f '{{.State.Running}}' "$container" 2>/dev/null)" != true ]; then
        "${podman[@]}" logs "$container" >&2 || true
        fail "the server stopped before it answered"
    fi
    [ "$(date +%s)" -lt "$deadline" ] || { "${podman[@]}" logs "$container" >&2 || true; fail "skan-mock health did not pass within 60 s"; }
    sleep 0.5
done
# The log is read whole before grep looks (`podman logs | grep -q` fails under pipefail when grep
# stops reading early), and read again for a few seconds: conmon may write it after the health check.
listening="skan-mock listening on http://127.0.0.1:$port"
for _ in $(seq 1 20); do
    server_log=$("${podman[@]}" logs "$container" 2>&1 || true)
    grep -qF "$listening" <<<"$server_log" && break
    sleep 0.25
done
grep -qF "$listening" <<<"$server_log" || fail "no '$listening' line; the log: $server_log"
say "the server answers skan-mock health on port $port"
# The README's curl, word for word but for the port (the test never takes 8080).
url=$(sed -n "s/^curl '\\([^']*\\)'.*/\\1/p" <<<"$curl_line")
answer=$(timeout 20 curl -sS --fail "${url/:8080\//:$port/}") || fail "the README's curl failed"
[ "$answer" = "$answer_line" ] || fail "the README's curl answered '$answer', the README shows '$answer_line'"
say "the README's curl answers $answer, as the README shows"
t0=$(date +%s)
timeout 60 "${podman[@]}" stop -t 10 "$container" >/dev/null 2>>"$work/podman.log" || fail "podman stop failed"
code=$("${podman[@]}" inspect -f '{{.State.ExitCode}}' "$container")
[ "$code" = 0 ] || fail "the server exited $code on SIGTERM"
say "passed in $(( $(date +%s) - started )) s (stopped: exit 0 after $(( $(date +%s) - t0 )) s)"
