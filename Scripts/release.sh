#!/usr/bin/env bash
# Scripts/release.sh: builds the release archive of skan-mock for the machine it runs on.
#
#   Scripts/release.sh [--version X.Y.Z] [--output DIR]
#
#   Linux x86_64 / aarch64  dist/skan-mock-X.Y.Z-linux-x86_64.tar.gz (or -linux-aarch64): a release
#                           build with the Swift runtime linked in (--static-swift-stdlib), HTTPS and
#                           --upstream compiled in; it still needs glibc, libstdc++, libcurl, OpenSSL 3
#                           and libqrencode from the system (named in the archive's README).
#   macOS                   dist/skan-mock-X.Y.Z-macos-universal.tar.gz: one binary for arm64 and
#                           x86_64 (swift build --arch arm64 --arch x86_64), HTTPS with OpenSSL 3 and
#                           libqrencode linked in statically from Homebrew's static libraries (Homebrew's
#                           bottles for macOS 14, one per architecture, joined with lipo: see
#                           static_tls below; SKAN_MOCK_TLS=static in Package.swift), --upstream with the system's libcurl. It then checks
#                           that `otool -L` names only system libraries (/usr/lib/, /System/) and that
#                           `skan-mock --https-port 0` starts. Never run on a Mac yet: Linux checks this
#                           branch with stubs for uname, brew, swift, lipo and otool
#                           (Tests/Release/macos-branch.sh).
#
# Each archive holds one folder, skan-mock-X.Y.Z-PLATFORM-ARCH/, with the binary `skan-mock`, the default
# models (config/), the licence when the repository has one (LICENSE) and README.md for the archive; a
# file ARCHIVE.sha256 (`sha256sum` / `shasum -a 256 -c` format) is written beside it.
#
# --version defaults to the version in the top-level VERSION file (which the binary reports:
# Sources/SKANMock/Version.swift matches it, a test checks); a different one is refused, and so is a
# binary that reports another, so that an archive's name and `skan-mock --version` always agree
# (release.yml passes the tag without its "v").
#
# Environment: SKAN_MOCK_RELEASE_SCRATCH (SwiftPM scratch path, default .build-release);
# SKAN_MOCK_RELEASE_SOURCE (build from this copy of Package.swift, Sources/ and Tests/ instead of the
# repository's: Tests/Release/run.sh points it at docker/test.sh's copy of the same sources, so that
# CI compiles the release binary once). The models, README and licence always come from the repository.
#
# macOS only: SKAN_MOCK_RELEASE_BOTTLE_TAGS, the Homebrew bottle tag for each architecture, default
# "arm64:arm64_sonoma x86_64:sonoma" (macOS 14, the binary's floor: a library built for a newer macOS
# could call what macOS 14 lacks).
#
# Bash 3.2 (a Mac's) is enough: no arrays declared empty under set -u, no GNU-only flags on macOS.
set -euo pipefail
cd "$(dirname "$0")/.."
root=$PWD
# shellcheck source=Scripts/lib.sh
. "$root/Scripts/lib.sh"

say() { printf 'release.sh: %s\n' "$*"; }
fail() {
    printf 'release.sh: %s\n' "$*" >&2
    exit 1
}

version=""
output=dist
while [ $# -gt 0 ]; do
    case $1 in
        --version) [ $# -ge 2 ] || fail "--version needs a value"; version=$2; shift 2 ;;
        --version=*) version=${1#--version=}; shift ;;
        --output) [ $# -ge 2 ] || fail "--output needs a value"; output=$2; shift 2 ;;
        --output=*) output=${1#--output=}; shift ;;
        -h | --help) sed -n '2,/^set -euo/p' "$0" | sed -e '$d' -e 's/^# \{0,1\}//'; exit 0 ;;
        *) fail "unknown argument '$1' (see --help)" ;;
    esac
done

source_version=$(skan_mock_version "$root") || fail "cannot read the version from VERSION"
version=${version#v}
if [ -z "$version" ]; then
    version=$source_version
elif [ "$version" != "$source_version" ]; then
    fail "--version $version differs from VERSION ($source_version): the binary would report $source_version; change VERSION and Sources/SKANMock/Version.swift first"
fi
case $version in
    *[!A-Za-z0-9._-]* | "") fail "version '$version' may hold only letters, digits, '.', '_' and '-'" ;;
esac

scratch=${SKAN_MOCK_RELEASE_SCRATCH:-.build-release}
case $scratch in /*) ;; *) scratch="$root/$scratch" ;; esac
source=${SKAN_MOCK_RELEASE_SOURCE:-$root}
case $source in /*) ;; *) source="$root/$source" ;; esac
[ -f "$source/Package.swift" ] || fail "no Package.swift in $source"

# static_tls DIR: DIR/include (OpenSSL 3's and libqrencode's headers) and DIR/lib (libssl.a,
# libcrypto.a and libqrencode.a, each with an arm64 and an x86_64 slice, and no .dylib), for the macOS
# build. Homebrew installs one architecture, built for the macOS it runs on; so each architecture's
# static libraries are taken from Homebrew's bottle for macOS 14 of that architecture (brew fetch
# --bottle-tag, which needs no second Homebrew), and lipo joins the two. The headers are the first
# tag's: OpenSSL 3's and libqrencode's public headers declare the same on both 64-bit architectures.
# libqrencode needs no other library (qrencode's libpng is for its command only); OpenSSL's libcrypto
# needs only libSystem.
static_tls() {
    local dir=$1 tags pair formula tag bottle unpacked lib slices found
    tags=${SKAN_MOCK_RELEASE_BOTTLE_TAGS:-"arm64:arm64_sonoma x86_64:sonoma"}
    command -v brew >/dev/null 2>&1 || fail "HTTPS in the macOS archive needs Homebrew (brew), for the static OpenSSL 3 and libqrencode"
    rm -rf "$dir"
    mkdir -p "$dir/include" "$dir/lib" "$dir/bottles"
    for formula in openssl@3 qrencode; do
        for pair in $tags; do
            tag=${pair#*:}
            brew fetch --quiet --force --bottle-tag="$tag" "$formula" >&2 \
                || fail "brew fetch --bottle-tag=$tag $formula failed: Homebrew has no such bottle for this version?"
            bottle=$(brew --cache --bottle-tag="$tag" "$formula")
            [ -f "$bottle" ] || fail "no bottle at $bottle (brew --cache --bottle-tag=$tag $formula)"
            unpacked="$dir/bottles/$formula-$tag"
            mkdir -p "$unpacked"
            tar -xzf "$bottle" -C "$unpacked" || fail "cannot unpack $bottle"
            # A bottle holds FORMULA/VERSION/{include,lib}.
            if [ "$pair" = "${tags%% *}" ]; then
                cp -R "$unpacked"/*/*/include/. "$dir/include/" || fail "$formula's bottle $tag has no include/"
            fi
        done
    done
    for lib in libssl.a libcrypto.a libqrencode.a; do
        slices=""
        for pair in $tags; do
            tag=${pair#*:}
            for found in "$dir"/bottles/*-"$tag"/*/*/lib/"$lib"; do
                [ -f "$found" ] || fail "Homebrew's bottle $tag has no $lib (static library)"
                slices="$slices $found"
            done
        done
        # shellcheck disable=SC2086 # one path per word: the bottles' paths hold no spaces of their own
        lipo -create $slices -output "$dir/lib/$lib" || fail "lipo -create $lib failed"
        for pair in $tags; do
            case " $(lipo -archs "$dir/lib/$lib") " in
                *" ${pair%%:*} "*) ;;
                *) fail "$lib lacks ${pair%%:*} after lipo: $(lipo -archs "$dir/lib/$lib")" ;;
            esac
        done
    done
    [ -f "$dir/include/openssl/ssl.h" ] || fail "no openssl/ssl.h in openssl@3's bottle"
    [ -f "$dir/include/qrencode.h" ] || fail "no qrencode.h in qrencode's bottle"
    say "static OpenSSL 3 and libqrencode for $tags in ${dir#"$root"/}/lib"
}

# only_system_libraries: standard input is `otool -L BINARY`; fails unless every library it names is
# the system's (/usr/lib/, /System/): a library from Homebrew (/opt/homebrew, /usr/local), @rpath or
# anywhere else would be missing on a user's Mac. otool's lines naming the binary (one per
# architecture, "BINARY (architecture arm64):") are not libraries.
only_system_libraries() {
    local listing others
    listing=$(cat)
    others=$(printf '%s\n' "$listing" | grep '^[[:space:]]' | sed 's/^[[:space:]]*//; s/ (compatibility version.*//' \
        | grep -v '^/usr/lib/' | grep -v '^/System/' || true)
    [ -z "$others" ] || fail "the binary links libraries outside the system:
$others
(otool -L:
$listing)"
    printf '%s\n' "$listing" | grep -q '^[[:space:]]*/usr/lib/libSystem' \
        || fail "otool -L names no /usr/lib/libSystem: not a list of libraries? $listing"
}

# starts_https BINARY: the binary serves HTTPS: `--port 0 --https-port 0`, with a fresh state folder
# (its local CA), prints its https:// listening line within 30 s; then it is stopped with SIGTERM
# and must exit 0.
starts_https() {
    local binary=$1 state log pid waited=0
    state=$(mktemp -d "${TMPDIR:-/tmp}/skan-mock-release-state.XXXXXX")
    log="$state/out.log"
    "$binary" --port 0 --https-port 0 --state-dir "$state/ca" >"$log" 2>&1 &
    pid=$!
    until grep -q '^skan-mock listening on https://' "$log"; do
        if ! kill -0 "$pid" 2>/dev/null; then
            fail "skan-mock --https-port 0 stopped before it listened: $(cat "$log")"
        fi
        if [ "$waited" -ge 300 ]; then
            kill "$pid" 2>/dev/null || true
            fail "skan-mock --https-port 0 printed no https:// listening line within 30 s: $(cat "$log")"
        fi
        sleep 0.1
        waited=$((waited + 1))
    done
    skan_mock_stop_child "$pid" || fail "skan-mock --https-port 0 exited $? on SIGTERM: $(cat "$log")"
    say "it serves HTTPS: $(grep '^skan-mock listening on https://' "$log")"
    rm -rf "$state"
}

os=$(uname -s)
machine=$(uname -m)
case $os in
    Linux)
        case $machine in
            x86_64 | amd64) arch=x86_64 ;;
            aarch64 | arm64) arch=aarch64 ;;
            *) fail "no release archive is made for Linux on $machine (x86_64 and aarch64 only)" ;;
        esac
        platform=linux
        # The release must have HTTPS and --upstream: without their headers Package.swift quietly
        # leaves them out, so they are checked first rather than found missing by a user.
        missing=""
        [ -e /usr/include/openssl/ssl.h ] || missing="$missing libssl-dev"
        [ -e /usr/include/qrencode.h ] || missing="$missing libqrencode-dev"
        if [ ! -e /usr/include/curl/curl.h ] && ! ls /usr/include/*/curl/curl.h >/dev/null 2>&1; then
            missing="$missing libcurl4-openssl-dev"
        fi
        command -v pkg-config >/dev/null 2>&1 || missing="$missing pkg-config"
        [ -z "$missing" ] || fail "missing for a release build (Debian names):$missing; apt-get install them and retry"
        # The Dockerfile's build command, word for word (Tests/Release/run.sh checks it): the archive's
        # binary is the image's. Package.swift compiles HTTPS in on Linux when the headers above exist.
        build=(swift build -c release --static-swift-stdlib --product skan-mock -Xlinker -s)
        unset SKAN_MOCK_TLS
        ;;
    Darwin)
        arch=universal
        platform=macos
        # HTTPS needs OpenSSL 3 and libqrencode, which macOS does not have: they are linked in from
        # static libraries, so the binary needs nothing from Homebrew. SKAN_MOCK_TLS=static tells
        # Package.swift to build TLS without pkg-config and with module maps that name no library (no
        # -lssl that the linker could answer with a .dylib found first on a search path); the build
        # names the headers (-I, to the C compiler and to swiftc's Clang importer both: SwiftPM's native
        # build and the Xcode build system that --arch uses pass the two differently) and each static
        # library by its path (-Xlinker PATH.a), from the folder static_tls fills.
        tls_dir="$scratch/static-tls"
        static_tls "$tls_dir"
        build=(swift build -c release --arch arm64 --arch x86_64 --product skan-mock -Xlinker -dead_strip
            -Xcc "-I$tls_dir/include" -Xswiftc "-I$tls_dir/include"
            -Xlinker "$tls_dir/lib/libssl.a" -Xlinker "$tls_dir/lib/libcrypto.a" -Xlinker "$tls_dir/lib/libqrencode.a")
        export SKAN_MOCK_TLS=static
        ;;
    *) fail "no release archive is made for $os (Linux and macOS only)" ;;
esac

name="skan-mock-$version-$platform-$arch"
say "building $name in ${source#"$root"/}: ${build[*]} (scratch ${scratch#"$root"/})"
t0=$(date +%s)
# The manifest is read anew so that the plan matches SKAN_MOCK_TLS and the headers installed now.
(cd "$source" && "${build[@]}" --scratch-path "$scratch" --manifest-cache none --disable-build-manifest-caching) \
    || fail "swift build failed"
binary="$(cd "$source" && "${build[@]}" --scratch-path "$scratch" --show-bin-path)/skan-mock"
[ -x "$binary" ] || fail "no binary at $binary"
say "built in $(( $(date +%s) - t0 )) s"

# What the binary must be before it is shipped.
case $platform in
    linux)
        libraries=$(ldd "$binary")
        if grep -q 'libswiftCore\|libFoundation\|libdispatch' <<<"$libraries"; then
            fail "the Swift runtime is not linked statically: $libraries"
        fi
        for lib in libssl.so.3 libqrencode libcurl; do
            grep -q "$lib" <<<"$libraries" || fail "the binary does not link $lib: HTTPS or --upstream would be missing"
        done
        # The newest glibc symbol version the binary asks for: the oldest glibc it runs on.
        glibc=$(objdump -T "$binary" | grep -oE 'GLIBC_[0-9]+\.[0-9]+' | sed 's/GLIBC_//' | sort -t . -k 1,1n -k 2,2n | tail -n 1)
        [ -n "$glibc" ] || fail "cannot read the glibc versions the binary needs (objdump -T)"
        ;;
    macos)
        archs=$(lipo -archs "$binary")
        case " $archs " in *" arm64 "*) ;; *) fail "the binary lacks arm64 ($archs)" ;; esac
        case " $archs " in *" x86_64 "*) ;; *) fail "the binary lacks x86_64 ($archs)" ;; esac
        linked=$(otool -L "$binary") || fail "otool -L $binary failed"
        only_system_libraries <<<"$linked"
        ;;
esac
reported=$("$binary" --version)
[ "$reported" = "$version" ] || fail "the binary reports version '$reported', not $version"
if [ "$platform" = macos ]; then starts_https "$binary"; fi

# --- the archive's folder ------------------------------------------------------------------------
mkdir -p "$output"
case $output in /*) ;; *) output="$root/$output" ;; esac
stage=$(mktemp -d "${TMPDIR:-/tmp}/skan-mock-release.XXXXXX")
trap 'rm -rf "$stage"' EXIT
dir="$stage/$name"
mkdir -p "$dir"
cp "$binary" "$dir/skan-mock"
chmod 0755 "$dir/skan-mock"
cp -R config "$dir/config"
licence=""
for candidate in LICENSE LICENSE.md LICENSE.txt COPYING; do
    if [ -f "$candidate" ]; then licence=$candidate; break; fi
done
if [ -n "$licence" ]; then
    cp "$licence" "$dir/$licence"
else
    say "warning: the repository has no LICENSE file, so the archive has none"
fi

case $platform in
    linux)
        requirements="A Linux on $arch with glibc $glibc or later (Debian 12 has 2.36, Ubuntu 22.04 2.35, Ubuntu 24.04
2.39), and these libraries from its packages (the Swift runtime is inside the binary):

| library | Debian, Ubuntu | Fedora, RHEL |
|---|---|---|
| libcurl (\`--upstream\`) | \`libcurl4\` | \`libcurl\` |
| OpenSSL 3 (HTTPS) | \`libssl3\` | \`openssl-libs\` |
| libqrencode (the phone set-up page's QR codes) | \`libqrencode4\` | \`qrencode-libs\` |
| the C++ runtime | \`libstdc++6\` | \`libstdc++\` |

\`\`\`sh
sudo apt-get install -y libcurl4 libssl3 libqrencode4 libstdc++6   # Debian 12
\`\`\`

(Ubuntu 24.04 names two of them with \`t64\`: \`libssl3t64\`, \`libcurl4t64\`.)
\`ldd ./skan-mock\` names any that is missing."
        ;;
    macos)
        requirements="macOS 14 or later, on Apple silicon or Intel (one universal binary). Nothing to install: it links
only the system's libraries (libcurl for \`--upstream\` among them), and OpenSSL 3 and libqrencode are
inside it, so it serves HTTPS (\`--https-port\`, a real iPhone: docs/iphone-https.md).

macOS keeps a downloaded file in quarantine: a binary fetched by a browser is refused until
\`xattr -d com.apple.quarantine ./skan-mock\` (curl and Homebrew do not set the flag)."
        ;;
esac

if [ -n "$licence" ]; then
    licence_line="The licence is in \`$licence\`."
else
    licence_line="The repository this archive was made from has no licence file yet."
fi

cat >"$dir/README.md" <<EOF
# skan-mock $version ($platform, $arch)

A local stand-in for Singular's SKAdNetwork conversion-value service. This archive holds:

- \`skan-mock\`: the server and its commands (\`skan-mock --help\`), one file;
- \`config/\`: the bundled conversion models (\`./skan-mock --model config/revenue.json\`);
- \`README.md\`: this file. $licence_line

## Needs

$requirements

## Start it

\`\`\`sh
./skan-mock          # the bundled testing model, at http://127.0.0.1:8080
\`\`\`

It prints \`skan-mock listening on http://127.0.0.1:8080\` when it is ready. In another terminal:

\`\`\`sh
curl 'http://127.0.0.1:8080/api/v1/conversion_value?a=KEY&i=com.example.app&p=iOS&idfv=DEVICE-1&n=level_up&conversion_value=0'
# {"conversion_value":1,"status":"ok"}
./skan-mock health   # exit 0 while the server answers
\`\`\`

The QA console is at http://127.0.0.1:8080/__admin/ui. Put \`skan-mock\` on your PATH (copy it to
\`/usr/local/bin\` or \`~/.local/bin\`) to run it from anywhere; the documentation is the repository's
\`docs/\` folder (docs/install.md, docs/testing-your-app.md, docs/command-line.md).

Check the archive against the checksum published beside it:
\`sha256sum -c $name.tar.gz.sha256\` (Linux) or \`shasum -a 256 -c $name.tar.gz.sha256\` (macOS).
EOF

# --- the archive and its checksum --------------------------------------------------------------------
archive="$output/$name.tar.gz"
rm -f "$archive" "$archive.sha256"
# Owner and group are not kept (a user's tar would otherwise try to restore them).
# Read whole before grep looks: under pipefail `tar --version | grep -q` can fail when grep stops early.
tar_version=$(tar --version 2>/dev/null || true)
if grep -q 'GNU tar' <<<"$tar_version"; then
    tar -C "$stage" --owner=0 --group=0 --numeric-owner -czf "$archive" "$name"
else
    tar -C "$stage" --uid 0 --gid 0 -czf "$archive" "$name"
fi
(cd "$output" && printf '%s  %s\n' "$(skan_mock_sha256 "$name.tar.gz")" "$name.tar.gz" >"$name.tar.gz.sha256")
say "wrote $archive ($(du -h "$archive" | cut -f1)) and $name.tar.gz.sha256: $(cut -d ' ' -f 1 "$archive.sha256")"
