#!/usr/bin/env bash
# Tests/Formula/check.sh: Formula/skan-mock.rb as far as a Linux machine without Homebrew can check it.
#
#   1. ruby -c, and the formula as committed loads (Tests/Formula/harness.rb stands in for Homebrew's
#      DSL): its homepage and HEAD url name this repository (OWNER/skan-mock until a release fills it
#      in), and its release lines are either none (before the first release) or those that
#      Scripts/formula.sh writes for the version in VERSION;
#   2. the names agree with Scripts/release.sh's: its Linux archive made here is
#      skan-mock-VERSION-linux-ARCH.tar.gz with a .sha256 in `sha256sum` format, and its macOS branch
#      names skan-mock-VERSION-macos-universal (the archive the formula downloads);
#   3. Scripts/formula.sh, given that release (a stand-in for the macOS archive: the Linux one's files
#      under the macOS name, since no Mac builds here), writes a formula whose url, version and sha256
#      are the archive's, at the address release.yml attaches it to, and --check accepts it;
#   4. that formula's `install` runs on the stand-in archive and its `test do` block passes against
#      what it installed (the Linux binary: the server started, health, the README's curl).
# Installs ruby with apt-get when missing. Prints "Tests/Formula/check.sh: passed" or fails.
set -euo pipefail
cd "$(dirname "$0")/../.."
say() { printf 'Tests/Formula/check.sh: %s\n' "$*"; }
fail() {
    printf 'Tests/Formula/check.sh: FAIL: %s\n' "$*" >&2
    exit 1
}

if ! command -v ruby >/dev/null 2>&1; then
    command -v apt-get >/dev/null 2>&1 || fail "ruby is missing: install it and retry"
    sudo=""
    [ "$(id -u)" -ne 0 ] && sudo="sudo"
    say "installing ruby"
    $sudo apt-get update -qq
    DEBIAN_FRONTEND=noninteractive $sudo apt-get install -y -qq ruby >/dev/null
fi
work=$(mktemp -d "${TMPDIR:-/tmp}/skan-mock-formula.XXXXXX")
trap 'rm -rf "$work"' EXIT

formula=Formula/skan-mock.rb
# shellcheck source=Scripts/lib.sh
. Scripts/lib.sh
version=$(skan_mock_version .) || fail "cannot read the version from VERSION"
spec() { ruby Tests/Formula/harness.rb spec "$1"; }
field() { ruby -rjson -e 'v = JSON.parse(STDIN.read).dig(*ARGV); puts v.is_a?(String) ? v : v.to_json' "$@"; }

# --- 1. as committed ---------------------------------------------------------------------------------
ruby -c "$formula" >/dev/null || fail "ruby -c $formula"
committed=$(spec "$formula") || fail "$formula does not load"
repository=$(field homepage <<<"$committed" | sed -n 's|^https://github.com/||p')
[ -n "$repository" ] || fail "the homepage is not a GitHub repository: $(field homepage <<<"$committed")"
[ "$(field head url <<<"$committed")" = "https://github.com/$repository.git" ] || fail "HEAD is not $repository: $committed"
[ "$(field head url_options branch <<<"$committed")" = main ] || fail "HEAD is not the main branch: $committed"
head_deps=$(field head depends_on <<<"$committed")
for dep in openssl@3 qrencode; do grep -q "\"\\\\\"$dep\\\\\"\"" <<<"$head_deps" || fail "HEAD does not depend on $dep: $head_deps"; done
url=$(field url <<<"$committed")
if [ "$url" = null ]; then
    say "as committed: HEAD only (no release yet), $repository"
else
    [ "$(field version <<<"$committed")" = "$version" ] || fail "the formula is for version $(field version <<<"$committed"), VERSION says $version: run Scripts/formula.sh on the release"
    [ "$url" = "https://github.com/$repository/releases/download/v$version/skan-mock-$version-macos-universal.tar.gz" ] \
        || fail "the formula downloads $url"
    say "as committed: version $version from $url"
fi

# The docs add the tap by URL: the repository's name has no homebrew- prefix, so `brew tap OWNER/NAME`
# alone would look for OWNER/homebrew-NAME.
grep -qxF "brew tap $repository https://github.com/$repository" docs/install.md \
    || fail "docs/install.md does not add the tap with its URL (brew tap $repository https://github.com/$repository)"

# --- 2. the names release.sh makes ----------------------------------------------------------------------
archive=$(bash Tests/Release/make-archive.sh "$work/dist" 2>"$work/release.log") || { cat "$work/release.log" >&2; fail "Scripts/release.sh failed"; }
file=$(basename "$archive")
[[ $file =~ ^skan-mock-$version-linux-(x86_64|aarch64)\.tar\.gz$ ]] || fail "release.sh made $file"
[ "$(cat "$archive.sha256")" = "$(cd "$work/dist" && sha256sum "$file")" ] || fail "$file.sha256 is not in sha256sum's format"
# (Single quotes: these are the scripts' own words, $ and all.)
# shellcheck disable=SC2016
for needle in '^        platform=macos$' '^        arch=universal$' '^name="skan-mock-$version-$platform-$arch"$'; do
    grep -q "$needle" Scripts/release.sh || fail "Scripts/release.sh no longer names the macOS archive skan-mock-VERSION-macos-universal ($needle)"
done
grep -q 'macos-universal' Scripts/action.sh || fail "Scripts/action.sh does not download the macos-universal archive"
# shellcheck disable=SC2016
grep -qF 'gh release create "$GITHUB_REF_NAME" dist/*' .github/workflows/release.yml \
    || fail "release.yml no longer attaches dist/* to the release of the tag"

# --- 3. the formula of a release -------------------------------------------------------------------------
mac="skan-mock-$version-macos-universal"
tar -xzf "$archive" -C "$work"
mv "$work/${file%.tar.gz}" "$work/$mac"
mkdir -p "$work/release"
tar -C "$work" -czf "$work/release/$mac.tar.gz" "$mac"
(cd "$work/release" && sha256sum "$mac.tar.gz" >"$mac.tar.gz.sha256")
sha=$(cut -d ' ' -f 1 "$work/release/$mac.tar.gz.sha256")
cp "$formula" "$work/skan-mock.rb"
SKAN_MOCK_FORMULA="$work/skan-mock.rb" bash Scripts/formula.sh --repository example-owner/skan-mock "$work/release" >/dev/null
released=$(spec "$work/skan-mock.rb") || fail "the formula Scripts/formula.sh wrote does not load"
expected_url="https://github.com/example-owner/skan-mock/releases/download/v$version/$mac.tar.gz"
[ "$(field url <<<"$released")" = "$expected_url" ] || fail "url $(field url <<<"$released"), expected $expected_url"
[ "$(field version <<<"$released")" = "$version" ] || fail "version $(field version <<<"$released")"
[ "$(field sha256 <<<"$released")" = "$sha" ] || fail "sha256 $(field sha256 <<<"$released"), the archive's is $sha"
[ "$(field homepage <<<"$released")" = "https://github.com/example-owner/skan-mock" ] || fail "homepage $(field homepage <<<"$released")"
[ "$(field head url <<<"$released")" = "https://github.com/example-owner/skan-mock.git" ] || fail "HEAD $(field head url <<<"$released")"
SKAN_MOCK_FORMULA="$work/skan-mock.rb" bash Scripts/formula.sh --check "$work/release" >/dev/null \
    || fail "formula.sh --check refuses the formula formula.sh wrote"
echo "0000000000000000000000000000000000000000000000000000000000000000  $mac.tar.gz" >"$work/release/$mac.tar.gz.sha256"
if SKAN_MOCK_FORMULA="$work/skan-mock.rb" bash Scripts/formula.sh --check "$work/release" >/dev/null 2>&1; then
    fail "formula.sh --check accepts an archive that does not match its .sha256"
fi
say "Scripts/formula.sh writes $expected_url, version $version, sha256 $sha; --check agrees"

# --- 4. install and test blocks ------------------------------------------------------------------------
# Homebrew unpacks the archive and enters its one folder.
mkdir -p "$work/unpacked"
tar -xzf "$work/release/$mac.tar.gz" -C "$work/unpacked"
ruby Tests/Formula/harness.rb install "$work/skan-mock.rb" "$work/unpacked/$mac" "$work/prefix" >/dev/null \
    || fail "the formula's install or test block failed"
if [ ! -x "$work/prefix/bin/skan-mock" ] || [ ! -f "$work/prefix/share/skan-mock/config/revenue.json" ]; then
    fail "install did not put bin/skan-mock and share/skan-mock/config in place"
fi
say "passed: install put bin/skan-mock and share/skan-mock/config/; the test block passed (the Linux binary standing in for the macOS one)"
