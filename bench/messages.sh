#!/bin/sh
# The section "Messages: wormhole, cut-through and store-and-forward" of
# docs/results.md, made again: prints its tables, each followed by a blank
# line, and writes its CSV and plots into DIR (docs/results):
#
#   DIR/messages_lone.csv, DIR/messages_lone.svg
#                                a lone message's latency against its length,
#                                every run and the doc's plot
#                                (build/bench/messages lone)
#   DIR/messages.csv             random traffic at increasing load
#                                (build/bench/messages traffic, one job per N
#                                and configuration, JOBS at once: 2)
#   DIR/messages_latency.svg, DIR/messages_throughput.svg
#                                drawn from that CSV (messages draw)
#
# then the contention case (bench/contention.sh).
#
#   bench/messages.sh [--tables | --traffic-only] [--procs LIST] [--out DIR] [BUILD [BIN]]
#
# DIR, BUILD and BIN are taken from where the script is run (the
# defaults, docs/results, build and bin, are the repository's). --tables
# runs no traffic: it draws the plots and tables from the CSV already in
# docs/results. --traffic-only writes DIR/messages.csv and
# nothing else. --procs runs the traffic at those N only (64,
# 256, 1024, 4096; the routings beside dmodk run up to 1,024). Every run is
# deterministic, so any computer writes the same files. The traffic takes
# about three minutes of one core. tests/cli/messages_results.sh runs the
# parts at N = 64 and checks docs/results.md against them.
tables_only=false
traffic_only=false
out_given=
procs="64 256 1024 4096"
out=docs/results
usage="usage: bench/messages.sh [--tables | --traffic-only] [--procs LIST] [--out DIR] [BUILD [BIN]]"
while [ $# -gt 0 ]; do
    case $1 in
    --tables) tables_only=true; shift ;;
    --traffic-only) traffic_only=true; shift ;;
    --procs | --out)
        if [ $# -lt 2 ]; then echo "bench/messages.sh: $1 wants a value" >&2; exit 1; fi
        case $1 in
        --procs) procs=$(echo "$2" | tr , ' ') ;;
        *) out=$2; out_given=1 ;;
        esac
        shift 2 ;;
    -*) printf 'bench/messages.sh: unknown option %s\n%s\n' "$1" "$usage" >&2; exit 1 ;;
    *) break ;;
    esac
done
if $tables_only && $traffic_only; then
    echo "bench/messages.sh: --tables runs no traffic and --traffic-only draws nothing: give one" >&2
    exit 1
fi
if [ $# -gt 2 ]; then printf '%s\n' "$usage" >&2; exit 1; fi
# A DIR, BUILD or BIN given is where the user is; the defaults are the
# repository's, where the script runs from.
from_here() { case $1 in /*) printf '%s' "$1" ;; *) printf '%s/%s' "$PWD" "$1" ;; esac; }
BUILD=build BIN=bin
if [ -n "$out_given" ]; then out=$(from_here "$out"); fi
if [ -n "${1:-}" ]; then BUILD=$(from_here "$1"); fi
if [ -n "${2:-}" ]; then BIN=$(from_here "$2"); fi
cd "$(dirname "$0")/.." || exit 1
bench=$BUILD/bench/messages
mkdir -p "$out" || exit 1

if ! $traffic_only; then
    "$bench" lone -o "$out/messages_lone.csv" --table --svg "$out/messages_lone.svg" || exit 1
    echo
fi

csv=docs/results/messages.csv
if ! $tables_only; then
    # One job a line: its place in the CSV, then its options. The largest
    # start first, so that the small ones fill in around them.
    parts=$(mktemp -d) || exit 1
    trap 'rm -rf "$parts"' EXIT
    i=0
    for n in $procs; do
        for c in wormhole:5 wormhole:8 cut-through:8 store-forward:8 wormhole:16 cut-through:16; do
            i=$((i + 1)); echo "$i --procs $n --configs $c"
        done
    done >"$parts/jobs"
    for n in $procs; do
        [ "$n" -le 1024 ] || continue
        for r in benes adaptive random; do
            i=$((i + 1)); echo "$i --procs $n --routing $r --configs wormhole:8"
        done
    done >>"$parts/jobs"
    sort -n -r -k 3 "$parts/jobs" |
        xargs -P "${JOBS:-2}" -L 1 sh -c 'i=$1; shift; "$0" traffic "$@" >"'"$parts"'/$i.csv"' "$bench" ||
        exit 1
    csv=$out/messages.csv
    {
        head -n 1 "$parts/1.csv"
        j=1
        while [ "$j" -le "$i" ]; do tail -n +2 "$parts/$j.csv"; j=$((j + 1)); done
    } >"$csv.tmp" && mv "$csv.tmp" "$csv" || exit 1
fi
$traffic_only && exit 0
"$bench" draw "$csv" "$out" || exit 1
echo
sh bench/contention.sh "$BIN" || exit 1
