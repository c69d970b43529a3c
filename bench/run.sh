#!/bin/sh
# make bench: every benchmark built in $1/bench, after a line naming the
# machine and the date (bench/bench.c prints the main table; the others,
# such as route_bench, their own). BENCH_ARGS is passed to bench/bench.
BUILD=${1:-build}
cd "$(dirname "$0")/.." || exit 1
echo "# $(date -u +%Y-%m-%d) on $(uname -m), $(nproc) cores: $(grep -m1 'model name' /proc/cpuinfo | cut -d: -f2 | sed 's/^ //')"
for b in "$BUILD"/bench/*; do
    [ -x "$b" ] && [ -f "$b" ] || continue
    echo "== $(basename "$b")"
    if [ "$(basename "$b")" = bench ]; then
        "$b" ${BENCH_ARGS:-} || exit 1
    else
        "$b" || exit 1
    fi
done
