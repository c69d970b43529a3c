# -q keeps quiet only about a normal end: stdout holds the program's output,
# the non-zero halt statuses and the two closing lines, whatever the end,
# and a run that ends in a fault, a deadlock, a limit or a signal also says
# on stderr how it ended (its `end:` line) and why, in a line; the exit
# status is the run's.
. tests/lib.sh

# expect_quiet NAME STATUS: the last run's status, stdout as in
# $TMP/want.out and stderr as in $TMP/want.err.
expect_quiet() {
    expect_status $1_status $2
    expect_same $1_stdout "$TMP/want.out" "$TMP/out"
    expect_same $1_stderr "$TMP/want.err" "$TMP/err"
}

# ---- a fault, after a print --------------------------------------------------------------
printf 'proc main() is\n  var a;\n  { a := 0; print 5; print 7 / a }\n' >"$TMP/divide.x"
run "$EMU" -q "$TMP/divide.x"
printf '%s\n' 'p0: 5' 'collisions: 0' 'timesteps: 22' >"$TMP/want.out"
printf '%s\n' 'end: fault' "fault: p0: division by zero at 001b (prefixes from 001a; $TMP/divide.x:3:30, in proc main): DIV" >"$TMP/want.err"
expect_quiet fault 2

# ---- a deadlock, with a halt status ------------------------------------------------------
run "$EMU" -q tests/data/deadlocks/halted_receiver.x
printf '%s\n' 'halted with status 1: p1' 'collisions: 161' 'timesteps: 146' >"$TMP/want.out"
printf '%s\n' 'end: deadlock' 'deadlock: a program deadlock: packets that will never be read hold up the others: input port 0 of p1 (p1 has halted), full with #0 from p0' >"$TMP/want.err"
expect_quiet deadlock 3

# ---- the limit -----------------------------------------------------------------------------
run "$EMU" -q --max-steps 500 tests/data/endless.x
printf '%s\n' 'collisions: 0' 'timesteps: 500' >"$TMP/want.out"
printf '%s\n' 'end: limit' 'limit: --max-steps 500 reached' >"$TMP/want.err"
expect_quiet limit 4

# ---- a signal: said once, with the timestep of the closing line ---------------------------
"$EMU" -q tests/data/endless.x >"$TMP/out" 2>"$TMP/err" &
pid=$!
sleep 0.5
kill -TERM $pid
wait $pid
STATUS=$?
expect_status signal_status 143
t=$(sed -n 's/^timesteps: //p' "$TMP/out")
printf '%s\n' 'end: interrupted' "interrupted: stopped by SIGTERM at timestep $t" >"$TMP/want.err"
expect_same signal_stderr "$TMP/want.err" "$TMP/err"

# ---- a normal end, and --json, say nothing on stderr (but for unread packets) ------------
run "$EMU" -q tests/data/appendix_c.hex
expect_status normal_status 0
expect_empty normal_stderr "$TMP/err"
# ...but for one note when packets are left unread, most often a receive
# forgotten.
printf 'proc main() is\n  network { 1 ! 5 & skip }\n' >"$TMP/forgot.x"
run "$EMU" -q "$TMP/forgot.x"
expect_status forgotten_receive_status 0
echo "emu: note: 1 packet left unread in input ports (without -q the report lists them)" >"$TMP/want"
expect_same forgotten_receive_note "$TMP/want" "$TMP/err"
run "$EMU" -q --json --max-steps 500 tests/data/endless.x
expect_status json_status 4
expect_grep json_says_the_end '"end": "limit"' "$TMP/out"
expect_empty json_stderr "$TMP/err"
