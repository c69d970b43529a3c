# A fast network stage with a deliberate mistake -- stage e of a layer run
# before stage d of the layer above (NET_MUTANT in net/step.c) -- must be
# caught by the comparison with the reference stage: the comparison test,
# linked with that stage, fails and says where the two first differ.
. tests/lib.sh
BUILD=${BUILD:-build}

run "$BUILD/mutant/test_reference"
if [ "$STATUS" -ne 0 ] && grep -q "differ" "$TMP/out"; then
    pass mutant_is_caught
else
    fail mutant_is_caught "the mutant stage passed the comparison (exit status $STATUS)" \
        "$(head -c 600 "$TMP/out")"
fi
