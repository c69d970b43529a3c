# What a running program that goes wrong gets told: the processor's faults
# (spec/isa.md "Faults"), stack overflow among them.
. tests/lib.sh
F=tests/data/faults

# ---- stack overflow: a negative ADJ below the end of the image ----------------------
run "$EMU" $F/deep_recursion.x
expect_status stack_overflow_deep_status 2
expect_grep stack_overflow_deep_message "fault: p0: stack overflow (sp would be 13, below the end of the program's image at word 14) at 0022 (prefixes from 0021; tests/data/faults/deep_recursion.x:5:6, in func r): ADJ -3" "$TMP/out"
if grep -q '^p0:' "$TMP/out"; then fail stack_overflow_deep_prints_nothing "$(grep '^p0:' "$TMP/out")"
else pass stack_overflow_deep_prints_nothing; fi

run "$EMU" $F/endless_recursion.x
expect_status stack_overflow_endless_status 2
expect_grep stack_overflow_endless_message "fault: p0: stack overflow (sp would be" "$TMP/out"

run "$EMU" -q --mem 999 $F/recursion_fits.x
expect_status stack_just_fits_status 0
expect_grep stack_just_fits_output "p0: 326" "$TMP/out"
sed 's/r(326)/r(327)/' $F/recursion_fits.x >"$TMP/one_more.x"
run "$EMU" --mem 999 "$TMP/one_more.x"
expect_status stack_one_more_status 2
expect_grep stack_one_more_message "stack overflow (sp would be 11, below the end of the program's image at word 14)" "$TMP/out"
