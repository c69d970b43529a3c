# The emulator's command line (spec/cli.md): option errors, exit statuses,
# output streams, -q, --json, --routes, --trace, --state and --step
# transcripts (golden files), determinism and unwritable outputs.
. tests/lib.sh
APPC=tests/data/appendix_c.hex
D=tests/data/hex

# ---- bad command lines: one line on stderr naming the option, status 1 --------
# (The line read by the shell: a wc and a grep were sixty processes.)
bad_option() {
    name=$1; want=$2; shift 2
    run "$EMU" "$@"
    first= second= ended= more=
    { IFS= read -r first && ended=1 && { IFS= read -r second || [ -n "$second" ]; } && more=1; } <"$TMP/err"
    if [ "$STATUS" -eq 1 ] && [ ! -s "$TMP/out" ] && [ -n "$ended" ] && [ -z "$more" ] &&
       [ "$first" = "$want" ]; then pass "$name"
    else fail "$name" "status $STATUS, stderr:" "$(cat "$TMP/err")" "expected: $want"; fi
}
bad_option option_unknown "emu: unknown option '--fast' (see emu --help)" --fast $APPC
bad_option option_routing "emu: --routing: 'fastest' is not a routing (accepted: benes, benes-full, greedy, valiant, random, dmodk, adaptive)" --routing fastest $APPC
bad_option option_buffer_range "emu: --buffer: '0' is out of range (accepted: 1 .. 1024)" --buffer 0 $APPC
bad_option option_vcs_zero "emu: --vcs: '0' is out of range (accepted: 1 .. 8)" --vcs 0 $APPC
bad_option option_vcs_nine "emu: --vcs: '9' is out of range (accepted: 1 .. 8)" --vcs 9 $APPC
bad_option option_vcs_number "emu: --vcs: 'two' is not a number (accepted: 1 .. 8)" --vcs two $APPC
bad_option option_procs_negative "emu: --procs: '-1' is out of range (accepted: 1 .. 16777216)" --procs -1 $APPC
bad_option option_buffer_minus "emu: --buffer: '-' is not a number (accepted: 1 .. 1024)" --buffer=- $APPC
bad_option option_buffer_number "emu: --buffer: 'five' is not a number (accepted: 1 .. 1024)" --buffer five $APPC
bad_option option_buffer_equals "emu: --buffer: '1025' is out of range (accepted: 1 .. 1024)" --buffer=1025 $APPC
bad_option option_missing_value "emu: --procs needs a value (accepted: 1 .. 16777216)" $APPC --procs
bad_option option_procs_range "emu: --procs: '16777217' is out of range (accepted: 1 .. 16777216)" --procs 16777217 $APPC
bad_option option_planes "emu: --planes: '3' is out of range (accepted: 1 or 2)" --planes 3 $APPC
bad_option option_duplex "emu: --duplex: 'simplex' is not a link model (accepted: half, full)" --duplex simplex $APPC
bad_option option_ports "emu: --ports: '257' is out of range (accepted: 1 .. 256)" --ports 257 $APPC
bad_option option_port_depth "emu: --port-depth: '0' is out of range (accepted: 1 .. 1024)" --port-depth 0 $APPC
bad_option option_mem "emu: --mem: '255' is out of range (accepted: 256 .. 268435456)" --mem 255 $APPC
bad_option option_seed "emu: --seed: '-1' is out of range (accepted: 0 .. 18446744073709551615)" --seed -1 $APPC
bad_option option_seed_big "emu: --seed: '18446744073709551616' is out of range (accepted: 0 .. 18446744073709551615)" --seed 18446744073709551616 $APPC
bad_option option_max_steps "emu: --max-steps: '0' is out of range (accepted: 1 .. 9223372036854775808)" --max-steps 0 $APPC
bad_option option_threads "emu: --threads: '257' is out of range (accepted: 1 .. 256)" --threads 257 $APPC
bad_option option_state "emu: --state: '1,,2' is not a list of timesteps (accepted: timesteps 0 .. 18446744073709551615, separated by commas)" --state 1,,2 $APPC
bad_option option_flag_value "emu: --routes takes no value (got 'yes')" --routes=yes $APPC
bad_option option_no_program "emu: no program given (usage: emu [options] prog.x | prog.hex; see emu --help)" --routing dmodk
bad_option option_two_programs "emu: more than one program given ('$APPC' and '$APPC')" $APPC $APPC
bad_option option_procs_too_few "emu: --procs 4 is fewer than the program's 8 processors" --routing dmodk --procs 4 $APPC
bad_option missing_file "emu: $TMP/none.hex: cannot open: No such file or directory" $TMP/none.hex
bad_option missing_source "emu: $TMP/none.x: cannot open: No such file or directory" $TMP/none.x
# A program's source named without .x is read as an image, and a note says so.
printf 'proc main() is\n  print 7\n' >"$TMP/noext"
run "$EMU" "$TMP/noext"
if [ "$STATUS" -eq 1 ] && grep -qF "emu: note: '$TMP/noext' does not end in .x, so it was read as a hex image (only a .x file is compiled)" "$TMP/err"
then pass source_without_x_note; else fail source_without_x_note "status $STATUS" "$(cat "$TMP/err")"; fi
printf '0100 0000 0000 0000\n' >"$TMP/short.hex"
bad_option malformed_hex "emu: $TMP/short.hex: record 0 at byte offset 0: record runs past the end of the file (length 1, 0 bytes left)" $TMP/short.hex

# ---- exit statuses and what each end reports ----------------------------------------
run "$EMU" --routing dmodk $APPC
expect_status status_normal 0
expect_empty normal_no_stderr "$TMP/err"
expect_grep normal_end "end: normal" "$TMP/out"
if [ "$(tail -n 2 "$TMP/out")" = "$(printf 'collisions: 2\ntimesteps: 36')" ]; then
    pass normal_closing_lines; else fail normal_closing_lines "$(tail -n 2 "$TMP/out")"; fi

# --procs rounds up to a power of two, and to 2, the smallest network.
printf 'proc main() is\n  print 7\n' >"$TMP/one.x"
run "$EMU" --procs 1 "$TMP/one.x"
expect_grep procs_one_is_two "processors: 2 (1 programmed" "$TMP/out"
run "$EMU" --routing dmodk $D/divide_by_zero.hex
expect_status status_fault 2
expect_grep fault_details "fault: p0: division by zero at 0003 (prefixes from 0002): DIV" "$TMP/out"
# The processors line counts the faulted one, so that its counts add up.
printf 'proc main() is\n  network i for 4 do if i = 2 then 9 ! 1 else skip\n' >"$TMP/f.x"
run "$EMU" "$TMP/f.x"
expect_grep processors_count_faulted "processors: 4 (4 programmed, 3 halted, 1 faulted, 0 running)" "$TMP/out"

run "$EMU" --routing dmodk $D/waits_forever.hex
expect_status status_deadlock 3
expect_grep deadlock_kind "deadlock: a program deadlock" "$TMP/out"
expect_grep deadlock_wait "waiting: p0 at 0001 waits for IN on port 0" "$TMP/out"

run "$EMU" --routing dmodk --max-steps 1000 $D/loop.hex
expect_status status_limit 4
expect_grep limit_end "end: limit" "$TMP/out"
expect_grep limit_timesteps "timesteps: 1000" "$TMP/out"

# Several ends after one timestep: the first of fault, normal end, deadlock,
# limit. divide_by_zero faults at t4, when nothing else runs (so nothing
# moved: a deadlock too); Appendix C ends normally at t36, waits_forever
# deadlocks at t3; each with the limit reached at that same timestep.
run "$EMU" --routing dmodk --max-steps 4 $D/divide_by_zero.hex
expect_status precedence_fault_before_deadlock_and_limit 2
expect_grep precedence_fault_end "end: fault" "$TMP/out"
run "$EMU" --routing dmodk --max-steps 36 $APPC
expect_status precedence_normal_before_limit 0
run "$EMU" --routing dmodk --max-steps 3 $D/waits_forever.hex
expect_status precedence_deadlock_before_limit 3
expect_grep precedence_deadlock_end "end: deadlock" "$TMP/out"

# A machine too large to allocate (2^23 processors of 2^28 words: 2^53
# bytes of address space, more than a process gets) is refused before
# anything runs. (--max-mem: past the estimate, to the allocation itself;
# --max-steps: a host that could map it must not loop; under make check the
# sanitizer must let a failed allocation return NULL.)
run env ASAN_OPTIONS="${ASAN_OPTIONS:+$ASAN_OPTIONS:}allocator_may_return_null=1" \
    "$EMU" --max-mem 1000000T --procs 8388608 --planes 1 --mem 268435456 --max-steps 1 $D/loop.hex
expect_status too_large_status 1
expect_grep too_large_message "emu: cannot allocate a machine of 8388608 processors" "$TMP/err"
expect_empty too_large_no_stdout "$TMP/out"
# ...and a network with more ports than the words that name them hold
# (2^23 processors on two planes), whatever the memory, says so.
run env ASAN_OPTIONS="${ASAN_OPTIONS:+$ASAN_OPTIONS:}allocator_may_return_null=1" \
    "$EMU" --max-mem 1000000T --procs 8388608 --max-steps 1 $D/loop.hex
expect_status unnumbered_status 1
expect_grep unnumbered_message "emu: a network of 8388608 processors on 2 planes has more ports than the emulator can number: give it fewer processors or one plane (--planes 1)" "$TMP/err"
expect_empty unnumbered_no_stdout "$TMP/out"

# The largest buffer occupancy is a count of packets against the buffer's
# size, worded apart from the state's "place 1 of 2" (a place among the
# packets present).
run "$EMU" --routing dmodk $APPC
expect_grep occupancy_wording "largest buffer occupancy: 2 packets (each buffer holds 5)" "$TMP/out"
run "$EMU" --buffer 1 $APPC
expect_grep occupancy_wording_one "largest buffer occupancy: 1 packet (each buffer holds 1)" "$TMP/out"

# An image compiled for more memory than the run has faults; a note after
# the report names the --mem its header says it was compiled for. Not for
# an image compiled for less, nor one without a header.
"$XC" -o "$TMP/mem200000.hex" programs/appendix_c.x
run "$EMU" --mem 1000 "$TMP/mem200000.hex"
expect_status built_mem_fault_status 2
expect_grep built_mem_note "emu: note: the image was compiled for --mem 200000 (its header says so), but this run has --mem 1000: its stack and globals lie beyond memory; run it with --mem 200000, or compile it again with xc --mem 1000" "$TMP/err"
run "$EMU" --mem 1000 -q --json "$TMP/mem200000.hex"
expect_grep built_mem_note_json "emu: note: the image was compiled for --mem 200000" "$TMP/err"
"$XC" --mem 1000 -o "$TMP/mem1000.hex" programs/appendix_c.x
run "$EMU" "$TMP/mem1000.hex"
expect_status built_mem_less_runs 0
expect_empty built_mem_less_no_note "$TMP/err"
run "$EMU" --mem 1000 $APPC
expect_status built_mem_no_header_status 2
expect_empty built_mem_no_header_no_note "$TMP/err"

# ---- -q, --json, --histogram, --routes ------------------------------------------------
run "$EMU" --routing dmodk -q tests/data/conformance/case028.hex --duplex half --planes 2 --buffer 2 --port-depth 1
expect_status quiet_status 0
# (the program's output, its non-zero halt statuses and the closing lines)
sed -n '/^stdout:$/,$p' tests/data/conformance/case028.expected | tail -n +2 >"$TMP/prints"
{ sed '$d' "$TMP/prints" | sed '$d'; echo 'halted with status 1: p1, p3'; tail -n 2 "$TMP/prints"; } >"$TMP/want"
expect_same quiet_only_program_output "$TMP/want" "$TMP/out"

run "$EMU" --routing dmodk --json $APPC
expect_status json_status 0
if [ "$(wc -l <"$TMP/out")" -eq 1 ] && head -c 1 "$TMP/out" | grep -q '{' &&
   tail -c 2 "$TMP/out" | grep -q '}'; then pass json_one_object
else fail json_one_object "$(head -c 300 "$TMP/out")"; fi
for key in end exit_status processors programmed timesteps collisions link_collisions \
           buffer_collisions collisions_by_layer instructions stalls_in stalls_out \
           packets_sent packets_delivered packets_read latency_min latency_mean latency_max \
           latency_histogram links_crossed port_waits max_buffer halted faults waiting \
           in_network unread; do
    grep -qF "\"$key\": " "$TMP/out" || fail "json_key_$key" "missing key $key"
done
pass json_keys_present
expect_grep json_values '"end": "normal", "exit_status": 0, "processors": 8, "programmed": 8, "timesteps": 36, "collisions": 2, "link_collisions": 0, "buffer_collisions": 2, "collisions_by_layer": {"1": {"link": {"up": 0, "down": 0}, "buffer": {"up": 2, "down": 0}}' "$TMP/out"
expect_grep json_options '"options": {"routing": "dmodk", "duplex": "half", "planes": 2, "buffer": 5, "ports": 16, "port_depth": 1, "mem": 200000, "seed": 1, "max_steps": null}}' "$TMP/out"
expect_grep json_latency '"latency_min": 7, "latency_mean": 9.250, "latency_max": 12, "latency_histogram": {"7": 4, "11": 2, "12": 2}' "$TMP/out"
# With a program that prints, the object comes after its lines, on a line of
# its own, and ends stdout.
run "$EMU" --json --duplex full --buffer 2 --seed 1674216077 --ports 11 tests/data/conformance/case001.hex
sed -n '/^stdout:$/,$p' tests/data/conformance/case001.expected | grep '^p' >"$TMP/want"
sed '$d' "$TMP/out" >"$TMP/prints"
if cmp -s "$TMP/want" "$TMP/prints" && tail -n 1 "$TMP/out" | grep -q '^{"end": "normal".*}$'
then pass json_after_program_output
else fail json_after_program_output "$(head -c 600 "$TMP/out")"; fi
run "$EMU" --routing dmodk --json $D/waits_forever.hex
expect_grep json_null_latency '"latency_min": null, "latency_mean": null, "latency_max": null' "$TMP/out"
expect_grep json_waiting '"waiting": [{"processor": 0, "on": "in", "port": 0, "pc": 2, "prefix_pc": 1, "source": null}]' "$TMP/out"
# A file name is any bytes; in the report's strings a byte that is no part
# of a UTF-8 character is U+FFFD, so that the report stays JSON.
bad=$(printf '%s/u\377\303\251.x' "$TMP")
cp tests/data/deadlocks/wrong_port.x "$bad"
run "$EMU" --json "$bad"
expect_grep json_source_utf8 "$(printf '"source": "%s/u\\ufffd\303\251.x:' "$TMP")" "$TMP/out"

run "$EMU" --routing dmodk --histogram $APPC
expect_grep histogram_line "  latency 11: 2 packets" "$TMP/out"

run "$EMU" --routing dmodk --routes $APPC
expect_grep routes_spec_example "t=18 route #3 p3->p1 port 0 plane 0 count 2 routing 0b1 addressing 0b01" "$TMP/out"
expect_grep routes_turn_at_3 "t=18 route #5 p5->p0 port 0 plane 0 count 3 routing 0b00 addressing 0b000" "$TMP/out"
if [ "$(grep -c '^t=18 route #' "$TMP/out")" -eq 8 ]; then pass routes_count
else fail routes_count "$(grep -c route "$TMP/out") route lines"; fi

# adaptive: the route is printed without up ports, then each choice made in
# stage d: the up buffer with more free places, ties to bit l-1 of the
# destination. At t19 p0->p2 enters switch (1,0) first (port d0), both up
# buffers empty: a tie, bit 0 of 2 is 0, u0. p1->p4 enters it next: u0 has
# a place fewer, so u1, although bit 0 of 4 is 0. p4->p7 alone at (1,2): a
# tie, bit 0 of 7, u1. Four packets turn at 3 and four at 2: 12 choices.
run "$EMU" --routing adaptive --routes $APPC
expect_grep routes_adaptive_route "t=18 route #1 p1->p4 port 0 plane 0 count 3 routing (adaptive) addressing 0b100" "$TMP/out"
expect_grep routes_adaptive_tie_to_destination_bit "t=19 route #0 p0->p2 layer 1 up port 0" "$TMP/out"
expect_grep routes_adaptive_more_free_places "t=19 route #1 p1->p4 layer 1 up port 1" "$TMP/out"
expect_grep routes_adaptive_tie_to_destination_bit_1 "t=19 route #4 p4->p7 layer 1 up port 1" "$TMP/out"
if [ "$(grep -c '^t=[0-9]* route #[0-9]* p[0-9]*->p[0-9]* layer [0-9] up port [01]$' "$TMP/out")" -eq 12 ]
then pass routes_adaptive_choices_count
else fail routes_adaptive_choices_count "$(grep -c ' layer ' "$TMP/out") choice lines"; fi

# ---- --trace --------------------------------------------------------------------------
run "$EMU" --routing dmodk --trace "$TMP/trace.csv" $APPC
expect_status trace_status 0
expect_grep trace_header "timestep,event,packet,src,dst,port,place,detail" "$TMP/trace.csv"
expect_grep trace_created "18,created,0,0,2,0,output slot of p0," "$TMP/trace.csv"
expect_grep trace_queued "19,queued,1,1,4,0,buffer p0.l1.s0.u0," "$TMP/trace.csv"
expect_grep trace_delivered "25,delivered,0,0,2,0,input port 0 of p2," "$TMP/trace.csv"
expect_grep trace_read "26,read,0,0,2,0,input port 0 of p2," "$TMP/trace.csv"
if [ "$(grep -c ',claimed,' "$TMP/trace.csv")" -eq 40 ]; then pass trace_claims_are_links_crossed
else fail trace_claims_are_links_crossed "$(grep -c ',claimed,' "$TMP/trace.csv") claims"; fi
# The trace's collision rows are the report's collisions, one a row: a
# flit waiting behind its own message is none and has no row (messages.md);
# a head refused by a buffer another message owns says so, and names it.
coll_rows() { awk -F, '$2 ~ /^(link-collision|buffer-full|buffer-owned|queued)$/' "$1" | wc -l; }
i=0
for args in "programs/contention.x" "--switching cut-through --buffer 8 programs/contention.x" \
            "programs/pipeline.x" "--routing dmodk programs/all_to_all.x"; do
    i=$((i + 1))
    run "$EMU" -q --trace "$TMP/c.csv" $args
    want=$(sed -n 's/^collisions: //p' "$TMP/out")
    if [ -n "$want" ] && [ "$(coll_rows "$TMP/c.csv")" -eq "$want" ]; then pass trace_collision_rows_$i
    else fail trace_collision_rows_$i "$args: $(coll_rows "$TMP/c.csv") rows, $want collisions"; fi
done
run "$EMU" -q --trace "$TMP/c.csv" programs/contention.x
expect_grep trace_buffer_owned "829,buffer-owned,1.0,1,7,1,buffer p0.l1.s0.u0,owned by #0" "$TMP/c.csv"
run "$EMU" --routing dmodk --trace "$TMP/no/such/dir/t.csv" $APPC
expect_status trace_unwritable 1
expect_grep trace_unwritable_message "emu: --trace: cannot write '$TMP/no/such/dir/t.csv'" "$TMP/err"

# An output never replaces an input: --trace naming the program file (under
# its own name or another) is refused, and the program is left as it was.
mkdir "$TMP/own"
cp programs/appendix_c.x "$TMP/own/prog.x"
run "$EMU" --trace "$TMP/own/prog.x" "$TMP/own/prog.x"
expect_status trace_is_program_status 1
expect_grep trace_is_program_message "emu: --trace: '$TMP/own/prog.x' is the program itself: writing there would destroy it (name another file)" "$TMP/err"
expect_same trace_is_program_untouched programs/appendix_c.x "$TMP/own/prog.x"
ln "$TMP/own/prog.x" "$TMP/own/link.x"
run "$EMU" --trace "$TMP/own/link.x" "$TMP/own/prog.x"
expect_status trace_is_program_other_name_status 1
expect_grep trace_is_program_other_name_message "is the program '$TMP/own/prog.x' itself" "$TMP/err"
expect_same trace_is_program_other_name_untouched programs/appendix_c.x "$TMP/own/prog.x"

# A run that does not start writes no trace, not even the header, and leaves
# a file already there as it was.
for why in too_large compile_error bad_hex; do
    case $why in
    too_large) set -- --procs 16777216 programs/appendix_c.x ;;
    compile_error) printf 'proc main() is\n  print 1 +\n' >"$TMP/own/bad.x"; set -- "$TMP/own/bad.x" ;;
    bad_hex) printf '0100000000000000 3g' >"$TMP/own/bad.hex"; set -- "$TMP/own/bad.hex" ;;
    esac
    rm -f "$TMP/own/t.csv"
    run env ASAN_OPTIONS="${ASAN_OPTIONS:+$ASAN_OPTIONS:}allocator_may_return_null=1" \
        "$EMU" --trace "$TMP/own/t.csv" "$@"
    expect_status trace_not_started_${why}_status 1
    if [ ! -e "$TMP/own/t.csv" ]; then pass trace_not_started_${why}_no_file
    else fail trace_not_started_${why}_no_file "$(head -c 200 "$TMP/own/t.csv")"; fi
    echo "kept" >"$TMP/own/t.csv"
    run env ASAN_OPTIONS="${ASAN_OPTIONS:+$ASAN_OPTIONS:}allocator_may_return_null=1" \
        "$EMU" --trace "$TMP/own/t.csv" "$@"
    if [ "$(cat "$TMP/own/t.csv")" = kept ]; then pass trace_not_started_${why}_file_kept
    else fail trace_not_started_${why}_file_kept "$(head -c 200 "$TMP/own/t.csv")"; fi
done

# ---- --state and --step (golden transcripts) ------------------------------------------
run "$EMU" --routing dmodk --state 0,19,25 $APPC
expect_same state_golden tests/golden/appendix_c.state "$TMP/out"
printf '\n3\nwhat\ns\n2\nf\nq\n' >"$TMP/commands"
"$EMU" --routing dmodk --step $APPC <"$TMP/commands" >"$TMP/out" 2>"$TMP/err"
STATUS=$?
expect_status step_quit_status 4
expect_same step_golden tests/golden/appendix_c.step "$TMP/out"
# A command not understood is named, and the help that follows fits 80
# columns; a number may have spaces around it; 0 is no number of timesteps.
printf '%s\n' "'what' is not a command" \
    "commands: Enter = next timestep, n = run n timesteps, c = to the end," \
    "          s = statistics so far, f = full state, q = quit" >"$TMP/want"
grep -A2 "'what'" "$TMP/err" | sed 's/^\(step t=[0-9]*> \)*//' >"$TMP/got"   # (the prompts answered)
expect_same step_help "$TMP/want" "$TMP/got"
printf '0\n 2 \nq\n' | "$EMU" --routing dmodk --step $APPC >"$TMP/out" 2>"$TMP/err"
if grep -q "^step t=0> '0': a number of timesteps is from 1 to " "$TMP/err" && grep -q '^=== t=2:' "$TMP/out"
then pass step_numbers_read; else fail step_numbers_read "$(cat "$TMP/err")"; fi
# A stretch that runs past the end stops there and shows the last state, as
# Enter at the last timestep does.
printf '100\n' | "$EMU" --routing dmodk --step $APPC >"$TMP/out" 2>/dev/null
if [ "$(sed -n '/^=== t=36:/=' "$TMP/out")" -lt "$(sed -n '/^end: normal/=' "$TMP/out")" ]
then pass step_past_the_end_shows_the_last_state; else fail step_past_the_end_shows_the_last_state "$(grep -n '^===\|^end' "$TMP/out")"; fi
# Each state --step shows fits a terminal of 24 lines (22, the prompt answered
# and the next) and 80 columns for Appendix C, at every timestep, without the
# drawing.
yes '' | head -n 40 | "$EMU" --routing dmodk --step $APPC >"$TMP/out" 2>/dev/null
awk '/^end:/ { exit } /^=== / { n = 0; states++ } { n++; if (n > tall) tall = n; if (length($0) > 80) wide++ }
     END { printf "%d states, at most %d lines, %d lines over 80 columns\n", states, tall, wide }' \
    "$TMP/out" >"$TMP/got"
echo "37 states, at most 19 lines, 0 lines over 80 columns" >"$TMP/want"
expect_same step_compact_fits_a_screen "$TMP/want" "$TMP/got"
if grep -q '^plane 0' "$TMP/out"; then fail step_compact_has_no_drawing; else pass step_compact_has_no_drawing; fi
# With more packets than the screen has room for, they are cut to fill it
# and the last line says how many more there are (p0's packets take a line
# of their own, below it); f shows the full state, every packet with its
# route.
printf 'proc main() is\n  var i;\n  network p for 8 do {\n    i := 0;\n    while i < 6 do { 0 : p ! i; i := i + 1 }\n  }\n' >"$TMP/flood.x"
printf '100\nf\nq\n' | "$EMU" --step "$TMP/flood.x" >"$TMP/out" 2>/dev/null
sed -n '/^=== t=100:/,/^=== state/p' "$TMP/out" >"$TMP/got"
if [ "$(wc -l <"$TMP/got")" -eq 23 ]; then pass step_compact_cut_to_the_screen
else fail step_compact_cut_to_the_screen "$(cat "$TMP/got")"; fi
expect_grep step_compact_more_packets "... and 21 more packets (f shows them all)" "$TMP/got"
# (the timestep's 13 collisions take four lines of the screen: three named,
# then how many more)
expect_grep step_compact_collisions_counted "... and 10 more collisions (--trace lists them)" "$TMP/got"
expect_grep step_full_state_on_f "packets in the network: 28" "$TMP/out"
if [ "$(grep -c '^  #[0-9]* *p[0-9]*->p0 *port [0-7] *data [0-9]*, *plane' "$TMP/out")" -eq 28 ]; then
    pass step_full_state_every_packet; else fail step_full_state_every_packet; fi
# A --state timestep past the end of the run is named on stderr; the run
# and its exit status are as without it.
run "$EMU" --routing dmodk --state 20,1000,2000 $APPC
expect_status state_past_the_end_status 0
expect_grep state_past_the_end_message "emu: --state 1000,2000: the run ended at timestep 36" "$TMP/err"
expect_grep state_past_the_end_others_shown "=== state after timestep 20:" "$TMP/out"
run "$EMU" --routing dmodk --state 36 $APPC
expect_empty state_at_the_end_no_message "$TMP/err"
# --state's timesteps keep the full state under --step, without a compact one.
printf '\n\nq\n' | "$EMU" --routing dmodk --step --state 2 $APPC >"$TMP/out" 2>/dev/null
grep '^===' "$TMP/out" >"$TMP/got"
printf '%s\n' '=== t=0, before the first timestep: 0 packets in the network ===' \
    '=== t=1: 0 collisions (0 in all), 0 packets in the network ===' \
    '=== state after timestep 2: 0 collisions in this timestep, 0 in all ===' '===' >"$TMP/want"
expect_same step_with_state_full "$TMP/want" "$TMP/got"
# s prints the statistics so far with the closing lines, as the report would.
printf 's\nq\n' | "$EMU" --routing dmodk --step $APPC >"$TMP/out" 2>"$TMP/err"
sed -n '/^buffer collisions/,$p' "$TMP/out" | head -n 4 >"$TMP/got"
printf 'buffer collisions: 0\ncollisions: 0\ntimesteps: 0\nend: limit\n' >"$TMP/want"
expect_same step_statistics_closing_lines "$TMP/want" "$TMP/got"
"$EMU" --routing dmodk --step $APPC </dev/null >"$TMP/out" 2>"$TMP/err"
STATUS=$?
expect_status step_end_of_input_runs_on 0
expect_grep step_end_of_input_report "timesteps: 36" "$TMP/out"

# ---- determinism and unwritable output ------------------------------------------------
"$EMU" --routing dmodk --trace "$TMP/t1.csv" --state 20 --routes --json $APPC >"$TMP/r1" 2>&1
"$EMU" --routing dmodk --trace "$TMP/t2.csv" --state 20 --routes --json $APPC >"$TMP/r2" 2>&1
expect_same deterministic_stdout "$TMP/r1" "$TMP/r2"
expect_same deterministic_trace "$TMP/t1.csv" "$TMP/t2.csv"
if [ -w /dev/full ]; then
    run sh -c "\"$EMU\" --routing dmodk $APPC >/dev/full"
    expect_status output_unwritable 1
    expect_grep output_unwritable_message "emu: cannot write the output" "$TMP/err"
fi

# ---- help and version -------------------------------------------------------------------
run "$EMU" --help
expect_status help_status 0
expect_grep help_usage "usage: emu [options] prog.x | prog.hex" "$TMP/out"
expect_grep help_examples "Examples:" "$TMP/out"
run "$EMU" --version
expect_grep version "emu " "$TMP/out"

# ---- Ctrl-C and the progress line ---------------------------------------------------------
"$EMU" --routing dmodk $D/loop.hex >"$TMP/out" 2>"$TMP/err" &
pid=$!
sleep 0.5
kill -INT $pid
wait $pid
STATUS=$?
expect_status interrupt_status 130
expect_grep interrupt_report "end: interrupted" "$TMP/out"
expect_grep interrupt_closing "collisions: 0" "$TMP/out"
expect_empty interrupt_no_progress_when_not_a_terminal "$TMP/err"
# Ctrl-C at --step's prompt ends the run at once: the report is of the
# timestep shown, not one more. stdin is a pipe that stays open and silent,
# so emu waits at its first prompt until the signal comes.
mkfifo "$TMP/keys"
"$EMU" --routing dmodk --step $APPC <"$TMP/keys" >"$TMP/out" 2>"$TMP/err" &
pid=$!
exec 3>"$TMP/keys"
tries=0
until grep -q 'step t=0> ' "$TMP/err" || [ $tries -ge 100 ]; do sleep 0.1; tries=$((tries + 1)); done
kill -INT $pid
wait $pid
STATUS=$?
exec 3>&-
expect_status step_interrupt_status 130
expect_grep step_interrupt_report "end: interrupted" "$TMP/out"
if [ "$(tail -n 1 "$TMP/out")" = "timesteps: 0" ]; then pass step_interrupt_no_more_timesteps
else fail step_interrupt_no_more_timesteps "$(tail -n 1 "$TMP/out")"; fi
if command -v script >/dev/null 2>&1; then
    # On a terminal (a pseudo-terminal made by script), a run of over a
    # second shows the progress line on stderr. The endless loop is stopped
    # by time, not by a count of timesteps, so that the check takes as long
    # in the sanitizer build as in the normal one.
    script -qec "timeout -s INT 2 \"$EMU\" --routing dmodk -q $D/loop.hex" /dev/null >"$TMP/tty" 2>&1
    expect_grep progress_on_a_terminal "timesteps/s" "$TMP/tty"
    expect_grep progress_then_interrupted_report "timesteps: " "$TMP/tty"
fi

# ---- .x programs are compiled in memory -----------------------------------------------
mkdir "$TMP/xdir"
cp programs/appendix_c.x "$TMP/xdir/"
ls -A "$TMP/xdir" >"$TMP/before"
run "$EMU" -q "$TMP/xdir/appendix_c.x"
expect_status x_run_status 0
if [ "$(tail -n 2 "$TMP/out")" = "$(printf 'collisions: 0\ntimesteps: 35')" ]; then
    pass x_run_appendix_c_benes; else fail x_run_appendix_c_benes "$(cat "$TMP/out")"; fi
ls -A "$TMP/xdir" >"$TMP/after"
expect_same x_run_leaves_no_file "$TMP/before" "$TMP/after"
run "$EMU" --disasm "$TMP/xdir/appendix_c.x"
# processors 0 and 1 of the compiled program are Figure 8's two records
# (the source lines, which start with "; ", aside)
grep -v '^; ' "$TMP/out" | head -n 47 >"$TMP/out.head"
expect_same x_disasm_is_figure8 tests/golden/figure8.disasm "$TMP/out.head"
printf 'proc main() is\n  print 1 +\n' >"$TMP/xdir/bad.x"
run "$EMU" "$TMP/xdir/bad.x"
expect_status x_compile_error_status 1
expect_grep x_compile_error_message "bad.x:2:12: error: expected a name, a number or '(' at end of input" "$TMP/err"
expect_empty x_compile_error_no_stdout "$TMP/out"
if [ ! -e "$TMP/xdir/bad.hex" ]; then pass x_compile_error_no_file; else fail x_compile_error_no_file; fi

# ---- a deadlock of the network itself (half duplex), and its full-duplex twin ---------
run "$EMU" --routing greedy --duplex half --buffer 1 tests/data/network_deadlock.x
expect_status network_deadlock_status 3
expect_grep network_deadlock_kind "deadlock: a network deadlock" "$TMP/out"
expect_grep network_deadlock_up "packet #7 p7->p7 port 0 data 17 (sent at t=18): link p0.l2.s3.u0 up" "$TMP/out"
expect_grep network_deadlock_down "packet #5 p5->p5 port 0 data 15 (sent at t=17): buffer p0.l3.s1.d1 place 1 of 1" "$TMP/out"
run "$EMU" --routing greedy --duplex half --buffer 1 --json tests/data/network_deadlock.x
expect_grep network_deadlock_json '"network_deadlock": true' "$TMP/out"
run "$EMU" -q --routing greedy --duplex full --buffer 1 tests/data/network_deadlock.x
expect_status network_deadlock_full_duplex_completes 0
