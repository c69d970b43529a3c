# docs/results.md, "Messages: wormhole, cut-through and store-and-forward",
# against what bench/messages.sh makes now:
#
# - a lone message's latency is messages.md's formula in every run of
#   build/bench/messages lone (every routing, both duplex modes, N = 8, 64
#   and 1,024, L = 1 to 64), with no collision; with buffers of one place
#   (outside the formula) its flits move every other timestep;
# - the random traffic at N = 64, run again, gives the rows of the
#   committed CSV at N = 64, byte for byte (the other sizes take minutes;
#   not in the sanitizer build);
# - every table that bench/messages.sh prints (the lone message, the
#   traffic drawn from the committed CSV, the contention case run in
#   bin/emu) is in the section as it prints it, and the committed plots and
#   the lone message's CSV are what it draws now.
. tests/lib.sh
BUILD=${BUILD:-build}
DOC=docs/results.md
RESULTS=docs/results

# ---- the tables, the plots and the lone message's CSV --------------------------
sh bench/messages.sh --tables --out "$TMP/t" "$BUILD" "$BIN" >"$TMP/tables" 2>"$TMP/err"
if [ $? -eq 0 ] && [ -s "$TMP/tables" ]; then pass results_messages_bench_runs
else fail results_messages_bench_runs "$(head -n 5 "$TMP/err")"; fi

awk -F, 'NR > 1 {
        n++
        if ($8 !~ /^[0-9]+$/) { if (++bad <= 5) why = why "\n  did not arrive: " $0; next }
        want = $9 != "-" ? $9 : 4 * $6 - 1 + 2 * ($7 - 1)   # one place: every other timestep
        if ($8 != want || $10 != 0)
            if (++bad <= 5) why = why "\n  latency " $8 ", formula " want ", collisions " $10 ": " $0
        if ($9 == "-") slow++
    }
    END {
        if (n == 1470 && bad == 0 && slow == 294) print "PASS results_messages_lone_latency_is_the_formula"
        else print "FAIL results_messages_lone_latency_is_the_formula\n  " n + 0 " runs, " bad + 0 " differ, " slow + 0 " with one place" why
    }' "$TMP/t/messages_lone.csv"

for f in messages_lone.csv messages_lone.svg messages_latency.svg messages_throughput.svg; do
    expect_same "results_messages_${f%.*}_${f##*.}_current" "$RESULTS/$f" "$TMP/t/$f"
done

# Each table the bench prints (its lines up to a blank line) must be in the
# section, line for line.
awk '
    FNR == 1 { file++ }
    file == 1 { if ($0 == "") { if (block != "") blocks[++nb] = block; block = "" }
                else block = block $0 "\n"; next }
    /^## / { in_section = $0 == "## Messages: wormhole, cut-through and store-and-forward"; next }
    in_section { section = section $0 "\n" }
    END {
        if (block != "") blocks[++nb] = block
        if (section == "") { print "FAIL results_messages_section\n  no such section in the doc"; exit }
        print "PASS results_messages_section"
        for (b = 1; b <= nb; b++) {
            split(blocks[b], first, "\n")
            if (index(section, blocks[b])) { found++; continue }
            printf "FAIL results_messages_table_%d\n  the section does not hold what the bench prints:\n", b
            n = split(blocks[b], lines, "\n")
            for (i = 1; i < n; i++)
                printf "  %s %s\n", index(section, lines[i] "\n") ? " " : "!", lines[i]
        }
        if (found == nb && nb >= 7) print "PASS results_messages_tables_current"
        else print "FAIL results_messages_tables_current\n  " found + 0 " of " nb " tables found"
    }' "$TMP/tables" "$DOC"

if contains "(#messages-wormhole-cut-through-and-store-and-forward)" "$DOC"; then
    pass results_messages_linked
else fail results_messages_linked "the opening paragraph does not link the section"; fi

# ---- the traffic at N = 64, run again --------------------------------------------
# (Not under the sanitizers, where its 21 runs would take minutes.)
case $BUILD in
*check*) echo "NOTE results_messages_traffic_64_current: not run in the sanitizer build"; exit 0 ;;
esac
sh bench/messages.sh --traffic-only --procs 64 --out "$TMP/s" "$BUILD" "$BIN" 2>"$TMP/err"
grep -e '^N,' -e '^64,' "$RESULTS/messages.csv" >"$TMP/want64"
if [ -s "$TMP/s/messages.csv" ] && [ "$(wc -l <"$TMP/want64")" -gt 40 ]; then
    expect_same results_messages_traffic_64_current "$TMP/want64" "$TMP/s/messages.csv"
else fail results_messages_traffic_64_current "no traffic rows: $(head -n 3 "$TMP/err")"; fi
