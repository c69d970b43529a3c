#!/bin/sh
# A series of the speed targets' runs, spread over time: on a shared
# machine one run says little, since the same run varies from one minute to
# the next (docs/performance.md, "How to measure"). Each round runs, on one
# core, the compute program (instructions/s: it shows how fast the host is
# running in that minute), flood and the network program (hops/s) and
# net_bench at load 1.0 (stage hops/s: the network alone under the heaviest
# random traffic), all at N = 4,096 and the network ones in full duplex;
# then it waits. At the end it prints, for each figure, the least, the
# median and the greatest, and in how many rounds it reached its target
# (300 M instructions/s, 50 M hops/s).
#
#   bench/series.sh [rounds [seconds between rounds [build dir]]]
#
# CPU=1 pins every run to that CPU (taskset), as docs/performance.md does.
ROUNDS=${1:-20}
PAUSE=${2:-160}
BUILD=${3:-build}
cd "$(dirname "$0")/.." || exit 1
BENCH=$BUILD/bench/bench
NET_BENCH=$BUILD/bench/net_bench
for b in "$BENCH" "$NET_BENCH"; do
    [ -x "$b" ] || { echo "series.sh: no $b (make bench builds it)" >&2; exit 1; }
done
case $ROUNDS$PAUSE in
*[!0-9]*) echo "series.sh: rounds and seconds are whole numbers" >&2; exit 1 ;;
esac
pin=
[ -n "${CPU:-}" ] && pin="taskset -c $CPU"

# Runs the command after $1 and prints the figure in column $1 of the last
# row it prints; fails if the command does.
figure() {
    column=$1
    shift
    out=$("$@") || return 1
    printf '%s\n' "$out" | tail -n 1 | awk -v c="$column" '{ print $c }'
}

rows=$(mktemp) || exit 1
trap 'rm -f "$rows"' EXIT
echo "# $(date -u +%Y-%m-%d) on $(uname -m), $(nproc) cores: $(grep -m1 'model name' /proc/cpuinfo | cut -d: -f2 | sed 's/^ //')${CPU:+, runs on CPU $CPU}"
echo "time   compute-instr/s flood-hops/s net_bench-stage-hops/s network-hops/s"
i=0
while [ "$i" -lt "$ROUNDS" ]; do
    [ "$i" -gt 0 ] && sleep "$PAUSE"
    i=$((i + 1))
    t=$(date -u +%H:%M)
    c=$(figure 6 $pin "$BENCH" --only compute --procs 4096 --threads 1) &&
    f=$(figure 8 $pin "$BENCH" --only flood --procs 4096 --threads 1 --duplex full) &&
    n=$(figure 8 $pin "$NET_BENCH" --load 1.0 --steps 1000) &&
    w=$(figure 8 $pin "$BENCH" --only network --procs 4096 --threads 1 --duplex full) ||
        { echo "series.sh: a run failed in round $i" >&2; exit 1; }
    echo "$t  $c $f $n $w" | tee -a "$rows"
done
awk '
    { for (j = 2; j <= 5; j++) v[j, ++n[j]] = $j + 0 }
    END {
        split("compute flood net_bench network", name, " ")
        target[2] = 3e8; target[3] = target[4] = target[5] = 5e7
        for (j = 2; j <= 5; j++) {
            m = n[j]
            for (a = 2; a <= m; a++)            # (insertion sort: a few rounds)
                for (b = a; b > 1 && v[j, b - 1] > v[j, b]; b--) {
                    x = v[j, b]; v[j, b] = v[j, b - 1]; v[j, b - 1] = x
                }
            med = m % 2 ? v[j, (m + 1) / 2] : (v[j, m / 2] + v[j, m / 2 + 1]) / 2
            over = 0
            for (a = 1; a <= m; a++) over += v[j, a] >= target[j]
            printf "%-10s least %.3g  median %.3g  greatest %.3g  at or over %.3g in %d of %d\n",
                   name[j - 1], v[j, 1], med, v[j, m], target[j], over, m
        }
    }' "$rows"
