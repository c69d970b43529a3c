#!/bin/sh
# make bench: every benchmark built in $1/bench, after a line naming the
# machine and the date (bench/bench.c prints the main table; the others,
# such as route_bench, their own; routing and broadcast print the CSVs that
# docs/results.md's tables come from, and bench/messages.sh the tables of its
# section Messages), the network programs at N = 4,096 in full
# duplex (the network target), then the time $2/emu takes to compile and
# run bench/programs/baseline.x (thesis requirement 3.3: a program of over
# 1,000 lines within one minute), and bench/programs/exchange.x and
# permute_port0.x (whole network-bound programs at N = 4,096, full duplex,
# each timed as one process), and the cost of a timestep of
# bench/programs/stalled.x, a machine of 1,024 and of 65,536 processors
# all waiting on one.
# BENCH_ARGS is passed to bench/bench.
BUILD=${1:-build}
BIN=${2:-bin}
cd "$(dirname "$0")/.." || exit 1
echo "# $(date -u +%Y-%m-%d) on $(uname -m), $(nproc) cores: $(grep -m1 'model name' /proc/cpuinfo | cut -d: -f2 | sed 's/^ //')"
for b in "$BUILD"/bench/*; do
    [ -x "$b" ] && [ -f "$b" ] || continue
    # collect is a tool of bench/sweep, not a benchmark; messages runs
    # below, by bench/messages.sh
    case $(basename "$b") in collect|messages) continue ;; esac
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

# Messages of 8 words under wormhole switching, the network alone at heavy
# load (messages.md): its hops/s count flits, to set beside one-word
# packets' under the same routing. Under benes (above) messages crowd the
# network, whose small batches send most of them up one port
# (docs/results.md, Messages); under dmodk they spread as packets do.
echo "== net_bench --load 1.0 --length 8 (messages), and --routing dmodk with one word and 8"
"$BUILD/bench/net_bench" --load 1.0 --length 8 || exit 1
"$BUILD/bench/net_bench" --load 1.0 --routing dmodk | tail -n 1 || exit 1
"$BUILD/bench/net_bench" --load 1.0 --routing dmodk --length 8 | tail -n 1 || exit 1

# Messages under the three switchings (docs/results.md, Messages): its
# tables, with its CSVs and plots written into bench/out/messages.
echo "== bench/messages.sh (messages: wormhole, cut-through, store-and-forward)"
sh bench/messages.sh --out bench/out/messages "$BUILD" "$BIN" || exit 1

# The thesis's baseline: compile and run a program of over 1,000 lines.
baseline=bench/programs/baseline.x
echo "== baseline"
start=$(date +%s.%N)
"$BIN/emu" -q "$baseline" >/dev/null || { echo "baseline: $BIN/emu failed"; exit 1; }
end=$(date +%s.%N)
awk -v s="$start" -v e="$end" -v f="$baseline" -v lines="$(wc -l <"$baseline")" \
    'BEGIN { printf "%s: %d lines, compiled and run by emu -q in %.3f s\n", f, lines, e - s }'

# Whole network-bound programs end to end, each compiled, started and run
# by $BIN/emu as one process, so the figures are what a user meets: links
# crossed and timesteps come from the run's own JSON report.
# exchange.x spreads its rounds over 16 ports; permute_port0.x reads port 0
# only, as a student writes it, so its packets queue in the network.
whole() {   # whole NAME OPTIONS...: times bench/programs/NAME.x
    prog=bench/programs/$1.x
    shift
    echo "== $(basename "$prog" .x)"
    start=$(date +%s.%N)
    json=$("$BIN/emu" "$@" --json "$prog") || { echo "$prog: $BIN/emu failed"; exit 1; }
    end=$(date +%s.%N)
    key() { printf '%s\n' "$json" | tail -n 1 | sed -n "s/.*\"$1\": \([0-9]*\).*/\1/p"; }
    sent=$(key packets_sent)
    got=$(key packets_read)
    [ -n "$sent" ] && [ "$sent" = "$got" ] || { echo "$prog: $sent packets sent, $got read"; exit 1; }
    awk -v s="$start" -v e="$end" -v f="$prog" -v n="$(key processors)" -v opts="$*" \
        -v links="$(key links_crossed)" -v steps="$(key timesteps)" -v packets="$sent" \
        'BEGIN { w = e - s
                 printf "%s: N = %d, %s, %d packets: %.2f s wall (compile and start-up included), %.3g links crossed/s, %.3g timesteps/s\n",
                        f, n, opts, packets, w, links / w, steps / w }'
}
whole exchange --duplex full
whole permute_port0 --duplex full --port-depth 4

# An all-stalled machine: in bench/programs/stalled.x every processor but
# one waits on IN while processor 0 computes, so a timestep should cost
# what moves in it, not N.
# Its cost is the difference between two runs, a long computation and
# almost none, over the difference of their timesteps: compiling the
# program and building the machine, which grow with N, cancel out. The
# median of three such pairs at each size, and the ratio of the two.
stalled_step() {   # stalled_step N: prints nanoseconds per timestep
    runs=
    for rep in 1 2 3; do
        for work in 2 1000000; do
            start=$(date +%s.%N)
            out=$("$BIN/emu" -q -D n="$1" -D work=$work bench/programs/stalled.x) ||
                { echo "stalled.x: $BIN/emu failed at N = $1" >&2; return 1; }
            end=$(date +%s.%N)
            case $out in *"halted with status"*)
                echo "stalled.x: a processor read a wrong sum at N = $1" >&2; return 1 ;; esac
            runs="$runs$start $end $(printf '%s\n' "$out" | sed -n 's/^timesteps: //p')
"
        done
    done
    printf '%s' "$runs" | awk 'NR % 2 { w0 = $2 - $1; t0 = $3; next }
                               { print ($2 - $1 - w0) / ($3 - t0) * 1e9 }' | sort -n | sed -n 2p
}
echo "== stalled"
small=$(stalled_step 1024) || exit 1
large=$(stalled_step 65536) || exit 1
awk -v s="$small" -v l="$large" 'BEGIN {
    printf "bench/programs/stalled.x: all but one processor waiting on IN, per timestep (start-up left out): N = 1,024 %.1f ns, N = 65,536 %.1f ns, ratio %.2f\n", s, l, l / s }'
