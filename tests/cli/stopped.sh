# A run stopped before its end -- by --max-steps, q in --step or a signal --
# says why it stopped and where each processor still running or waiting
# was: its address, its source line and what it was doing (at most 8, then
# how many more).
. tests/lib.sh
LOOP=tests/data/endless.x

# ---- --max-steps ---------------------------------------------------------------------
run "$EMU" --max-steps 500 $LOOP
expect_status limit_status 4
printf '%s\n' 'end: limit' 'limit: --max-steps 500 reached' \
    'running: p0 at 0015 (tests/data/endless.x:6:34, in proc main): LDWSP 2' \
    'waiting: p1 at 0014 (tests/data/endless.x:7:5, in proc main) waits for IN on port 0' \
    'processors: 2 (2 programmed, 0 halted, 2 running)' >"$TMP/want"
head -n 5 "$TMP/out" >"$TMP/got"
expect_same limit_where "$TMP/want" "$TMP/got"

# q in --step: the same, and what ended it.
printf '3\nq\n' | "$EMU" --step $LOOP >"$TMP/out" 2>/dev/null
expect_grep step_quit_reason "limit: ended by q in --step at timestep 3" "$TMP/out"
expect_grep step_quit_where "running: p1 at 0007 (start-up code): ADJ -2" "$TMP/out"

# Sixteen processors that all run: the first eight, then how many more.
printf 'proc main() is\n  network i for 16 do while true do skip\n' >"$TMP/sixteen.x"
run "$EMU" --max-steps 100 "$TMP/sixteen.x"
if [ "$(grep -c '^running: p[0-7] at .*sixteen.x:2:' "$TMP/out")" = 8 ] &&
   ! grep -q '^running: p8 ' "$TMP/out"; then pass limit_eight_named
else fail limit_eight_named "$(grep '^running' "$TMP/out")"; fi
expect_grep limit_more_counted "... and 8 more processors running or waiting" "$TMP/out"

# ---- a signal ----------------------------------------------------------------------------
# catches_or_gone PID: the process catches SIGINT or SIGTERM, or /proc
# does not say.
catches_or_gone() { [ ! -r /proc/$1/status ] || grep -q '^SigCgt:.*[2367abef]$' /proc/$1/status; }
# signalled SIG: runs the loop, sends it SIG once it catches the signal
# (Linux's /proc says so; elsewhere a second is given) and it has run a
# while, and waits for it.
signalled() {
    "$EMU" $LOOP >"$TMP/out" 2>"$TMP/err" &
    pid=$!
    wait_until catches_or_gone $pid
    [ -r /proc/$pid/status ] || sleep 1
    sleep 0.3
    kill -$1 $pid
    wait $pid
    STATUS=$?
}
signalled INT
expect_status interrupt_status 130
expect_match interrupt_reason '^interrupted: stopped by Ctrl-C \(SIGINT\) at timestep [0-9]+$' "$TMP/out"
expect_match interrupt_running '^running: p0 at [0-9a-f]{4} \(tests/data/endless.x:6:[0-9]+, in proc main\): ' "$TMP/out"
expect_grep interrupt_waiting "waiting: p1 at 0014 (tests/data/endless.x:7:5, in proc main) waits for IN on port 0" "$TMP/out"
signalled TERM
expect_status term_status 143
expect_match term_reason '^interrupted: stopped by SIGTERM at timestep [0-9]+$' "$TMP/out"
expect_match term_running '^running: p0 at [0-9a-f]{4} \(tests/data/endless.x:6:' "$TMP/out"
