#!/bin/sh
# Robinson's channel contention under the three switchings: the tables of
# docs/results.md, "Messages: wormhole, cut-through and store-and-forward",
# made by running programs/contention.x (two messages of 24 words from
# processors 0 and 1 to processor 7, down the same links) in bin/emu. The
# first table gives timesteps and collisions by switching and routing; the
# second, under benes, where the second message (processor 1's) is at
# timestep 1,000, while the first still drains into processor 7's port, as
# --state shows it: the buffers holding its flits, those it owns, the flits
# on links and in its output slot. Deterministic: any computer prints the
# same.
#
#   bench/contention.sh [BIN]
#
# tests/cli/messages_results.sh runs it and checks that docs/results.md holds
# exactly what it prints.
BIN=${1:-bin}
cd "$(dirname "$0")/.." || exit 1
prog=programs/contention.x
configs="wormhole:5 wormhole:24 cut-through:24 store-forward:24"
routings="benes dmodk valiant adaptive"
at=1000

# figures OPTIONS...: "timesteps collisions latency_min latency_max end" of a run
figures() {
    "$BIN/emu" --json "$@" "$prog" | tail -n 1 |
        sed -n 's/.*"end": "\([^"]*\)".*"timesteps": \([0-9]*\).*"collisions": \([0-9]*\).*"latency_min": \([0-9]*\).*"latency_max": \([0-9]*\).*/\2 \3 \4 \5 \1/p'
}
commas() { printf '%s' "$1" | sed ':a; s/\([0-9]\)\([0-9]\{3\}\)\($\|,\)/\1,\2\3/; ta'; }

echo "| switching | $(echo $routings | sed 's/\([a-z-]*\)/`\1`/g; s/ / | /g') |"
echo "|---|$(for _ in $routings; do printf -- '---:|'; done)"
same_duplex=true
for c in $configs; do
    s=${c%:*} b=${c#*:}
    row="| \`$s\` B=$b |"
    for r in $routings; do
        set -- $(figures --switching "$s" --buffer "$b" --routing "$r")
        [ "$5" = normal ] || { echo "contention: $s B=$b $r ended $5" >&2; exit 1; }
        [ "$(figures --switching "$s" --buffer "$b" --routing "$r" --duplex full)" = "$*" ] || same_duplex=false
        row="$row $(commas "$1") / $(commas "$2") |"
    done
    echo "$row"
done
echo
if $same_duplex; then echo "Full duplex gives the same figures in every cell."
else echo "Full duplex gives different figures in some cells."; fi

echo
echo "| switching | latencies | processor 1's message at timestep $(commas $at) |"
echo "|---|---:|---|"
for c in $configs; do
    s=${c%:*} b=${c#*:}
    set -- $(figures --switching "$s" --buffer "$b")
    where=$("$BIN/emu" --switching "$s" --buffer "$b" --state "$at" "$prog" | awk '
        / p1->p7 / {
            if (id == "") { id = $1; sub(/\..*/, "", id) }
            place = $0; sub(/^[^:]*: /, "", place)
            if (place ~ /^buffer /) {
                layer = place; sub(/^buffer p[0-9]*\.l/, "", layer); sub(/\..*/, "", layer)
                dir = place ~ /^buffer [^ ]*\.u[01]( |$)/ ? "up" : "down"
                inbuf[dir, layer + 0]++
            } else if (place ~ /^link /) onlink++
            else if (place ~ /^output slot/) inslot++
            else if (place ~ /^input port/) inport++
        }
        /^owned: / { n = split(substr($0, 8), owned, ", ") }
        END {
            text = ""
            for (l = 1; l <= 32; l++)          # along the path: up, then down
                if (("up", l) in inbuf) text = text (text == "" ? "" : ", ") inbuf["up", l] " (layer " l " up)"
            for (l = 32; l >= 1; l--)
                if (("down", l) in inbuf) text = text (text == "" ? "" : ", ") inbuf["down", l] " (layer " l " down)"
            text = "flits in buffers: " text
            o = 0
            for (i = 1; i <= n; i++) if (owned[i] ~ ("^buffer .* by " id "$")) o++
            text = text "; owns " (o ? o " buffer" (o == 1 ? "" : "s") : "none")
            if (onlink) text = text "; " onlink " on " (onlink == 1 ? "a link" : "links")
            if (inslot) text = text "; " inslot " in its output slot"
            if (inport) text = text "; " inport " in the input port"
            print text
        }')
    echo "| \`$s\` B=$b | $(commas "$3"), $(commas "$4") | $where |"
done
