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

# ---- deadlocks: what each stalled processor waits for, and why -----------------------------
DL=tests/data/deadlocks
# The issue's case: a farm whose results all go to the master's port 0.
run "$EMU" $DL/farm_port0.x
expect_status deadlock_farm_status 3
expect_grep deadlock_farm_summary "deadlock: a program deadlock: p0 waits for itself: its OUT is held up behind packets for its own input port 0, which it does not read while it waits" "$TMP/out"
expect_grep deadlock_farm_master "waiting: p0 at 0022 (tests/data/deadlocks/farm_port0.x:26:27, in proc master) waits for OUT: its output slot holds #8 for p7, held up by #7 from p2 (link p0.cpu0 down), which waits for input port 0 of p0 (p0 itself), full with #3 from p1" "$TMP/out"
expect_grep deadlock_farm_headed "waits for IN on port 0: #8 from p0 is headed for it (output slot of p0), held up by #7 from p2 (link p0.cpu0 down), which waits for input port 0 of p0 (p0 waits for OUT), full with #3 from p1" "$TMP/out"
expect_grep deadlock_farm_none_headed "waiting: p1 at 004c (tests/data/deadlocks/farm_port0.x:45:5, in proc worker) waits for IN on port 0: no packet in the network is headed for it" "$TMP/out"
if grep -q "not coming" "$TMP/out"; then fail deadlock_farm_not_misleading "$(sed -n 2p "$TMP/out")"
else pass deadlock_farm_not_misleading; fi

# Processors that wait for each other, named in a cycle.
run "$EMU" --duplex full --buffer 1 $DL/send_all_first.x
expect_grep deadlock_cycle_of_two "deadlock: a program deadlock: processors wait for each other: p0 waits for p1 waits for p0" "$TMP/out"
expect_grep deadlock_cycle_chain "which waits for input port 0 of p1 (p1 waits for OUT), full with #0 from p0" "$TMP/out"
run "$EMU" --duplex full --buffer 1 $DL/ring.x
expect_grep deadlock_cycle_of_four "deadlock: a program deadlock: processors wait for each other: p0 waits for p1 waits for p2 waits for p3 waits for p0" "$TMP/out"
expect_grep deadlock_long_chain "(buffer p0.l2.s0.d1 place 1 of 1), and so on through 2 more packets to #9 from p1 (link p0.cpu2 down), which waits for input port 0 of p2" "$TMP/out"
run "$EMU" $DL/send_all_first.x
expect_grep deadlock_half_duplex_self "deadlock: a program deadlock: p0 waits for itself" "$TMP/out"

# Packets that will never be read; packets that no one has sent.
run "$EMU" $DL/halted_receiver.x
expect_grep deadlock_never_read "deadlock: a program deadlock: packets that will never be read hold up the others: input port 0 of p1 (p1 has halted), full with #0 from p0" "$TMP/out"
run "$EMU" $DL/wrong_port.x
expect_grep deadlock_none_sent "deadlock: a program deadlock: the processors wait for packets that no one has sent, and none is in the network" "$TMP/out"
expect_grep deadlock_wrong_port "waits for IN on port 0: no packet in the network is headed for it (its port 1 holds #0 from p0, unread)" "$TMP/out"
# ...and the summary, all that -q shows, names the packet on the wrong port.
run "$EMU" -q $DL/wrong_port.x
expect_grep deadlock_wrong_port_summary "deadlock: a program deadlock: the processors wait for packets that no one has sent, and none is in the network; p1 waits on port 0, but its port 1 holds #0 from p0, unread" "$TMP/err"

# A network deadlock names its cycle of packets.
run "$EMU" --routing greedy --duplex half --buffer 1 tests/data/network_deadlock.x
expect_grep deadlock_network_cycle "deadlock: a network deadlock: packets wait for each other in a cycle inside the network (#5 waits for #7 waits for #5) and would stay even if every input port were read" "$TMP/out"
expect_grep deadlock_network_chain "held up by #7 from p7 (link p0.l2.s3.u0 up), which is held up by #5 again: packets that wait for each other in the network" "$TMP/out"

# A run stopped by its limit says what each processor waits for, without reasons.
run "$EMU" --max-steps 200 $DL/farm_port0.x
if grep -qxF "waiting: p1 at 004c (tests/data/deadlocks/farm_port0.x:45:5, in proc worker) waits for IN on port 0" "$TMP/out"
then pass limit_waiting_plain; else fail limit_waiting_plain "$(grep '^waiting' "$TMP/out")"; fi
