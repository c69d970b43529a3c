# Multicast as the emulator shows it (spec/multicast.md, Reports), on
# conformance case 062: processor 2's MOUT to {0, 1, 2} is routed to its
# lowest member, splits at p0.l2.s0 and again at p0.l1.s0.
. tests/lib.sh
C=tests/data/conformance/case062
OPTS=$(sed -n 's/^options: //p' $C.expected)

run "$EMU" $OPTS --routes $C.hex
expect_grep routes_show_sets "t=10 route #0 p2->{0,1,2} port 0 plane 0 count 2 routing 0b0 addressing -" "$TMP/out"
expect_grep report_counts_multicasts "multicasts: 5, making 11 copies" "$TMP/out"

run "$EMU" $OPTS --trace "$TMP/t.csv" $C.hex
expect_grep trace_split_row '13,split,0,2,"{0,1}",0,switch p0.l2.s0,copy #1' "$TMP/t.csv"
expect_grep trace_quotes_sets '10,created,0,2,"{0,1,2}",0,output slot of p2,' "$TMP/t.csv"

run "$EMU" $OPTS --state 13,14 $C.hex
tr -s ' ' <"$TMP/out" >"$TMP/squeezed"          # (without the columns' blanks)
expect_grep state_shows_sets "#0 p2->{0,1} port 0 data 749, plane 0 count 2 routing 0b0 addressing -: buffer p0.l2.s0.d0 place 1 of 1" "$TMP/squeezed"

printf '13\n' | "$EMU" $OPTS --step $C.hex >"$TMP/out" 2>/dev/null
expect_grep step_compact_shows_sets "#0 p2->{0,1} port 0 data 749: buffer p0.l2.s0.d0 place 1 of 1" "$TMP/out"

# A deadlock leaves a multicast in the network: JSON gives its set as a list.
C=tests/data/conformance/case066
run "$EMU" $(sed -n 's/^options: //p' $C.expected) --json $C.hex
expect_grep json_dst_is_a_list '"id": 15, "src": 1, "dst": [0, 1, 2, 3]' "$TMP/out"
expect_grep json_counts '"multicasts": ' "$TMP/out"
# ...and the reasons of the text report find it headed for each member.
run "$EMU" $(sed -n 's/^options: //p' $C.expected) $C.hex
expect_grep deadlock_slot_holds_set "p1 at 0069 waits for OUT: its output slot holds #15 for {0,1,2,3}," "$TMP/out"
expect_grep deadlock_member_awaits_multicast "p3 at 0057 waits for IN on port 0: #15 from p1 is headed for it (output slot of p1)" "$TMP/out"

# A run without MOUT says nothing of multicast in its text report, and
# its JSON has the keys, at 0.
run "$EMU" programs/appendix_c.x
if grep -q multicast "$TMP/out"; then fail no_multicast_line "$(grep multicast "$TMP/out")"
else pass no_multicast_line; fi
run "$EMU" --json programs/appendix_c.x
expect_grep json_zero_counts '"multicasts": 0, "copies": 0' "$TMP/out"
