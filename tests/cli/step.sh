# --step driven through a pipe, on a machine of 16 processors: every line of
# the compact state fits 80 columns (a processor's packets go on in lines
# of their own, and after 24 of them it says how many more), and f, the
# full state, fits 100, its drawing in bands of switches.
# (tests/cli/step_screen.sh drives it on a terminal.)
. tests/lib.sh
G="--port-depth 3 tests/data/gather16.x"

# Every state of the first 150 timesteps, and the full state at a few.
{ yes '' | head -n 30; printf 'f\n'; yes '' | head -n 10; printf 'f\n70\nf\nq\n'; } |
    "$EMU" --step $G >"$TMP/out" 2>"$TMP/err"
STATUS=$?
expect_status step_quit_status 4
awk '/^end:/ { exit } /^=== state after/ { full = 1 } /^===$/ { full = 0; next }
     full && length($0) > 100 { wide_full++ }
     !full && length($0) > 80 { wide++ }
     /^=== t=/ { states++ }
     END { printf "%d compact states, %d lines over 80 columns, %d full lines over 100\n", states, wide, wide_full }' \
    "$TMP/out" >"$TMP/got"
echo "42 compact states, 0 lines over 80 columns, 0 full lines over 100" >"$TMP/want"
expect_same step_sixteen_fits "$TMP/want" "$TMP/got"

# At t=110 p0 holds 45 packets: 24 named, on lines of their own.
sed -n '/^=== t=110:/,/^p1 /p' "$TMP/out" >"$TMP/got"
printf '%s\n' '=== t=110: 0 collisions (62 in all), 0 packets in the network ===' \
    'p0  running   001d BRT -9        areg 1        breg 10       sp 199992 (line 13)' \
    '     ports 1:#0,#15,#30 2:#1,#16,#31 3:#2,#17,#32 4:#3,#18,#33 5:#4,#19,#34' \
    '     6:#5,#20,#35 7:#6,#21,#36 8:#7,#22,#37 +21 more' \
    'p1  halted 0' >"$TMP/want"
expect_same step_packets_wrapped "$TMP/want" "$TMP/got"

# f: the drawing in two bands of four switches (p0..p7, then p8..p15), and
# every packet of p0's ports.
sed -n '/^=== state after timestep 110:/,/^===$/p' "$TMP/out" >"$TMP/full"
expect_grep step_full_first_band "           p0 . p1 .    p2 . p3 .    p4 . p5 .    p6 . p7 ." "$TMP/full"
expect_grep step_full_second_band "           p8 . p9 .    p10 . p11 .  p12 . p13 .  p14 . p15 ." "$TMP/full"
# (the lines a long one goes on in joined again)
awk '/^      / { sub(/^ +/, " "); printf "%s", $0; next } NR > 1 { print "" } { printf "%s", $0 }
     END { print "" }' "$TMP/full" >"$TMP/joined"
expect_grep step_full_every_packet "15:[#14 #29 #44]" "$TMP/joined"

# A packet line of the full state goes on after its colon.
printf '19\nf\nq\n' | "$EMU" --routing dmodk --step tests/data/appendix_c.hex >"$TMP/out" 2>/dev/null
printf '%s\n' '  #0 p0->p2 port 0 data 22, plane 0 count 2 routing 0b0 addressing 0b10:' \
    '      buffer p0.l1.s0.u0 place 1 of 2' >"$TMP/want"
grep -A1 '^  #0 ' "$TMP/out" >"$TMP/got"
expect_same step_full_packet_wrapped "$TMP/want" "$TMP/got"

# The flits of a message waiting in its output slot are one line of the
# compact state, so that those in the network come into view: at t=840 of
# contention.x, 28 of its 46 flits are in p0's and p1's slots.
printf '840\nq\n' | "$EMU" --step programs/contention.x >"$TMP/out" 2>/dev/null
sed -n '/^=== t=840:/,/^end:/p' "$TMP/out" >"$TMP/got"
expect_grep step_slot_flits_one_line "#1.1..#1.23  p1->p7 port 1 data 102..124: output slot of p1, 23 flits" "$TMP/got"
if grep -q '^#0.17 *p0->p7 port 0 data 18: *buffer p0.l1.s0.u0' "$TMP/got" &&
   [ "$(grep -c ': *output slot of' "$TMP/got")" -eq 2 ] && grep -q '^\.\.\. and 10 more packets' "$TMP/got"
then pass step_slot_flits_leave_room; else fail step_slot_flits_leave_room "$(cat "$TMP/got")"; fi
# ...and under the state, the timestep's collision, named: the head of the
# second message refused by a buffer the first owns.
expect_grep step_collision_named "buffer collision: #1.0 p1->p7 refused by buffer p0.l1.s0.u0, owned by message #0" "$TMP/got"
