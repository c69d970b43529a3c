# Source lines wherever a program compiled in this run shows an address:
# faults, deadlock waits, --state and --step, and the listings of xc -S and
# emu --disasm (each source line before its code). The address shown for an
# instruction is where its first prefix starts, as the listing shows it.
. tests/lib.sh
F=tests/data/faults

# ---- faults -----------------------------------------------------------------------
run "$EMU" $F/divide.x
expect_status source_fault_status 2
expect_grep source_fault_line "fault: p0: division by zero at 001a (prefixes from 0019; tests/data/faults/divide.x:6:11, in proc main): DIV" "$TMP/out"
run "$EMU" --json $F/divide.x
expect_grep source_fault_json '"prefix_pc": 25, "source": "tests/data/faults/divide.x:6:11, in proc main", "message": ' "$TMP/out"
# A hex image has none.
run "$EMU" tests/data/hex/divide_by_zero.hex
expect_grep source_none_for_hex "fault: p0: division by zero at 0003 (prefixes from 0002): DIV" "$TMP/out"

# ---- deadlock waits: the address is the one the listing shows -----------------------
run "$EMU" --routing greedy --duplex half --buffer 1 tests/data/network_deadlock.x
expect_grep source_wait_line "waiting: p5 at 0018 (tests/data/network_deadlock.x:10:57, in proc main) waits for IN" "$TMP/out"
"$XC" -S tests/data/network_deadlock.x >"$TMP/listing"
sed -n '/^processor 5:/,/^$/p' "$TMP/listing" >"$TMP/p5"
expect_grep source_wait_address_in_listing "0018: d1 f0    IN" "$TMP/p5"
run "$EMU" --routing greedy --duplex half --buffer 1 --json tests/data/network_deadlock.x
expect_grep source_wait_json '"pc": 25, "prefix_pc": 24, "source": "tests/data/network_deadlock.x:10:57, in proc main"}' "$TMP/out"

# ---- --state and --step ---------------------------------------------------------------
run "$EMU" --state 3,17 $F/divide.x
expect_grep source_state_start_up "  p0   running                pc 0007 ADJ -2     (start-up code) areg 0      breg 0      sp 200000" "$TMP/out"
expect_grep source_state_line "pc 0017 LDWSP 2    (tests/data/faults/divide.x:6:9, in proc main) areg" "$TMP/out"
printf '20\n' | "$EMU" --step $F/divide.x >"$TMP/out" 2>/dev/null
expect_grep source_step_line "p0 running   0019 DIV       areg 0      breg 7      sp 199994 (line 6)" "$TMP/out"
expect_grep step_one_idle_processor "p1 idle (no program)" "$TMP/out"
printf '20\nf\n' | "$EMU" --step $F/divide.x >"$TMP/out" 2>/dev/null
expect_grep source_step_full_line "pc 0019 DIV        (tests/data/faults/divide.x:6:11, in proc main)" "$TMP/out"

# ---- listings: each source line before its code ------------------------------------------
run "$XC" -S programs/appendix_c.x
head -n 26 "$TMP/out" >"$TMP/head"
expect_same source_listing_golden tests/golden/appendix_c.source.disasm "$TMP/head"
"$EMU" --disasm programs/appendix_c.x >"$TMP/disasm"
expect_same source_emu_disasm_is_xc_S "$TMP/out" "$TMP/disasm"
# A line of the source comes back when the code does (a while's test at its
# bottom; main's frame code after the body).
"$XC" -S $F/divide.x >"$TMP/div"
if [ "$(grep -c '^; tests/data/faults/divide.x:2: proc main() is$' "$TMP/div")" -eq 2 ]; then
    pass source_listing_line_again; else fail source_listing_line_again "$(cat "$TMP/div")"; fi

# ---- a send's address is on the send's line ------------------------------------------
# The compiler makes d | k << 24 itself; its code must not read as start-up code.
printf 'proc main() is\n  var k;\n  network i for 2 do {\n    k := 1;\n    if i = 0 then { 1 : 3 ! 0; 1 : k ! 5 }\n    else { 3 ? k; 1 ? k }\n  }\n' >"$TMP/send.x"
"$XC" -S "$TMP/send.x" >"$TMP/listing"
sed -n '/^; .*send.x:5:/,/^; /p' "$TMP/listing" >"$TMP/line5"
if grep -q 'start-up code' "$TMP/line5"; then fail source_send_address_on_its_line "$(cat "$TMP/line5")"
elif [ "$(grep -c 'OUT$' "$TMP/line5")" -ne 2 ]; then fail source_send_address_on_its_line "two OUTs expected on line 5:" "$(cat "$TMP/line5")"
else pass source_send_address_on_its_line; fi
