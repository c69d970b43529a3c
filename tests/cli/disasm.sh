# The disassembler's command line: `emu --disasm` on the Figure 8 image
# (golden listing) and on malformed images (message and exit status 1).
. tests/lib.sh

run "$EMU" --disasm tests/data/figure8.hex
expect_status disasm_figure8_status 0
expect_same disasm_figure8_listing tests/golden/figure8.disasm "$TMP/out"
expect_empty disasm_figure8_no_stderr "$TMP/err"

printf '0100000000000000 3g' >"$TMP/bad.hex"
run "$EMU" --disasm "$TMP/bad.hex"
expect_status disasm_bad_character_status 1
expect_grep disasm_bad_character_message "bad.hex:1:19: record 0 at byte offset 8: invalid character 'g'" "$TMP/err"
expect_empty disasm_bad_character_no_stdout "$TMP/out"

run "$EMU" --disasm "$TMP/missing.hex"
expect_status disasm_missing_file_status 1
expect_grep disasm_missing_file_message "emu: $TMP/missing.hex: cannot open" "$TMP/err"
run "$EMU" --disasm "$TMP/missing.x"
expect_grep disasm_missing_source_message "emu: $TMP/missing.x: cannot open" "$TMP/err"
