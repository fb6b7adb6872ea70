#!/usr/bin/env bash
# Scripts/formula.sh: keeps Formula/skan-mock.rb in step with a release made by Scripts/release.sh.
#
#   Scripts/formula.sh [--repository OWNER/NAME] [--version X.Y.Z] [--check] DIR
#
# DIR holds the release's files; the formula's release lines (between "# BEGIN release" and
# "# END release") become the url, version and sha256 of DIR's skan-mock-VERSION-macos-universal.tar.gz,
# as its .sha256 (the format release.sh writes) gives them, the VERSION being --version's (release.yml
# passes the tag's) or else the top-level VERSION file's. With
# --repository, the formula's OWNER/skan-mock (homepage, url, head) becomes that repository (release.yml
# passes GITHUB_REPOSITORY). With --check nothing is written: it fails when the formula differs from
# what it would write. SKAN_MOCK_FORMULA names another formula file (Tests/Formula/check.sh).
set -euo pipefail
cd "$(dirname "$0")/.."
# shellcheck source=Scripts/lib.sh
. Scripts/lib.sh

fail() {
    printf 'formula.sh: %s\n' "$*" >&2
    exit 1
}

repository=""
version=""
check=0
dir=""
while [ $# -gt 0 ]; do
    case $1 in
        --repository) [ $# -ge 2 ] || fail "--repository needs OWNER/NAME"; repository=$2; shift 2 ;;
        --version) [ $# -ge 2 ] || fail "--version needs X.Y.Z"; version=${2#v}; shift 2 ;;
        --check) check=1; shift ;;
        -*) fail "unknown option $1" ;;
        *) [ -z "$dir" ] || fail "one DIR only"; dir=$1; shift ;;
    esac
done
[ -n "$dir" ] || fail "usage: Scripts/formula.sh [--repository OWNER/NAME] [--version X.Y.Z] [--check] DIR"
case $repository in
    '' | [A-Za-z0-9]*/[A-Za-z0-9]*) ;;
    *) fail "--repository '$repository' is not OWNER/NAME" ;;
esac
case $repository in *[!A-Za-z0-9._/-]*) fail "--repository '$repository' is not OWNER/NAME" ;; esac

formula=${SKAN_MOCK_FORMULA:-Formula/skan-mock.rb}
[ -n "$version" ] || version=$(skan_mock_version .) || fail "cannot read the version from VERSION"
case $version in '' | *[!A-Za-z0-9._-]*) fail "version '$version' is not a version" ;; esac
name="skan-mock-$version-macos-universal.tar.gz"
[ -f "$dir/$name.sha256" ] || fail "no $name.sha256 in $dir (the macOS archive of version $version)"
line=$(head -n 1 "$dir/$name.sha256")
sha=${line%%  *}
listed=${line#*  }
printf '%s\n' "$sha" | grep -Eq '^[0-9a-f]{64}$' || fail "$name.sha256 does not start with a SHA-256: '$line'"
[ "$listed" = "$name" ] || fail "$name.sha256 names '$listed'"
if [ -f "$dir/$name" ]; then
    [ "$(skan_mock_sha256 "$dir/$name")" = "$sha" ] || fail "$name does not match its .sha256"
fi

current_repository=$(sed -n 's|^  homepage "https://github.com/\([^"]*\)"$|\1|p' "$formula")
[ -n "$current_repository" ] || fail "$formula has no homepage \"https://github.com/OWNER/NAME\" line"
repository=${repository:-$current_repository}

new=$(awk -v repo="$repository" -v old="$current_repository" -v version="$version" -v name="$name" -v sha="$sha" '
    /^  # BEGIN release$/ {
        print
        printf "  url \"https://github.com/%s/releases/download/v%s/%s\"\n", repo, version, name
        printf "  version \"%s\"\n", version
        printf "  sha256 \"%s\"\n", sha
        skip = 1
        next
    }
    /^  # END release$/ { skip = 0 }
    skip { next }
    {
        line = $0
        if (line ~ /^  homepage "/ || line ~ /^    url "https:\/\/github.com\/.*\.git"/) {
            i = index(line, "github.com/" old)
            if (i > 0) line = substr(line, 1, i - 1) "github.com/" repo substr(line, i + length("github.com/" old))
        }
        print line
    }' "$formula")
grep -q '^  # END release$' <<<"$new" || fail "$formula has no '  # END release' line"

if [ "$check" = 1 ]; then
    if [ "$new" != "$(cat "$formula")" ]; then
        diff <(cat "$formula") <(printf '%s\n' "$new") >&2 || true
        fail "$formula is not the formula of $name (run Scripts/formula.sh $dir)"
    fi
    echo "formula.sh: $formula is the formula of $name ($sha)"
else
    printf '%s\n' "$new" >"$formula"
    echo "formula.sh: $formula now installs $name from $repository ($sha)"
fi
