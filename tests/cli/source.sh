# Source lines of a program compiled in this run: the listings of xc -S and
# emu --disasm show each source line before its code.
. tests/lib.sh
F=tests/data/faults

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
