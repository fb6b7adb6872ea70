#!/usr/bin/env bash
# The oldest supported toolchain: builds the package and all its tests with Swift 6.0.x (the compiler
# of Xcode 16.0), so code that only a newer compiler accepts fails here and not on a user's Mac.
# Build only (`swift build --build-tests`); the tests themselves run with the machine's toolchain.
#
# This machine's Swift is newer, so the script:
#   1. installs debootstrap when missing;
#   2. makes a Debian trixie chroot (`debootstrap --variant=minbase`, from the archive this machine's
#      apt uses) holding trixie's `swiftlang` (Swift 6.0.3) and the headers Package.swift looks for
#      (OpenSSL, libqrencode, so the TLS targets are compiled too; libcurl for the integration tests).
#      Cached under /var/tmp/skan-mock-swift60; rebuilt when absent or incomplete (a marker file,
#      written last, lists what was installed);
#   3. makes this machine's local copies of Swift packages visible in it: each folder that git's
#      system config names in a `url.<folder>.insteadOf` setting is bind-mounted read-only at the same
#      path, and the same settings go into the chroot's /etc/gitconfig;
#   4. bind-mounts the repository at its own path and runs there
#      `swift build --build-tests --scratch-path .build-swift60`; prints the compiler's version and
#      either the compiler's errors (exit 1) or a last line saying it built with Swift 6.0.x.
# The mounts live in a private mount namespace (unshare) and a trap unmounts them on any exit.
#
#   Tests/OldestToolchain/run.sh
# Environment: SKAN_MOCK_SWIFT60_CACHE (default /var/tmp/skan-mock-swift60), SKAN_MOCK_DEBIAN_MIRROR
# (default: the URI of this machine's apt source for its own Debian release). Needs root (uses sudo
# otherwise). Runs share the chroot through a lock next to the cache: one creates, many build.
set -euo pipefail
here=$(cd "$(dirname "$0")" && pwd)
root=$(cd "$here/../.." && pwd)
script="$here/$(basename "$0")"

say() { printf 'oldest-toolchain: %s\n' "$*"; }
fail() {
    printf 'oldest-toolchain: FAIL: %s\n' "$*" >&2
    exit 1
}

# Root for debootstrap, mount and chroot; then a mount namespace of its own, so no mount outlives
# the run even when it is killed.
if [ "$(id -u)" -ne 0 ]; then
    exec sudo --preserve-env=SKAN_MOCK_SWIFT60_CACHE,SKAN_MOCK_DEBIAN_MIRROR bash "$script" "$@"
fi
if [ "${SKAN_MOCK_SWIFT60_UNSHARED:-}" != 1 ]; then
    export SKAN_MOCK_SWIFT60_UNSHARED=1
    exec unshare --mount --propagation private bash "$script" "$@"
fi
export PATH="$PATH:/usr/sbin:/sbin"

started=$(date +%s)
cache=${SKAN_MOCK_SWIFT60_CACHE:-/var/tmp/skan-mock-swift60}
rootfs="$cache/rootfs"
marker="$cache/ready"
suite=trixie
packages=(swiftlang libcurl4-openssl-dev libssl-dev libqrencode-dev pkg-config git ca-certificates)
scratch=.build-swift60

# --- 1. debootstrap ------------------------------------------------------------------------------
if ! command -v debootstrap >/dev/null 2>&1; then
    command -v apt-get >/dev/null 2>&1 || fail "debootstrap is missing and there is no apt-get to install it"
    say "installing debootstrap"
    apt-get update -qq
    DEBIAN_FRONTEND=noninteractive apt-get install -y -qq debootstrap </dev/null >/dev/null
fi

# --- mounts, undone on every exit ----------------------------------------------------------------
mounts=()
work=$(mktemp -d "${TMPDIR:-/tmp}/skan-mock-swift60.XXXXXX")
unmount_all() {
    local i
    for ((i = ${#mounts[@]} - 1; i >= 0; i--)); do
        umount "${mounts[i]}" 2>/dev/null || umount -l "${mounts[i]}" 2>/dev/null || true
    done
    mounts=()
}
cleanup() {
    unmount_all
    rm -rf "$work"
}
trap cleanup EXIT
trap 'exit 130' INT TERM

# bind_mount SOURCE [ro]: SOURCE at the same path inside the chroot.
bind_mount() {
    local target="$rootfs$1"
    mkdir -p "$target"
    mount --bind "$1" "$target"
    mounts+=("$target")
    if [ "${2:-}" = ro ]; then
        mount -o remount,bind,ro "$target" || fail "cannot make the bind mount of $1 read-only"
    fi
}

# The kernel file systems apt and swift need.
mount_system() {
    mkdir -p "$rootfs/proc" "$rootfs/dev"
    mount -t proc proc "$rootfs/proc"
    mounts+=("$rootfs/proc")
    mount --bind /dev "$rootfs/dev"
    mounts+=("$rootfs/dev")
}

# Nothing may be mounted under the chroot when it is deleted (a bound repository would go with it).
assert_nothing_mounted() {
    if awk -v p="$rootfs/" 'index($5, p) == 1 {found = 1} END {exit !found}' /proc/self/mountinfo; then
        fail "something is still mounted under $rootfs; not deleting it"
    fi
}

# The archive this machine's apt uses: the first source (deb822 or one-line) for the machine's own
# Debian release.
debian_mirror() {
    local codename
    codename=$(. /etc/os-release && printf '%s' "${VERSION_CODENAME:-}")
    [ -n "$codename" ] || return 0
    shopt -s nullglob
    local sources=(/etc/apt/sources.list.d/*.sources) lists=(/etc/apt/sources.list /etc/apt/sources.list.d/*.list)
    shopt -u nullglob
    {
        if [ ${#sources[@]} -gt 0 ]; then
            awk -v want="$codename" '
                function flush() {
                    if (!found && enabled != "no" && (" " types " ") ~ / deb / && (" " suites " ") ~ (" " want " ") && uri != "") {
                        print uri; found = 1
                    }
                    types = ""; suites = ""; uri = ""; enabled = ""
                }
                FNR == 1 { flush() }
                /^[ \t]*#/ { next }
                /^[ \t]*$/ { flush(); next }
                tolower($1) == "types:"   { $1 = ""; types = $0 }
                tolower($1) == "suites:"  { $1 = ""; suites = $0 }
                tolower($1) == "uris:"    { uri = $2 }
                tolower($1) == "enabled:" { enabled = tolower($2) }
                END { flush() }
            ' "${sources[@]}"
        fi
        for f in "${lists[@]}"; do
            [ -f "$f" ] || continue
            sed -e 's/\[[^]]*\]//' "$f" | awk -v want="$codename" '$1 == "deb" && $3 == want { print $2 }'
        done
    } | awk 'NR == 1' # reads all: `head` could end the pipe early, a failure under pipefail
}

# --- 2. the chroot, made once --------------------------------------------------------------------
# Shared lock while building; exclusive while (re)making the chroot. flock converts a lock by
# dropping it first, so the check is repeated once the exclusive lock is held.
mkdir -p "$(dirname "$cache")"
exec 9>>"$cache.lock"
flock -s -w 1800 9 || fail "could not lock $cache.lock within 30 minutes"
expected_marker="$suite ${packages[*]}"
chroot_ready() {
    [ -f "$marker" ] && [ "$(cat "$marker")" = "$expected_marker" ] && [ -x "$rootfs/usr/bin/swift-build" ]
}
if ! chroot_ready; then
    flock -x -w 1800 9 || fail "could not lock $cache.lock within 30 minutes"
    if ! chroot_ready; then
        t0=$(date +%s)
        mirror=${SKAN_MOCK_DEBIAN_MIRROR:-$(debian_mirror)}
        [ -n "$mirror" ] || fail "found no Debian source in /etc/apt; set SKAN_MOCK_DEBIAN_MIRROR"
        say "making the Debian $suite chroot in $rootfs (cached for the next runs; takes minutes)"
        rm -f "$marker"
        assert_nothing_mounted
        rm -rf "$rootfs"
        mkdir -p "$cache"
        timeout 1800 debootstrap --variant=minbase "$suite" "$rootfs" "$mirror" </dev/null \
            >"$work/debootstrap.log" 2>&1 || { tail -30 "$work/debootstrap.log" >&2; fail "debootstrap failed"; }
        cp /etc/resolv.conf "$rootfs/etc/resolv.conf" 2>/dev/null || true
        mount_system
        say "installing ${packages[*]} in the chroot"
        if ! chroot "$rootfs" /usr/bin/env -i PATH=/usr/sbin:/usr/bin:/sbin:/bin DEBIAN_FRONTEND=noninteractive \
            sh -c 'apt-get update -qq && apt-get install -y -qq --no-install-recommends "$@" && apt-get clean' \
            sh "${packages[@]}" </dev/null >"$work/apt.log" 2>&1; then
            tail -30 "$work/apt.log" >&2
            fail "installing ${packages[*]} in the chroot failed"
        fi
        unmount_all
        printf '%s\n' "$expected_marker" >"$marker.partial"
        mv "$marker.partial" "$marker"
        say "chroot made in $(($(date +%s) - t0)) s"
    fi
    flock -s -w 1800 9 || fail "could not lock $cache.lock within 30 minutes"
    chroot_ready || fail "the chroot in $rootfs is incomplete after making it"
fi
# Package.swift compiles the TLS targets when both headers exist; without them this check would
# silently skip the HTTPS code.
for header in /usr/include/openssl/ssl.h /usr/include/qrencode.h; do
    [ -e "$rootfs$header" ] || fail "the chroot has no $header, so the TLS targets would not be compiled"
done

# --- 3. this machine's Swift package copies ------------------------------------------------------
gitconfig="$work/gitconfig"
: >"$gitconfig"
folders=()
while read -r key value; do
    [ -n "$key" ] || continue
    folder=${key#url.}
    folder=${folder%.insteadof}
    git config --file "$gitconfig" --add "url.$folder.insteadOf" "$value"
    case $folder in
        file://*) folder=${folder#file://} ;;
        /*) ;;
        *) continue ;; # another URL: nothing to mount
    esac
    folder=${folder%/}
    [ -d "$folder" ] || fail "git's system config names $folder, which is not a folder"
    case " ${folders[*]-} " in *" $folder "*) ;; *) folders+=("$folder") ;; esac
done < <(git config --system --get-regexp '^url\..*\.insteadof$' 2>/dev/null || true)
cp "$gitconfig" "$rootfs/etc/gitconfig"

# --- 4. the build --------------------------------------------------------------------------------
mount_system
for folder in ${folders[@]+"${folders[@]}"}; do bind_mount "$folder" ro; done
bind_mount "$root"
if [ ${#folders[@]} -gt 0 ]; then say "local package copies: ${folders[*]}"; fi

in_chroot() {
    chroot "$rootfs" /usr/bin/env -i HOME=/root PATH=/usr/local/bin:/usr/bin:/bin:/usr/sbin:/sbin \
        LANG=C.UTF-8 TERM=dumb "$@" </dev/null
}
version_text=$(in_chroot swift --version 2>&1) || { printf '%s\n' "$version_text" >&2; fail "swift --version failed in the chroot"; }
printf '%s\n' "$version_text"
version=$(printf '%s\n' "$version_text" | grep -oE 'Swift version [0-9]+(\.[0-9]+)+' | head -n 1 | awk '{print $3}')
case $version in
    6.0 | 6.0.*) ;;
    *) fail "the chroot's compiler is Swift '${version:-unknown}', not 6.0.x" ;;
esac

say "swift build --build-tests --scratch-path $scratch (Swift $version)"
t0=$(date +%s)
if ! in_chroot bash -c 'cd "$1" && swift build --build-tests --scratch-path "$2"' _ "$root" "$scratch"; then
    fail "the package or its tests do not build with Swift $version (errors above)"
fi
if [ -n "${SUDO_UID:-}" ] && [ -d "$root/$scratch" ]; then
    chown -R "$SUDO_UID:${SUDO_GID:-$SUDO_UID}" "$root/$scratch"
fi
say "built the package and all its tests, TLS targets included, with Swift $version in $(($(date +%s) - t0)) s ($(($(date +%s) - started)) s in all)"
