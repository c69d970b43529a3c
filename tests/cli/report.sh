# What the report says of how the processors ended: non-zero halt statuses
# (`stop`), and why a deadlocked run's processors wait.
. tests/lib.sh

# ---- halt statuses: `stop` and every other non-zero status are reported ---------------
run "$EMU" tests/data/stop.x
expect_status stop_exit_status_stays_0 0
if [ "$(sed -n 2,3p "$TMP/out")" = "$(printf 'end: normal\nhalted with status 1: p0')" ]; then
    pass stop_halt_line_after_end; else fail stop_halt_line_after_end "$(head -n 4 "$TMP/out")"; fi
run "$EMU" -q tests/data/stop.x
printf 'p1: 1\nhalted with status 1: p0\ncollisions: 0\ntimesteps: 20\n' >"$TMP/want"
expect_same stop_halt_line_quiet "$TMP/want" "$TMP/out"

# Runs of processors shortened; statuses in increasing order.
printf 'proc main() is\n  network i for 8 do if (i = 0) or (i > 2) then stop\n' >"$TMP/stops.x"
run "$EMU" -q "$TMP/stops.x"
expect_grep halt_line_runs "halted with status 1: p0, p3..p7" "$TMP/out"
run "$EMU" -q $(sed -n 's/^options: //p' tests/data/conformance/case001.expected) tests/data/conformance/case001.hex
printf 'halted with status -1: p0\nhalted with status 1: p2\ncollisions: 0\ntimesteps: 292\n' >"$TMP/want"
tail -n 4 "$TMP/out" >"$TMP/got"
expect_same halt_lines_by_status "$TMP/want" "$TMP/got"
