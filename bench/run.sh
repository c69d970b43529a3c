#!/bin/sh
# Runs every benchmark built in $1/bench (the Makefile's `make bench`).
BUILD=${1:-build}
cd "$(dirname "$0")/.." || exit 1
for b in "$BUILD"/bench/*; do
    [ -x "$b" ] && [ -f "$b" ] || continue
    echo "== $(basename "$b")"
    "$b" || exit 1
done
