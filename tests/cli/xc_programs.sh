# Compiled programs on the real machine: every tests/programs/NAME.x is
# compiled by bin/xc and run by bin/emu, and the lines it prints ("pN: v")
# must equal NAME.expected; the Appendix C program must end normally; and
# the programs of docs/language.md must do there what the page says (print
# their output, fault, or deadlock in half duplex but not in full).
. tests/lib.sh

printed() { grep -E '^p[0-9]+: -?[0-9]+$' "$1"; }

for x in tests/programs/*.x; do
    name=program_$(basename "$x" .x)_on_emu
    run "$XC" -o "$TMP/p.hex" "$x"
    if [ "$STATUS" -ne 0 ]; then fail "$name" "does not compile" "$(head -c 600 "$TMP/err")"; continue; fi
    run "$EMU" -q "$TMP/p.hex"
    printed "$TMP/out" >"$TMP/printed"
    if [ "$STATUS" -ne 0 ]; then fail "$name" "exit status $STATUS" "$(tail -n 5 "$TMP/out")"
    elif cmp -s "${x%.x}.expected" "$TMP/printed"; then pass "$name"
    else fail "$name" "$(diff "${x%.x}.expected" "$TMP/printed" | head -n 20)"; fi
done

run "$XC" -o "$TMP/ac.hex" programs/appendix_c.x
run "$EMU" "$TMP/ac.hex"
expect_status appendix_c_runs 0
expect_grep appendix_c_ends_normally "end: normal" "$TMP/out"

# The examples of docs/language.md: block N of kind x goes to ex_N.x, and an
# output or fault block right after it to ex_N.output or ex_N.fault.
awk -v dir="$TMP" '
    /^```/ && !inside { inside = 1; tag = substr($0, 4); n++; file = "";
                        if (tag == "x") { file = dir "/ex_" n ".x"; last = n }
                        else if ((tag == "output" || tag == "fault") && last == n - 1)
                            file = dir "/ex_" last "." tag;
                        if (file != "") printf "" >file; next }
    /^```/ && inside  { inside = 0; if (file != "") close(file); next }
    inside && file != "" { print >file }
' docs/language.md
for x in "$TMP"/ex_*.x; do
    n=$(basename "$x" .x)
    run "$XC" -o "$TMP/ex.hex" "$x"
    if [ "$STATUS" -ne 0 ]; then fail "docs_${n}_compiles" "$(head -c 600 "$TMP/err")"; continue; fi
    if [ -f "$TMP/$n.output" ]; then
        run "$EMU" -q "$TMP/ex.hex"
        printed "$TMP/out" >"$TMP/printed"
        if [ "$STATUS" -eq 0 ] && cmp -s "$TMP/$n.output" "$TMP/printed"; then pass "docs_${n}_output_on_emu"
        else fail "docs_${n}_output_on_emu" "exit status $STATUS" "$(diff "$TMP/$n.output" "$TMP/printed" | head)"; fi
    elif [ -f "$TMP/$n.fault" ]; then
        run "$EMU" -q "$TMP/ex.hex"
        expect_status "docs_${n}_faults_on_emu" 2
    elif grep -q "send them all first" "$x"; then
        run "$EMU" --duplex half "$TMP/ex.hex"
        expect_status docs_half_duplex_deadlock 3
        expect_grep docs_half_duplex_deadlock_report "end: deadlock" "$TMP/out"
        run "$EMU" --duplex full "$TMP/ex.hex"
        expect_status docs_full_duplex_gets_through 0
    fi
done
