#!/usr/bin/env bash
# Tests/Release/macos-branch.sh: Scripts/release.sh's macOS branch, as far as Linux can check it. No Mac
# runs here, so the script runs under a pretend macOS: stubs first on PATH for uname (Darwin, arm64),
# brew (fetch and --cache of bottles it makes itself), lipo, swift and otool, each recording its
# arguments. The swift stub "builds" a stand-in binary (a shell script answering --version and
# printing the listening lines). Checks:
#
#   1. the static libraries: both bottles (arm64_sonoma, sonoma) of openssl@3 and qrencode are fetched,
#      lipo joins each static library's two slices, and the folder they are linked from holds libssl.a,
#      libcrypto.a and libqrencode.a with no .dylib;
#   2. the build: SKAN_MOCK_TLS=static, --arch arm64 --arch x86_64, -I to those headers (for the C
#      compiler and swiftc) and each static library by its path (-Xlinker .../libssl.a);
#   3. the otool check: a binary listing only /usr/lib/ and /System/ passes, and the archive is made
#      with a README saying it serves HTTPS; one listing /opt/homebrew/... (or @rpath) is refused, and
#      no archive is made;
#   4. the HTTPS start: `--https-port 0` is started, its https:// listening line awaited and the
#      process stopped; a binary that never prints one (a build without TLS) is refused.
#
# What it cannot check: that Apple's linker picks the .a files, that Homebrew has these bottles, that
# the binary runs on macOS 14. Prints "Tests/Release/macos-branch.sh: passed ..." or fails with "FAIL".
set -euo pipefail
cd "$(dirname "$0")/../.."
root=$PWD
say() { printf 'Tests/Release/macos-branch.sh: %s\n' "$*"; }
fail() {
    printf 'Tests/Release/macos-branch.sh: FAIL: %s\n' "$*" >&2
    exit 1
}

work=$(mktemp -d "${TMPDIR:-/tmp}/skan-mock-macos-branch.XXXXXX")
trap 'rm -rf "$work"' EXIT
stubs="$work/stubs"
mkdir -p "$stubs" "$work/bottles"
# shellcheck source=Scripts/lib.sh
. Scripts/lib.sh
version=$(skan_mock_version .) || fail "cannot read the version from VERSION"

# --- the pretend Homebrew bottles: FORMULA/VERSION/{include,lib}, with .dylib files that must be left out
bottle() { # formula tag
    local formula=$1 tag=$2 top
    top="$work/bottle-src/$formula-$tag"
    if [ "$formula" = openssl@3 ]; then
        mkdir -p "$top/openssl@3/3.6.0/include/openssl" "$top/openssl@3/3.6.0/lib"
        echo "/* ssl.h from $tag */" >"$top/openssl@3/3.6.0/include/openssl/ssl.h"
        for lib in libssl libcrypto; do
            echo "$lib.a $tag" >"$top/openssl@3/3.6.0/lib/$lib.a"
            echo "$lib.3.dylib $tag" >"$top/openssl@3/3.6.0/lib/$lib.3.dylib"
        done
    else
        mkdir -p "$top/qrencode/4.1.1/include" "$top/qrencode/4.1.1/lib"
        echo "/* qrencode.h from $tag */" >"$top/qrencode/4.1.1/include/qrencode.h"
        echo "libqrencode.a $tag" >"$top/qrencode/4.1.1/lib/libqrencode.a"
        echo "libqrencode.4.dylib $tag" >"$top/qrencode/4.1.1/lib/libqrencode.4.dylib"
    fi
    tar -czf "$work/bottles/$formula--$tag.bottle.tar.gz" -C "$top" .
}
for formula in openssl@3 qrencode; do
    for tag in arm64_sonoma sonoma; do bottle "$formula" "$tag"; done
done

# --- the stubs ------------------------------------------------------------------------------------
cat >"$stubs/uname" <<'EOF'
#!/bin/sh
case $1 in -m) echo arm64 ;; *) echo Darwin ;; esac
EOF
cat >"$stubs/brew" <<EOF
#!/bin/sh
echo "brew \$*" >>"$work/brew.log"
tag=""; formula=""
for a in "\$@"; do
    case \$a in --bottle-tag=*) tag=\${a#--bottle-tag=} ;; -*|fetch) ;; *) formula=\$a ;; esac
done
case \$1 in
    fetch) [ -f "$work/bottles/\$formula--\$tag.bottle.tar.gz" ] ;;
    --cache) echo "$work/bottles/\$formula--\$tag.bottle.tar.gz" ;;
    *) echo "brew stub: \$*" >&2; exit 1 ;;
esac
EOF
# lipo -create A B -output OUT joins its inputs; lipo -archs FILE names the slices of a joined file.
cat >"$stubs/lipo" <<EOF
#!/bin/sh
echo "lipo \$*" >>"$work/lipo.log"
case \$1 in
    -create)
        shift; inputs=""
        while [ \$# -gt 0 ]; do
            case \$1 in -output) out=\$2; shift 2 ;; *) inputs="\$inputs \$1"; shift ;; esac
        done
        cat \$inputs >"\$out" ;;
    -archs)
        case \$2 in */skan-mock) echo "x86_64 arm64"; exit 0 ;; esac  # the build's binary
        archs=""
        grep -q ' arm64_sonoma\$' "\$2" && archs="arm64"
        grep -q ' sonoma\$' "\$2" && archs="\$archs x86_64"
        echo \$archs ;;
esac
EOF
# The stand-in binary: --version; the server prints its listening lines (the https one unless
# STUB_NO_HTTPS) and runs until SIGTERM.
cat >"$work/fake-skan-mock" <<EOF
#!/bin/sh
echo "skan-mock \$*" >>"$work/binary.log"
case \$1 in --version) echo "$version"; exit 0 ;; esac
echo "skan-mock listening on http://127.0.0.1:50001"
if [ -n "\${STUB_NO_HTTPS:-}" ]; then echo "--https-port: this build has no TLS support" >&2; exit 2; fi
echo "skan-mock listening on https://127.0.0.1:50002"
trap 'exit 0' TERM
while :; do sleep 0.05; done
EOF
cat >"$stubs/swift" <<EOF
#!/bin/sh
echo "SKAN_MOCK_TLS=\${SKAN_MOCK_TLS:-unset} swift \$*" >>"$work/swift.log"
scratch=""; prev=""
for a in "\$@"; do [ "\$prev" = --scratch-path ] && scratch=\$a; prev=\$a; done
case " \$* " in
    *" --show-bin-path "*) echo "\$scratch/apple/Products/Release" ;;
    *) mkdir -p "\$scratch/apple/Products/Release"; cp "$work/fake-skan-mock" "\$scratch/apple/Products/Release/skan-mock" ;;
esac
EOF
# otool -L BINARY prints STUB_OTOOL (its library lines), under one header line per architecture.
cat >"$stubs/otool" <<'EOF'
#!/bin/sh
printf '%s (architecture arm64):\n%s\n%s (architecture x86_64):\n%s\n' "$2" "$STUB_OTOOL" "$2" "$STUB_OTOOL"
EOF
chmod +x "$stubs"/* "$work/fake-skan-mock"

system_libraries="	/usr/lib/libcurl.4.dylib (compatibility version 7.0.0, current version 9.0.0)
	/System/Library/Frameworks/Foundation.framework/Versions/C/Foundation (compatibility version 300.0.0, current version 3423.0.0)
	/usr/lib/libSystem.B.dylib (compatibility version 1.0.0, current version 1351.0.0)
	/usr/lib/swift/libswiftCore.dylib (compatibility version 1.0.0, current version 6.2.0)"

release() { # NAME: runs release.sh under the stubs, its output in $work/NAME.out; returns its status
    local name=$1
    rm -f "$work"/*.log
    PATH="$stubs:$PATH" SKAN_MOCK_RELEASE_SCRATCH="$work/scratch-$name" \
        timeout 120 bash Scripts/release.sh --output "$work/dist-$name" >"$work/$name.out" 2>&1
}

# --- 1, 2, 3: a binary with only the system's libraries ------------------------------------------------
STUB_OTOOL=$system_libraries release good || { cat "$work/good.out" >&2; fail "release.sh failed on a binary listing only system libraries"; }
tls="$work/scratch-good/static-tls"
for formula in openssl@3 qrencode; do
    for tag in arm64_sonoma sonoma; do
        grep -q -- "^brew fetch .*--bottle-tag=$tag $formula\$" "$work/brew.log" || fail "no brew fetch of $formula's $tag bottle: $(cat "$work/brew.log")"
    done
done
for lib in libssl.a libcrypto.a libqrencode.a; do
    grep -q -- "^lipo -create .*-arm64_sonoma/.*/lib/$lib .*-sonoma/.*/lib/$lib -output $tls/lib/$lib\$" "$work/lipo.log" \
        || fail "lipo did not join both slices of $lib: $(cat "$work/lipo.log")"
    [ "$(cat "$tls/lib/$lib")" = "$lib arm64_sonoma
$lib sonoma" ] || fail "$tls/lib/$lib is not the two bottles' $lib: $(cat "$tls/lib/$lib")"
done
[ "$(find "$tls/lib" -mindepth 1 -exec basename {} \; | sort | tr '\n' ' ')" = "libcrypto.a libqrencode.a libssl.a " ] \
    || fail "the linker's folder holds more than the three static libraries: $(ls "$tls/lib")"
if [ ! -f "$tls/include/openssl/ssl.h" ] || [ ! -f "$tls/include/qrencode.h" ]; then fail "the headers are not in $tls/include"; fi
say "1. both bottles (arm64_sonoma, sonoma) of openssl@3 and qrencode fetched; libssl.a, libcrypto.a, libqrencode.a joined by lipo, no .dylib beside them"

build=$(grep -v -- '--show-bin-path' "$work/swift.log" | head -n 1)
for flag in "SKAN_MOCK_TLS=static swift build -c release" "--arch arm64 --arch x86_64" "-Xlinker -dead_strip" \
    "-Xcc -I$tls/include" "-Xswiftc -I$tls/include" "-Xlinker $tls/lib/libssl.a" "-Xlinker $tls/lib/libcrypto.a" \
    "-Xlinker $tls/lib/libqrencode.a" "--manifest-cache none"; do
    case " $build " in *" $flag "*) ;; *) fail "the build lacks '$flag': $build" ;; esac
done
say "2. the build: ${build#SKAN_MOCK_TLS=static swift build }"

archive="$work/dist-good/skan-mock-$version-macos-universal.tar.gz"
if [ ! -f "$archive" ] || [ ! -f "$archive.sha256" ]; then fail "no archive: $(ls "$work/dist-good" 2>&1)"; fi
readme=$(tar -xzOf "$archive" "skan-mock-$version-macos-universal/README.md")
grep -q 'so it serves HTTPS' <<<"$readme" || fail "the archive's README does not say it serves HTTPS: $readme"
grep -qi 'plain HTTP' <<<"$readme" && fail "the archive's README still says plain HTTP: $readme"
grep -q -- '--https-port 0' "$work/binary.log" || fail "the binary was not started with --https-port 0: $(cat "$work/binary.log")"
grep -q 'it serves HTTPS: skan-mock listening on https://' "$work/good.out" || fail "release.sh did not report the HTTPS start: $(cat "$work/good.out")"
say "3, 4. only /usr/lib and /System: accepted; --https-port 0 started, its https:// line seen, stopped; archive made, its README says HTTPS"

# --- 3: libraries outside the system are refused ----------------------------------------------------------
for outside in "	/opt/homebrew/opt/openssl@3/lib/libssl.3.dylib (compatibility version 3.0.0, current version 3.0.0)" \
    "	/usr/local/opt/qrencode/lib/libqrencode.4.dylib (compatibility version 5.0.0, current version 5.2.0)" \
    "	@rpath/libswiftCompatibilitySpan.dylib (compatibility version 1.0.0, current version 6.2.0)"; do
    name=outside
    if STUB_OTOOL="$system_libraries
$outside" release "$name"; then
        fail "release.sh accepted a binary linking $outside"
    fi
    library=$(sed 's/^[[:space:]]*//; s/ (compat.*//' <<<"$outside")
    if ! grep -q "the binary links libraries outside the system" "$work/$name.out" || ! grep -qF "$library" "$work/$name.out"; then
        fail "release.sh failed without naming $library: $(cat "$work/$name.out")"
    fi
    [ -z "$(ls "$work/dist-$name" 2>/dev/null)" ] || fail "an archive was made although $library is linked"
    rm -rf "$work/scratch-$name" "$work/dist-$name"
done
say "3. /opt/homebrew/..., /usr/local/... and @rpath/... libraries refused by name, no archive made"

# --- 4: a binary without TLS is refused ------------------------------------------------------------------
if STUB_NO_HTTPS=1 STUB_OTOOL=$system_libraries release nohttps; then
    fail "release.sh accepted a binary that does not serve HTTPS"
fi
grep -q 'stopped before it listened' "$work/nohttps.out" || fail "release.sh did not say why: $(cat "$work/nohttps.out")"
[ -z "$(ls "$work/dist-nohttps" 2>/dev/null)" ] || fail "an archive was made from a binary without HTTPS"
say "4. a binary that prints no https:// listening line is refused, no archive made"
say "passed (a pretend macOS: Apple's linker, Homebrew's bottles and a real Mac are not checked here)"
cd "$root"
