#!/bin/sh
# make bench: every benchmark built in $1/bench, after a line naming the
# machine and the date (bench/bench.c prints the main table; the others,
# such as route_bench, their own), the network programs at N = 4,096 in full
# duplex (the network target), then the time $2/emu takes to compile and
# run bench/programs/baseline.x (thesis requirement 3.3: a program of over
# 1,000 lines within one minute). BENCH_ARGS is passed to bench/bench.
BUILD=${1:-build}
BIN=${2:-bin}
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

# The network target (issue "Speed and scale"): the machine's two network
# programs at N = 4,096 in full duplex, which the main table runs in half
# duplex (the default); net_bench above is the network alone, full duplex.
echo "== bench --procs 4096 --duplex full (the network target)"
"$BUILD/bench/bench" --only network --procs 4096 --duplex full || exit 1
flood=$("$BUILD/bench/bench" --only flood --procs 4096 --duplex full) || exit 1
printf '%s\n' "$flood" | tail -n +2    # (its rows, under the header above)

# The thesis's baseline: compile and run a program of over 1,000 lines.
baseline=bench/programs/baseline.x
echo "== baseline"
start=$(date +%s.%N)
"$BIN/emu" -q "$baseline" >/dev/null || { echo "baseline: $BIN/emu failed"; exit 1; }
end=$(date +%s.%N)
awk -v s="$start" -v e="$end" -v f="$baseline" -v lines="$(wc -l <"$baseline")" \
    'BEGIN { printf "%s: %d lines, compiled and run by emu -q in %.3f s\n", f, lines, e - s }'
