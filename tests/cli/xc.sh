# The compiler's command line (spec/cli.md): output files, -o, -S, --mem,
# --help, --version, bad options, exit statuses, and that a failed compile
# leaves no output file behind (removing a stale one).
. tests/lib.sh

cp programs/appendix_c.x "$TMP/ac.x"

# xc prog.x writes prog.hex beside it, with its comments; the records are
# the thesis's.
run "$XC" "$TMP/ac.x"
expect_status xc_default_status 0
expect_empty xc_default_quiet "$TMP/out"
expect_empty xc_default_no_stderr "$TMP/err"
expect_grep xc_hex_names_source_and_mem "# compiled from $TMP/ac.x with --mem 200000: 8 processor records" "$TMP/ac.hex"
expect_grep xc_hex_comment_per_record "# processor 7: 30 bytes, entry word 1" "$TMP/ac.hex"
grep -v '^#' "$TMP/ac.hex" | tr -d ' \n' >"$TMP/got.digits"
grep -v '^#' tests/data/appendix_c.hex | tr -d ' \n' >"$TMP/want.digits"
expect_same xc_appendix_c_bytes "$TMP/want.digits" "$TMP/got.digits"
if [ "$(grep -c '^# processor' "$TMP/ac.hex")" -eq 8 ]; then pass xc_eight_record_comments
else fail xc_eight_record_comments "$(grep '^#' "$TMP/ac.hex")"; fi

# The emulator reads it back and lists processor 0 as Figure 8's.
run "$EMU" --disasm "$TMP/ac.hex"
head -n 22 "$TMP/out" >"$TMP/p0.disasm"
head -n 22 tests/golden/figure8.disasm >"$TMP/fig.disasm"
expect_same xc_hex_reads_back "$TMP/fig.disasm" "$TMP/p0.disasm"

# -o names the output; a name without .x gets .hex added.
run "$XC" -o "$TMP/other.hex" "$TMP/ac.x"
expect_status xc_o_status 0
expect_same xc_o_same_content "$TMP/ac.hex" "$TMP/other.hex"
cp "$TMP/ac.x" "$TMP/noext"
run "$XC" "$TMP/noext"
if [ -f "$TMP/noext.hex" ]; then pass xc_no_extension_adds_hex; else fail xc_no_extension_adds_hex; fi

# -S prints the listing (the format of emu --disasm; its source lines, which
# start with "; ", aside) and writes no file.
rm -f "$TMP/ac.hex"
run "$XC" -S "$TMP/ac.x"
expect_status xc_S_status 0
grep -v '^; ' "$TMP/out" | head -n 22 >"$TMP/S.txt"
expect_same xc_S_listing_is_figure8 "$TMP/fig.disasm" "$TMP/S.txt"
expect_grep xc_S_lists_all_processors "processor 7: 30 bytes, entry word 1" "$TMP/out"
if [ ! -e "$TMP/ac.hex" ]; then pass xc_S_writes_no_file; else fail xc_S_writes_no_file; fi
run "$XC" -S -o "$TMP/s.hex" "$TMP/ac.x"
expect_status xc_S_o_status 0
expect_grep xc_S_o_listing "0013: d1 36    LDC 22" "$TMP/out"
expect_same xc_S_o_file "$TMP/other.hex" "$TMP/s.hex"

# --mem sets mem[0] = M - G and is named in the hex file.
printf 'var a; array b[9];\nproc main() is skip\n' >"$TMP/m.x"
run "$XC" --mem 1000 -S "$TMP/m.x"
expect_grep xc_mem_stack_pointer "0000: de 03 00 00  .word 990" "$TMP/out"
run "$XC" --mem=256 -o "$TMP/m.hex" "$TMP/m.x"
expect_status xc_mem_equals_form 0
expect_grep xc_mem_in_comment "with --mem 256:" "$TMP/m.hex"
for bad in 255 268435457 abc 12x -5 ""; do
    run "$XC" --mem "$bad" "$TMP/m.x"
    expect_status "xc_mem_rejects_'$bad'" 1
    expect_grep "xc_mem_message_'$bad'" "xc: --mem: '$bad' is not a number of words from 256 to 268435456" "$TMP/err"
done
run "$XC" "$TMP/m.x" --mem
expect_status xc_mem_missing_value 1
expect_grep xc_mem_missing_value_message "xc: option '--mem' needs a value: a number of words from 256 to 268435456" "$TMP/err"

# Bad command lines: one line on stderr naming the option, status 1.
run "$XC" --frobnicate "$TMP/ac.x"
expect_status xc_unknown_option_status 1
expect_grep xc_unknown_option_message "xc: unknown option '--frobnicate' (options: -o FILE, -S, --mem M, -D NAME=VALUE, --help, --version)" "$TMP/err"
if [ "$(wc -l <"$TMP/err")" -eq 1 ]; then pass xc_unknown_option_one_line; else fail xc_unknown_option_one_line; fi
run "$XC"
expect_status xc_no_input_status 1
expect_grep xc_no_input_message "xc: no input file" "$TMP/err"
run "$XC" "$TMP/ac.x" "$TMP/m.x"
expect_status xc_two_inputs_status 1
run "$XC" "$TMP/ac.x" -o
expect_status xc_o_missing_value 1
expect_grep xc_o_missing_value_message "xc: option '-o' needs a value" "$TMP/err"
run "$XC" "$TMP/missing.x"
expect_status xc_missing_file_status 1
expect_grep xc_missing_file_message "xc: $TMP/missing.x: cannot open: No such file or directory" "$TMP/err"
run "$XC" -o "$TMP/ac.x" "$TMP/ac.x"
expect_status xc_refuses_to_overwrite_source 1
expect_grep xc_overwrite_message "would overwrite the source" "$TMP/err"
run "$XC" -o "$TMP/no/such/dir/x.hex" "$TMP/ac.x"
expect_status xc_unwritable_output 1
expect_grep xc_unwritable_message "cannot write" "$TMP/err"

# --help and --version go to stdout, status 0.
run "$XC" --help
expect_status xc_help_status 0
expect_grep xc_help_usage "xc prog.x" "$TMP/out"
expect_grep xc_help_example_S "xc -S prog.x" "$TMP/out"
expect_grep xc_help_mem "--mem M" "$TMP/out"
expect_empty xc_help_no_stderr "$TMP/err"
run "$XC" --version
expect_status xc_version_status 0
expect_grep xc_version_text "xc 1.0" "$TMP/out"

# Output that cannot be written (a full disk) is an error with a message,
# not a silent one.
if [ -w /dev/full ]; then
    run sh -c "\"$XC\" -S \"$TMP/ac.x\" >/dev/full"
    expect_status xc_S_unwritable_status 1
    expect_grep xc_S_unwritable_message "xc: cannot write the listing to standard output: No space left on device" "$TMP/err"
    printf 'proc main() is print 1\n' >"$TMP/small.x"
    run sh -c "\"$XC\" -S \"$TMP/small.x\" >/dev/full"
    expect_grep xc_S_unwritable_small_listing "xc: cannot write the listing to standard output" "$TMP/err"
    run sh -c "\"$XC\" --help >/dev/full"
    expect_status xc_help_unwritable_status 1
    expect_grep xc_help_unwritable_message "xc: cannot write to standard output" "$TMP/err"
fi

# A compile error: status 1, messages on stderr, nothing written, and a
# stale image from an earlier run removed.
printf 'proc main() is\n  print x\n' >"$TMP/bad.x"
"$XC" -o "$TMP/bad.hex" programs/appendix_c.x
run "$XC" "$TMP/bad.x"
expect_status xc_error_status 1
expect_grep xc_error_message "bad.x:2:9: error: 'x' is not declared" "$TMP/err"
expect_empty xc_error_no_stdout "$TMP/out"
if [ ! -e "$TMP/bad.hex" ]; then pass xc_error_removes_stale_output; else fail xc_error_removes_stale_output; fi
"$XC" -o "$TMP/named.hex" programs/appendix_c.x
run "$XC" -o "$TMP/named.hex" "$TMP/bad.x"
if [ ! -e "$TMP/named.hex" ]; then pass xc_error_removes_stale_o; else fail xc_error_removes_stale_o; fi

# ...but nothing that xc did not write: a file of other text, a link (and
# the image it points to) and a device node stay exactly as they were.
echo notes >"$TMP/notes.txt"
run "$XC" -o "$TMP/notes.txt" "$TMP/bad.x"
expect_status xc_error_other_file_status 1
expect_file_text xc_error_keeps_other_file "$TMP/notes.txt" notes
"$XC" -o "$TMP/target.hex" programs/appendix_c.x
cp "$TMP/target.hex" "$TMP/target.before"
ln -s target.hex "$TMP/link.hex"
run "$XC" -o "$TMP/link.hex" "$TMP/bad.x"
if [ -L "$TMP/link.hex" ]; then pass xc_error_keeps_link; else fail xc_error_keeps_link; fi
expect_same xc_error_keeps_link_target "$TMP/target.before" "$TMP/target.hex"
if mknod "$TMP/mynull" c 1 3 2>/dev/null; then
    run "$XC" -o "$TMP/mynull" "$TMP/bad.x"
    if [ -c "$TMP/mynull" ]; then pass xc_error_keeps_device; else fail xc_error_keeps_device; fi
    run "$XC" -o "$TMP/mynull" programs/appendix_c.x
    expect_status xc_device_written_status 0
    if [ -c "$TMP/mynull" ]; then pass xc_keeps_device; else fail xc_keeps_device; fi
else
    echo "NOTE xc_error_keeps_device: not run (mknod needs root)"
fi

# A write that fails (a full disk) leaves the file of that name as it was:
# an image written before stays whole, and a device stays a device.
if [ -w /dev/full ]; then
    run "$XC" -o /dev/full programs/appendix_c.x
    expect_status xc_full_device_status 1
    if [ -c /dev/full ]; then pass xc_full_device_kept; else fail xc_full_device_kept; fi
fi
# A successful write through a link replaces the file it points to, and
# keeps the link.
run "$XC" -o "$TMP/link.hex" tests/data/multicast.x
if [ -L "$TMP/link.hex" ] && grep -q multicast.x "$TMP/target.hex"; then
    pass xc_writes_through_link; else fail xc_writes_through_link; fi
run "$XC" -S "$TMP/bad.x"
expect_status xc_error_S_status 1
expect_empty xc_error_S_no_listing "$TMP/out"
