#!/usr/bin/env bash
# docker/base-image.sh: podman and a Debian bookworm base image made without a registry, for the tests
# that run skan-mock in a container on a machine with no Docker engine and no image registry
# (docker/test.sh, Tests/Release/run.sh). Sourced, not run: the caller defines say and fail, then calls
#   base_image_tools   installs podman, runc, debootstrap and curl when missing (apt-get); sets the
#                      array podman=(podman --runtime runc --cgroup-manager=cgroupfs)
#   base_image_lock    one run at a time on a machine (a lock next to the cache, on descriptor 9, held
#                      until the caller exits): runs share the base cache and the image tags
#   base_image_ready   makes $base_image (localhost/skan-mock-base): a bookworm made with debootstrap,
#                      slimmed like debian:bookworm-slim, cached as a tar under $base_cache and
#                      imported into podman when podman does not have it
# Environment: SKAN_MOCK_BASE_CACHE (default /var/tmp/skan-mock-base), SKAN_MOCK_DEBIAN_MIRROR
# (default: none, so debootstrap uses its own default mirror). Logs go to $work when the caller sets
# it, else to a temporary file.

base_image=localhost/skan-mock-base
base_cache=${SKAN_MOCK_BASE_CACHE:-/var/tmp/skan-mock-base}
# The repository names no package registry: debootstrap picks its own mirror unless told one.
mirror=${SKAN_MOCK_DEBIAN_MIRROR:-}
sudo=""
[ "$(id -u)" -ne 0 ] && sudo="sudo"

base_image_tools() {
    local missing=()
    command -v podman >/dev/null 2>&1 || missing+=(podman)
    command -v runc >/dev/null 2>&1 || [ -x /usr/sbin/runc ] || missing+=(runc)
    command -v debootstrap >/dev/null 2>&1 || [ -x /usr/sbin/debootstrap ] || missing+=(debootstrap)
    command -v curl >/dev/null 2>&1 || missing+=(curl)
    if [ ${#missing[@]} -gt 0 ]; then
        command -v apt-get >/dev/null 2>&1 || fail "missing ${missing[*]}; install podman, runc and debootstrap"
        say "installing ${missing[*]}"
        $sudo apt-get update -qq
        DEBIAN_FRONTEND=noninteractive $sudo apt-get install -y -qq podman runc debootstrap curl >/dev/null
    fi
    export PATH="$PATH:/usr/sbin:/sbin"
    podman=(podman --runtime runc --cgroup-manager=cgroupfs)
}

base_image_lock() {
    $sudo mkdir -p "$base_cache"
    exec 9>>"$base_cache.lock"
    flock -w 900 9 || fail "another container test still holds $base_cache.lock after 15 minutes"
}

base_image_ready() {
    local t0 rootfs log
    log=${work:-${TMPDIR:-/tmp}}/debootstrap.log
    t0=$(date +%s)
    if [ ! -s "$base_cache/rootfs.tar" ]; then
        say "making the bookworm base with debootstrap into $base_cache (cached for the next runs)"
        $sudo mkdir -p "$base_cache"
        rootfs="$base_cache/rootfs.partial"
        $sudo rm -rf "$rootfs" "$base_cache/rootfs.tar.partial"
        timeout 900 $sudo debootstrap --variant=minbase bookworm "$rootfs" ${mirror:+"$mirror"} \
            >"$log" 2>&1 || { tail -20 "$log" >&2; fail "debootstrap failed"; }
        # Slim it the way debian:bookworm-slim is: no package caches, lists, docs, man pages, locales,
        # and dpkg told to keep them out of later installs.
        $sudo tee "$rootfs/etc/dpkg/dpkg.cfg.d/docker-slim" >/dev/null <<'EOF'
path-exclude /usr/share/doc/*
path-include /usr/share/doc/*/copyright
path-exclude /usr/share/man/*
path-exclude /usr/share/groff/*
path-exclude /usr/share/info/*
path-exclude /usr/share/locale/*
path-exclude /usr/share/lintian/*
path-exclude /usr/share/linda/*
EOF
        $sudo tee "$rootfs/etc/apt/apt.conf.d/docker-clean" >/dev/null <<'EOF'
DPkg::Post-Invoke { "rm -f /var/cache/apt/archives/*.deb /var/cache/apt/archives/partial/*.deb /var/cache/apt/*.bin || true"; };
APT::Update::Post-Invoke { "rm -f /var/cache/apt/archives/*.deb /var/cache/apt/archives/partial/*.deb /var/cache/apt/*.bin || true"; };
Dir::Cache::pkgcache "";
Dir::Cache::srcpkgcache "";
EOF
        $sudo rm -rf "$rootfs"/var/cache/apt/archives/*.deb "$rootfs"/var/cache/apt/*.bin \
            "$rootfs"/var/lib/apt/lists/* "$rootfs"/var/log/* "$rootfs"/debootstrap
        $sudo find "$rootfs/usr/share/doc" -mindepth 1 -not -name copyright -not -type d -delete
        $sudo find "$rootfs/usr/share/doc" -mindepth 1 -type d -empty -delete
        $sudo rm -rf "$rootfs"/usr/share/man/* "$rootfs"/usr/share/info/* "$rootfs"/usr/share/locale/* \
            "$rootfs"/usr/share/groff/* "$rootfs"/usr/share/lintian/*
        $sudo tar -C "$rootfs" --numeric-owner -cf "$base_cache/rootfs.tar.partial" .
        $sudo mv "$base_cache/rootfs.tar.partial" "$base_cache/rootfs.tar"
        $sudo rm -rf "$rootfs"
        timeout 120 "${podman[@]}" rmi -f "$base_image" >/dev/null 2>&1 || true
    fi
    if ! "${podman[@]}" image exists "$base_image"; then
        say "importing $base_cache/rootfs.tar as $base_image"
        timeout 300 "${podman[@]}" import "$base_cache/rootfs.tar" "$base_image" >/dev/null
    fi
    say "base image ready in $(( $(date +%s) - t0 )) s"
}

# A free port on 127.0.0.1 for a container on the host's network, below Linux's ephemeral range
# (32768 and up by default): a port picked there can become the source port of an outgoing
# connection before the container binds it. Prints it, or nothing when none was found; never
# prints the port given as its argument (one picked already and not yet bound).
free_port() {
    local candidate
    for _ in $(seq 1 50); do
        candidate=$(( 20000 + RANDOM % 12000 ))
        if [ "$candidate" != "${1:-}" ] && ! (exec 3<>"/dev/tcp/127.0.0.1/$candidate") 2>/dev/null; then
            echo "$candidate"
            return
        fi
    done
}
