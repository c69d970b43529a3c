# The example programs (programs/*.x) and the benchmark programs
# (bench/programs/*.x) on the real machine.
#
# - Every programs/NAME.x ends normally at its own size under the default
#   options and prints exactly tests/programs/examples/NAME.expected (values
#   worked out apart from the emulator; docs/programs.md says how). Other
#   sizes, set by -D: tests/cli/scaling.sh.
# - It prints the same under every routing, in both duplex modes, except the
#   network deadlocks that docs/programs.md documents, which must stay
#   network deadlocks: matvec under greedy with half-duplex links, and the
#   long wormhole messages of pipeline, getrow and transpose under the
#   routings that may go up and come back down one half-duplex link
#   (benes-full, greedy, valiant), which meet their own flits there.
#   head_of_line prints trip times, which are what it shows: it is run with
#   two virtual channels, where it prints the same everywhere, and with one
#   under benes, where its fast stream is held up.
# - Its whole stdout (report included) is the same with --threads 1, 2, 3.
# - baseline.x has over 1,000 lines, compiles with bin/xc, ends normally and
#   prints tests/programs/baseline.expected.
# - exchange.x compiles at its size, and at 16 processors and 40 rounds ends
#   normally with every packet sent and read and no processor stopped by
#   its own check; so does permute_port0.x, made that small by -D.
# - stalled.x at 16 processors: the sum read, and the stall timesteps of
#   the processors that wait, exact.
. tests/lib.sh

# check_prints NAME EXPECTED CMD...: the run ends normally and prints
# EXPECTED (its lines "pN: value"). The run's output is kept, and checked
# by prints_checked with the others, by one awk: a grep and a cmp a run
# were two hundred processes a test, at about 10 ms each. The output is
# in $TMP/prints/N, N the number of the run, $prints.
mkdir "$TMP/prints"
prints=0
check_prints() {
    name=$1; want=$2; shift 2
    prints=$((prints + 1))
    "$@" >"$TMP/prints/$prints" 2>"$TMP/err"
    STATUS=$?
    echo "$prints $STATUS $name $want" >>"$TMP/prints/list"
}

# prints_checked: the verdicts of the runs check_prints kept, in order.
prints_checked() {
    awk -v dir="$TMP/prints" '
        function slurp(f,    s, l) {
            s = ""
            while ((getline l <f) > 0) s = s l "\n"
            close(f)
            return s
        }
        {
            got = ""; f = dir "/" $1
            while ((getline l <f) > 0)
                if (l ~ /^p[0-9]+: -?[0-9]+$/) got = got l "\n"
            close(f)
            if ($2 != 0) { print $1, "status", $2, $3; next }
            printf "%s", got >(f ".printed"); close(f ".printed")
            print $1, (got == slurp($4) ? "pass" : "output"), $2, $3, $4
        }' "$TMP/prints/list" |
    while read -r i verdict status name want; do
        case $verdict in
        pass) pass "$name" ;;
        status) fail "$name" "exit status $status" "$(tail -n 5 "$TMP/prints/$i")" ;;
        *) fail "$name" "$(diff "$want" "$TMP/prints/$i.printed" | head -n 20)" ;;
        esac
    done
    : >"$TMP/prints/list"
}

routings="benes benes-full greedy valiant random dmodk adaptive"

for x in programs/*.x; do
    n=$(basename "$x" .x)
    want=tests/programs/examples/$n.expected
    if [ ! -f "$want" ]; then fail "example_${n}_has_expected" "no $want"; continue; fi
    opt=
    [ "$n" = head_of_line ] && opt="--vcs 2"
    # shellcheck disable=SC2086
    check_prints "example_${n}" "$want" "$EMU" -q $opt "$x"

    for r in $routings; do
        for d in half full; do
            case "$n:$r:$d" in
            matvec:greedy:half|pipeline:benes-full:half|pipeline:greedy:half|\
            pipeline:valiant:half|getrow:benes-full:half|getrow:greedy:half|\
            getrow:valiant:half|transpose:benes-full:half|transpose:greedy:half|\
            transpose:valiant:half)
                # Every lone packet climbs to top switch 0 and six of them,
                # going up and coming down one half-duplex link, block each
                # other (docs/programs.md, docs/machine.md).
                run "$EMU" -q --routing "$r" --duplex "$d" "$x"
                expect_status "example_${n}_${r}_${d}_network_deadlock" 3
                run "$EMU" --json --routing "$r" --duplex "$d" "$x"
                expect_grep "example_${n}_${r}_${d}_is_network_deadlock" '"network_deadlock": true' "$TMP/out"
                ;;
            *)
                # shellcheck disable=SC2086
                check_prints "example_${n}_${r}_${d}" "$want" "$EMU" -q $opt --routing "$r" --duplex "$d" "$x"
                ;;
            esac
        done
    done

    # Determinism: the number of worker threads never changes the output.
    "$EMU" --threads 1 "$x" >"$TMP/t1" 2>&1
    same=1
    for t in 2 3; do
        "$EMU" --threads "$t" "$x" >"$TMP/t$t" 2>&1
        cmp -s "$TMP/t1" "$TMP/t$t" || same=0
    done
    if [ $same -eq 1 ]; then pass "example_${n}_threads_1_2_3_identical"
    else fail "example_${n}_threads_1_2_3_identical" "$(diff "$TMP/t1" "$TMP/t2" | head -n 10)" \
              "$(diff "$TMP/t1" "$TMP/t3" | head -n 10)"; fi
done

prints_checked

# With one channel, head_of_line's fast stream waits behind the slow one:
# its longest trip is far more than a lone packet's 20 timesteps.
run "$EMU" -q programs/head_of_line.x
longest=$(sed -n 2p "$TMP/out" | sed 's/^p3: //')
if [ "$STATUS" -eq 0 ] && [ "$(sed -n 1p "$TMP/out")" = "p3: 20" ] && [ "$longest" -gt 200 ]; then
    pass example_head_of_line_one_channel_blocks
else fail example_head_of_line_one_channel_blocks "$(cat "$TMP/out")"; fi

# Every example opens with a comment that says how to run it.
for x in programs/*.x; do
    n=$(basename "$x" .x)
    [ "$n" = appendix_c ] && continue      # the thesis's program, kept unchanged
    if head -n 1 "$x" | grep -q '^|' && grep -qF "bin/emu programs/$n.x" "$x"; then
        pass "example_${n}_header"
    else fail "example_${n}_header" "$x must open with a | comment that says: bin/emu programs/$n.x"; fi
done

# ---- the baseline benchmark (thesis requirement 3.3: over 1,000 lines) -------------
B=bench/programs/baseline.x
lines=$(wc -l <"$B")
if [ "$lines" -gt 1000 ]; then pass baseline_over_1000_lines
else fail baseline_over_1000_lines "$B has $lines lines"; fi
run "$XC" -o "$TMP/baseline.hex" "$B"
expect_status baseline_compiles 0
# Two runs only (it is the slowest test under make check): the compiled image
# with one thread, and the source, compiled in memory, with three; the whole
# output must be the same.
check_prints baseline_runs tests/programs/baseline.expected "$EMU" --threads 1 "$TMP/baseline.hex"
prints_checked
run "$EMU" --threads 3 "$B"
expect_same baseline_source_threads_3_identical "$TMP/prints/$prints" "$TMP/out"

# ---- the end-to-end network benchmark (bench/run.sh times it at 4,096) ------------
E=bench/programs/exchange.x
run "$XC" -o "$TMP/exchange.hex" "$E"
expect_status exchange_compiles 0
# small_whole NAME OPTIONS...: bench/programs/NAME.x made small by -D
# (OPTIONS) runs to its end, every one of its 640 packets read, and no
# processor's check fails (one that fails stops with exit status 1).
small_whole() {
    name=$1
    shift
    run "$EMU" "$@" --json "bench/programs/$name.x"
    expect_status "${name}_small_runs" 0
    expect_grep "${name}_small_sent" '"packets_sent": 640,' "$TMP/out"
    expect_grep "${name}_small_read" '"packets_read": 640,' "$TMP/out"
    sed -n 's/.*"halted": {\([^}]*\)}.*/\1/p' "$TMP/out" | tr ',' '\n' | grep -v ': 0$' >"$TMP/stopped"
    expect_empty "${name}_small_checks_pass" "$TMP/stopped"
}
small_whole exchange -D n=16 -D rounds=40 --duplex full
# permute_port0.x (bench/run.sh times it at 4,096 too): every packet read,
# and every processor's sum right.
small_whole permute_port0 -D n=16 -D rounds=40 --duplex full --port-depth 4

# stalled.x (bench/run.sh times a timestep of it at 1,024 and 65,536), small
# by -D: processor 0 adds 0..99 (4950) and broadcasts it while the 15 others
# wait on IN. They reach their IN at timestep 16 and read the broadcast,
# sent at 1333, at 1333 + 4c = 1349 (c = 4: machine.md), so each stalls
# 1333 timesteps: 19995 in all, counted although no waiting processor is
# visited, and the same with the processors shared by three threads.
S=bench/programs/stalled.x
run "$EMU" -D n=16 -D work=100 --json "$S"
expect_status stalled_small_runs 0
expect_grep stalled_small_sum 'p0: 4950' "$TMP/out"
expect_grep stalled_small_read '"packets_read": 15,' "$TMP/out"
expect_grep stalled_small_stalls '"stalls_in": 19995,' "$TMP/out"
expect_grep stalled_small_timesteps '"timesteps": 1360,' "$TMP/out"
sed -n 's/.*"halted": {\([^}]*\)}.*/\1/p' "$TMP/out" | tr ',' '\n' | grep -v ': 0$' >"$TMP/stopped"
expect_empty stalled_small_checks_pass "$TMP/stopped"
cp "$TMP/out" "$TMP/stalled1"
run "$EMU" -D n=16 -D work=100 --json --threads 3 "$S"
expect_same stalled_small_threads_3_identical "$TMP/stalled1" "$TMP/out"
