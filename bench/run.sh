#!/bin/sh
# make bench: the benchmark table (bench/bench.c). Arguments: build dir, bin dir.
BUILD=${1:-build}
echo "# $(date -u +%Y-%m-%d) on $(uname -m), $(nproc) cores: $(grep -m1 'model name' /proc/cpuinfo | cut -d: -f2 | sed 's/^ //')"
"$BUILD/bench/bench" ${BENCH_ARGS:-}
