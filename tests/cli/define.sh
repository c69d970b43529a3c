# -D NAME=VALUE of bin/xc and bin/emu (docs/language.md, "Setting a val
# from the command line"): it sets a global val, and with it the program's
# size and output; the last -D of a name counts; vals, sizes and counts
# declared after it follow; every mistake is one message naming the -D (or
# the place in the program), status 1, and no image written.
. tests/lib.sh
RING=programs/token_ring.x
cp $RING "$TMP/ring.x"

# The ring of 12 by default; of 64 with -D n=64: 64 processor records, and
# the token sums 1 + ... + 64 = 2080 a lap.
run "$XC" -D n=64 "$TMP/ring.x"
expect_status xc_define_status 0
expect_grep xc_define_in_hex_comment "# compiled from $TMP/ring.x with --mem 200000 -D n=64: 64 processor records" "$TMP/ring.hex"
run "$EMU" -q "$TMP/ring.hex"
printf 'p0: 2080\np0: 4160\np0: 6240\n' >"$TMP/want64"
head -n 3 "$TMP/out" >"$TMP/got"
expect_same xc_define_changes_the_output "$TMP/want64" "$TMP/got"
expect_grep xc_define_changes_the_size "processors: 64 (64 programmed" "$(run "$EMU" "$TMP/ring.hex"; echo "$TMP/out")"
run "$EMU" -q -D n=64 $RING
head -n 3 "$TMP/out" >"$TMP/got"
expect_same emu_define_changes_the_output "$TMP/want64" "$TMP/got"
run "$EMU" -q $RING
expect_grep emu_no_define_default "p0: 78" "$TMP/out"
# -DNAME=VALUE as one word, as a C compiler takes it
run "$EMU" -q -Dn=64 $RING
head -n 3 "$TMP/out" >"$TMP/got"
expect_same emu_define_one_word "$TMP/want64" "$TMP/got"
# several; the last of a name counts
run "$EMU" -q -D n=4 -D laps=2 $RING
printf 'p0: 10\np0: 20\n' >"$TMP/want"
head -n 2 "$TMP/out" >"$TMP/got"
expect_same emu_define_two_vals "$TMP/want" "$TMP/got"
run "$EMU" -q -D n=4 -D n=64 $RING
head -n 3 "$TMP/out" >"$TMP/got"
expect_same emu_define_last_counts "$TMP/want64" "$TMP/got"
# hex and negative values, as the language writes numbers
run "$EMU" -q -D n=#40 $RING
head -n 3 "$TMP/out" >"$TMP/got"
expect_same emu_define_hex "$TMP/want64" "$TMP/got"
printf 'val n = 4;\nproc main() is print n * 2\n' >"$TMP/neg.x"
run "$EMU" -q -D n=-10 "$TMP/neg.x"
expect_grep emu_define_negative "p0: -20" "$TMP/out"
printf 'val n = 4;\nval m = n * 2;\narray a[m];\nproc main() is { a[m - 1] := m; print a[m - 1] }\n' >"$TMP/later.x"
run "$EMU" -q -D n=10 "$TMP/later.x"
expect_grep emu_define_later_vals_follow "p0: 20" "$TMP/out"
# -S and --disasm list the program as set
run "$XC" -S -D n=3 "$TMP/ring.x"
if [ "$(grep -c '^processor' "$TMP/out")" -eq 3 ]; then pass xc_define_listing
else fail xc_define_listing "$(grep '^processor' "$TMP/out")"; fi
run "$EMU" --disasm -D n=3 $RING
if [ "$(grep -c '^processor' "$TMP/out")" -eq 3 ]; then pass emu_define_disasm
else fail emu_define_disasm "$(grep '^processor' "$TMP/out")"; fi

# Mistakes: the same message from xc and emu (after its name), status 1.
# A -D that is not NAME=VALUE is a bad command line, which compiles
# nothing; one that the program cannot take is a compile error, after
# which xc removes the image it wrote before, as for any other.
# refused NAME MESSAGE ARGS...: xc ARGS ring.x and emu ARGS ring.x.
refused() {
    name=$1 message=$2; shift 2
    "$XC" "$TMP/ring.x" >/dev/null 2>&1
    run "$XC" "$@" "$TMP/ring.x"
    expect_status "xc_${name}_status" 1
    expect_grep "xc_${name}_message" "$message" "$TMP/err"
    case $message in "$TMP"/*)
        if [ ! -e "$TMP/ring.hex" ]; then pass "xc_${name}_no_image"; else fail "xc_${name}_no_image"; fi ;;
    esac
    run "$EMU" "$@" "$TMP/ring.x"
    expect_status "emu_${name}_status" 1
    expect_grep "emu_${name}_message" "$message" "$TMP/err"
    expect_empty "emu_${name}_no_output" "$TMP/out"
}
refused undeclared "$TMP/ring.x: error: -D m=4: the program declares no global val 'm' (only a val outside every procedure can be set)" -D m=4
refused not_a_val "$TMP/ring.x: error: -D main=1: 'main' is a procedure, not a global val (declared at 30:6)" -D main=1
refused no_value "-D n: no value (write -D NAME=VALUE, as in -D n=1024)" -D n
refused empty_value "-D n=: '' is not an integer (write one as 1024, -3 or #FF)" -D n=
refused fraction "-D n=1.5: '1.5' is not an integer (write one as 1024, -3 or #FF)" -D n=1.5
refused word "-D n=ten: 'ten' is not an integer (write one as 1024, -3 or #FF)" -D n=ten
refused too_large "-D n=4294967296: '4294967296' is out of range (a word: from -2147483648 to 4294967295)" -D n=4294967296
refused too_small "-D n=-2147483649: '-2147483649' is out of range (a word: from -2147483648 to 4294967295)" -D n=-2147483649
refused keyword "-D while=1: 'while' is a keyword, not a name" -D while=1
refused bad_name "-D 2n=1: '2n' is not a name (a letter, then letters, digits and _)" -D 2n=1
# a value the program cannot take: the error where it is used, and a note
# at the val saying where the value came from
refused zero "$TMP/ring.x:32:17: error: the count of a network must be from 1 to 1,048,576, not 0" -D n=0
expect_grep emu_zero_note "$TMP/ring.x:26:5: note: 'n' is 0 here, set by -D n=0" "$TMP/err"
# a local val is not the program's to set
printf 'proc main() is\n  val k = 3;\n  print k\n' >"$TMP/local.x"
run "$EMU" -q -D k=4 "$TMP/local.x"
expect_grep emu_define_local_val "error: -D k=4: the program declares no global val 'k'" "$TMP/err"
# -D with no argument after it
run "$XC" "$TMP/ring.x" -D
expect_grep xc_define_missing "xc: option '-D' needs a NAME=VALUE, as in '-D n=1024'" "$TMP/err"
run "$EMU" "$TMP/ring.x" -D
expect_grep emu_define_missing "emu: -D needs a value (accepted: NAME=VALUE, an integer for a global val of the .x program)" "$TMP/err"
# an image is compiled already: emu refuses a -D for it
"$XC" -o "$TMP/ring12.hex" "$TMP/ring.x"
run "$EMU" -D n=4 "$TMP/ring12.hex"
expect_status emu_define_hex_status 1
expect_grep emu_define_hex_message "emu: -D n=4: $TMP/ring12.hex is not a .x program but an image, compiled already (give the -D to the .x, or to xc)" "$TMP/err"
# Both --help texts name it.
run "$XC" --help
expect_grep xc_help_define "-D NAME=VALUE" "$TMP/out"
run "$EMU" --help
expect_grep emu_help_define "-D NAME=VALUE" "$TMP/out"
