# bin/emu --html: the page's recording is the run. For every timestep of
# Appendix C under every routing (and in full duplex, and on one plane), and
# for larger programs, two of them with virtual channels, two with messages
# of several words, build/tools/html_state reads the JSON inside the
# page back and prints what --state T prints of it -- each processor's
# status, slot and ports, every packet or flit with its place, the buffers
# and ports that messages own -- and the counts of the report (packets,
# multicasts and their copies, messages and their flits, collisions); both
# must be the emulator's own. Then the
# option's limits and errors. (tests/cli/html_browser.sh opens the pages.)
. tests/lib.sh
STATE=${BUILD:-build}/tools/html_state

# The parts of --state the page shows: headings, processors without their
# instruction and registers, packets; blanks squeezed.
state_part() {
    grep -E '^(=== state after|packets in the network|  #|  p[0-9]|owned: )' |
        sed 's/ pc [0-9a-f]\{4\} .*  slot /  slot /' | tr -s ' '
}

# The report's counts, as html_state prints them.
report_part() {
    sed -n 's/^\(packets: [0-9]* sent, [0-9]* delivered\).*/\1/p
            /^link collisions: /p; /^buffer collisions: /p; /^collisions: /p
            /^multicasts: /p; /^messages: /p'
}

# same_as_state NAME OPTIONS... PROGRAM: the page of a run against --state
# at each of its timesteps and against its report.
same_as_state() {
    name=$1; shift
    "$EMU" --html "$TMP/page.html" "$@" >"$TMP/report" 2>"$TMP/err"
    last=$(sed -n 's/^timesteps: //p' "$TMP/report")
    all=$(awk -v n="$last" 'BEGIN { for (i = 0; i <= n; i++) printf "%s%d", i ? "," : "", i }')
    "$EMU" --state "$all" "$@" 2>/dev/null | state_part >"$TMP/want"
    report_part <"$TMP/report" >>"$TMP/want"
    "$STATE" "$TMP/page.html" >"$TMP/all.raw" 2>"$TMP/err" || { fail "$name" "$(cat "$TMP/err")"; return; }
    sed '/^printed:$/,$d' "$TMP/all.raw" >"$TMP/got.raw"
    counts='^(packets: |link collisions: |buffer collisions: |collisions: |multicasts: |messages: )'
    { grep -v -E "$counts" "$TMP/got.raw" | state_part; grep -E "$counts" "$TMP/got.raw"; } >"$TMP/got"
    if [ -z "$last" ] || [ "$(grep -c '^=== state' "$TMP/got")" -ne $((last + 1)) ]; then
        fail "$name" "the page does not hold timesteps 0 to $last"
    else
        expect_same "$name" "$TMP/want" "$TMP/got"
    fi
}

for routing in benes benes-full greedy valiant random dmodk adaptive; do
    same_as_state "html_state_appendix_c_$routing" --routing "$routing" programs/appendix_c.x
done
same_as_state html_state_appendix_c_full_duplex --duplex full --routing dmodk programs/appendix_c.x
same_as_state html_state_appendix_c_one_plane --planes 1 --routing greedy programs/appendix_c.x
same_as_state html_state_matvec --routing dmodk programs/matvec.x
same_as_state html_state_multicast_sets programs/multicast_sets.x
same_as_state html_state_unread_and_limit --max-steps 40 --port-depth 2 tests/data/stop.x
# Virtual channels: places name lanes and channel buffers.
same_as_state html_state_head_of_line_vcs_2 --vcs 2 programs/head_of_line.x
same_as_state html_state_multicast_vcs_3_full --vcs 3 --duplex full --routing adaptive programs/multicast_sets.x
# Messages of several words: every flit, and the places their messages own
# (even when empty), with one channel and with two.
same_as_state html_state_contention programs/contention.x
same_as_state html_state_pipeline_vcs_2 --vcs 2 programs/pipeline.x

# What the program printed, and why the run ended as the report says it
# after its "end:" line (a fault, a deadlock's diagnosis, statuses of
# stop), are on the page.
printed_and_ending() {
    name=$1; shift
    "$EMU" --html "$TMP/page.html" "$@" >"$TMP/report" 2>/dev/null
    "$STATE" "$TMP/page.html" >"$TMP/all.raw" 2>"$TMP/err" || { fail "$name" "$(cat "$TMP/err")"; return; }
    sed -n '/^printed:$/,/^ending:$/p' "$TMP/all.raw" | sed '1d; $d' >"$TMP/got"
    grep -E '^p[0-9]+: ' "$TMP/report" >"$TMP/want"
    expect_same "${name}_printed" "$TMP/want" "$TMP/got"
    sed '1,/^ending:$/d' "$TMP/all.raw" >"$TMP/got"
    n=$(wc -l <"$TMP/got")
    sed -n '/^end: /,$p' "$TMP/report" | sed '1d' | head -n "$n" >"$TMP/want"
    if [ "$n" -gt 0 ]; then expect_same "${name}_ending" "$TMP/want" "$TMP/got"
    else fail "${name}_ending" "the page says nothing of why the run ended"; fi
}
printed_and_ending html_deadlock_ring tests/data/deadlocks/ring.x
printed_and_ending html_fault_divide tests/data/faults/divide.x
"$EMU" -q --html "$TMP/page.html" programs/broadcast.x >/dev/null
"$STATE" "$TMP/page.html" | sed -n '/^printed:$/,$p' >"$TMP/got"
printf 'printed:\np0: 265584\nending:\n' >"$TMP/want"
expect_same html_normal_end_printed_no_ending "$TMP/want" "$TMP/got"

# Appendix C's page is small, and the same bytes every time.
"$EMU" -q --html "$TMP/a.html" programs/appendix_c.x >/dev/null
"$EMU" -q --html "$TMP/b.html" --threads 2 programs/appendix_c.x >/dev/null
size=$(wc -c <"$TMP/a.html")
if [ "$size" -lt 100000 ]; then pass html_appendix_c_under_100kb
else fail html_appendix_c_under_100kb "$size bytes"; fi
expect_same html_same_bytes_any_threads "$TMP/a.html" "$TMP/b.html"
if grep -q -E '(src|href)="[a-z]+:' "$TMP/a.html"; then fail html_fetches_nothing "$(grep -o -E '(src|href)="[^"]*"' "$TMP/a.html")"
else pass html_fetches_nothing; fi

# More than 4,096 processors: one line, before the run, and no file.
run "$EMU" --html "$TMP/big.html" --procs 8192 programs/appendix_c.x
expect_status html_too_many_procs_status 1
expect_empty html_too_many_procs_nothing_runs "$TMP/out"
expect_grep html_too_many_procs_says_so "emu: --html: the page draws at most 4096 processors (this run has 8192)" "$TMP/err"
if [ "$(wc -l <"$TMP/err")" -eq 1 ] && [ ! -e "$TMP/big.html" ]; then pass html_too_many_procs_one_line
else fail html_too_many_procs_one_line "$(cat "$TMP/err")"; fi

# A longer run than a page holds: recorded up to 2,560,000 processor-timesteps.
"$EMU" -q --html "$TMP/long.html" --procs 256 --max-steps 10005 programs/primes.x >/dev/null 2>&1   # (at its limit)
expect_grep html_long_run_recorded_in_part '"recorded":10000,' "$TMP/long.html"
expect_grep html_long_run_keeps_its_length '"timesteps":10005,' "$TMP/long.html"

# Files it cannot or must not write.
run "$EMU" --html "$TMP/no/such/dir/x.html" programs/appendix_c.x
expect_status html_unwritable_status 1
expect_empty html_unwritable_nothing_runs "$TMP/out"
expect_grep html_unwritable_says_so "emu: --html: cannot write '$TMP/no/such/dir/x.html'" "$TMP/err"
cp programs/appendix_c.x "$TMP/prog.x"
run "$EMU" --html "$TMP/prog.x" "$TMP/prog.x"
expect_status html_program_itself_status 1
expect_grep html_program_itself_says_so "is the program itself" "$TMP/err"
run "$EMU" --html programs/appendix_c.x
expect_status html_needs_a_file 1
