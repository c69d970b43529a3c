# A fast network stage with a deliberate mistake -- stage e of a layer run
# before stage d of the layer above (NET_MUTANT in net/sweep.c) -- must be
# caught by the comparison with the reference stage: the comparison test,
# linked with that stage, fails and says where the two first differ.
. tests/lib.sh
BUILD=${BUILD:-build}

run "$BUILD/mutant/test_reference" --first-difference
if [ "$STATUS" -ne 0 ] && grep -q "differ" "$TMP/out"; then
    pass mutant_is_caught
else
    fail mutant_is_caught "the mutant stage passed the comparison (exit status $STATUS)" \
        "$(head -c 600 "$TMP/out")"
fi

# The emulator with that stage: --check stops the run at the first
# difference, with exit status 70 and a message that names the place.
run "$BUILD/mutant/emu" --check --routing benes --buffer 1 programs/all_to_all.x
expect_status internal_error_status 70
expect_grep internal_error_message "internal error: the fast network stage and the reference stage differ: " "$TMP/out"
expect_grep internal_error_end "end: internal-error" "$TMP/out"
run "$BUILD/mutant/emu" --check --json --routing benes --buffer 1 programs/all_to_all.x
expect_status internal_error_json_status 70
expect_grep internal_error_json '"end": "internal-error", "exit_status": 70' "$TMP/out"
