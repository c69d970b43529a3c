# The example programs that send messages of several words (SEND,
# spec/messages.md) under every switching.
#
# - pipeline, getrow, transpose and contention print exactly their
#   tests/programs/examples/NAME.expected under every routing, both duplex
#   modes and the three switchings (cut-through and store-and-forward with
#   buffers that hold their longest message); programs.sh runs them under
#   the default switching as it runs every example.
# - Under wormhole switching contention's first message owns buffers in
#   several switches at once; under cut-through the state shows it too.
. tests/lib.sh

printed() { grep -E '^p[0-9]+: -?[0-9]+$' "$1"; }

routings="benes benes-full greedy valiant random dmodk adaptive"
for n in pipeline getrow transpose contention; do
    want=tests/programs/examples/$n.expected
    bad=""; runs=0
    for s in wormhole cut-through store-forward; do
        for r in $routings; do
            for d in half full; do
                "$EMU" -q --switching "$s" --buffer 32 --routing "$r" --duplex "$d" \
                    "programs/$n.x" >"$TMP/out" 2>&1
                status=$?
                printed "$TMP/out" >"$TMP/printed"
                runs=$((runs + 1))
                if [ "$status" -ne 0 ] || ! cmp -s "$want" "$TMP/printed"; then
                    bad="$bad $s/$r/$d(exit $status)"
                fi
            done
        done
    done
    if [ -z "$bad" ] && [ "$runs" -eq 42 ]; then pass "messages_${n}_every_switching"
    else fail "messages_${n}_every_switching" "differs:$bad"; fi
done

# A store-and-forward message longer than --buffer faults, naming why.
run "$EMU" --switching store-forward programs/pipeline.x
expect_status message_longer_than_buffer_faults 2
expect_grep message_longer_than_buffer_names_options "--buffer" "$TMP/out"

run "$EMU" --state 840 programs/contention.x
owned=$(grep '^owned:' "$TMP/out" | grep -o 'buffer [^ ]* by #0' | wc -l)
if [ "$owned" -ge 3 ]; then pass wormhole_message_owns_several_buffers
else fail wormhole_message_owns_several_buffers "$(grep '^owned' "$TMP/out")"; fi
expect_grep state_names_flits '#0.17 p0->p7 port 0 data 18' "$TMP/out"
