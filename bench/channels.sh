#!/bin/sh
# Virtual channels (spec/channels.md) beside the same buffer space in one
# queue: the tables of docs/results.md, "Virtual channels". Each channel
# count V = 2, 4 is run next to --vcs 1 --buffer 5V, which gives a port as
# many places in one queue, so that what channels buy is told apart from
# what space buys. Deterministic: any computer prints the same.
#
#   bench/channels.sh [--programs | --loads LIST] [BUILD [BIN]]
#
# (make and make bench build what it runs.) --programs leaves out the
# random traffic, the slow part; --loads runs its rows of those loads only
# (of 0.5 and 1.0, comma-separated). tests/cli/channels.sh runs it and
# checks that docs/results.md holds exactly what it prints.
programs_only=false
loads="0.5 1.0"
case ${1:-} in
--programs) programs_only=true; shift ;;
--loads) loads=$(echo "$2" | tr , ' '); shift 2 ;;
esac
BUILD=${1:-build}
BIN=${2:-bin}
cd "$(dirname "$0")/.." || exit 1
configs="1:5 2:5 1:10 4:5 1:20"
header="| --vcs 1 | --vcs 2 | --vcs 1 --buffer 10 | --vcs 4 | --vcs 1 --buffer 20 |"
rule="|---|---|---|---|---|"

if ! $programs_only; then
echo "Random traffic, the network alone (\`build/bench/net_bench --procs 1024 --steps 1000\`,"
echo "\`benes\`, full duplex, ports chosen at random among 4): packets moved a"
echo "timestep (links crossed), collisions per link crossed, mean latency in"
echo "timesteps:"
echo
echo "| duplex | load $header"
echo "|---|---$rule"
for duplex in full; do
    for load in $loads; do
        row="| $duplex | $load |"
        for c in $configs; do
            v=${c%:*} b=${c#*:}
            cell=$("$BUILD/bench/net_bench" --procs 1024 --steps 1000 --duplex "$duplex" \
                   --load "$load" --vcs "$v" --buffer "$b" |
                   awk 'NR == 2 { printf "%.0f, %.3f, %.1f", $6, $7, $9 }') || exit 1
            row="$row $cell |"
        done
        echo "$row"
    done
done
echo
fi

echo "The example programs (\`bin/emu\`, default options: \`benes\`, half duplex):"
echo "collisions, timesteps, mean latency:"
echo
echo "| program $header"
echo "|---$rule"
for x in programs/*.x; do
    row="| \`$(basename "$x")\` |"
    for c in $configs; do
        v=${c%:*} b=${c#*:}
        cell=$("$BIN/emu" --vcs "$v" --buffer "$b" "$x" 2>/dev/null |
               awk '/^collisions: / { c = $2 } /^timesteps: / { t = $2 } /^end: / { e = $2 }
                    /^latency: min/ { m = $5; sub(/,$/, "", m) } /^latency: none/ { m = "-" }
                    END { printf "%s, %s, %s%s", c, t, m, e == "normal" ? "" : " (" e ")" }')
        row="$row $cell |"
    done
    echo "$row"
done

echo
echo "\`programs/head_of_line.x\`, the longest trip of the stream that is not held"
echo "up by its receiver (a lone packet's is 20 timesteps):"
echo
echo "$header"
echo "$rule"
row="|"
for c in $configs; do
    v=${c%:*} b=${c#*:}
    row="$row $("$BIN/emu" -q --vcs "$v" --buffer "$b" programs/head_of_line.x | sed -n 2p | sed 's/^p3: //') |"
done
echo "$row"
