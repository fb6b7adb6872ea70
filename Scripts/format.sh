#!/usr/bin/env bash
# Formats the Swift sources with swift-format (part of the toolchain since Swift 6) and the
# project's .swift-format; `--check` changes nothing and fails on any difference or rule warning
# (CI runs it). Generated files (Scripts/embed.sh) carry `swift-format-ignore-file`.
set -euo pipefail
cd "$(dirname "$0")/.."
paths=(Sources Tests Package.swift)
if [ "${1:-}" = "--check" ]; then
    if ! swift format lint --strict --recursive --parallel "${paths[@]}"; then
        echo "format: run Scripts/format.sh to fix the layout, and fix what it cannot" >&2
        exit 1
    fi
    echo "format: clean"
else
    swift format format --in-place --recursive --parallel "${paths[@]}"
fi
