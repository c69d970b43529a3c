# Inputs that once broke the compiler (found by tests/fuzz/fuzz_compiler.c
# or by hand), kept in tests/data/compiler_regress/: each must be compiled
# or rejected cleanly -- exit status 0 or 1, no internal error, no crash
# (under `make check` the compiler runs with the sanitizers).
. tests/lib.sh

for x in tests/data/compiler_regress/*.x; do
    name=regress_$(basename "$x" .x)
    run "$XC" -o "$TMP/out.hex" "$x"
    if [ "$STATUS" -ne 0 ] && [ "$STATUS" -ne 1 ]; then
        fail "$name" "exit status $STATUS" "$(head -c 600 "$TMP/err")"
    elif grep -q "internal compiler error" "$TMP/err"; then
        fail "$name" "$(grep "internal compiler error" "$TMP/err" | head -n 3)"
    else
        pass "$name"
    fi
done

# The first one, exactly: one message, and the statement after the missing
# 'then' is not mistaken for anything.
run "$XC" tests/data/compiler_regress/element_as_statement_in_panic.x
expect_status regress_missing_then_status 1
if [ "$(grep -c 'error:' "$TMP/err")" -eq 1 ]; then pass regress_missing_then_one_error
else fail regress_missing_then_one_error "$(cat "$TMP/err")"; fi
expect_grep regress_missing_then_message "error: expected 'then' before 'th'" "$TMP/err"
