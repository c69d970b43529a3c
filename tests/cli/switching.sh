# --switching (spec/messages.md) seen from the command line.
#
# - A bad value gets one line naming the option and the accepted values,
#   exit 1, nothing run.
# - A program that sends no message longer than one word runs exactly as
#   before under every switching: the same output, timesteps, collisions
#   and statistics, the report gaining only its `switching:` line (when
#   not wormhole) and the JSON its `switching` key.
# - The JSON always has switching, messages, flits_sent and
#   flits_delivered; without SEND the flits are the packets.
. tests/lib.sh

run "$EMU" --switching virtual-cut-through programs/farm.x
expect_status switching_bad_value_exit 1
expect_grep switching_bad_value_says "emu: --switching: 'virtual-cut-through' is not a switching (accepted: wormhole, cut-through, store-forward)" "$TMP/err"
expect_empty switching_bad_value_runs_nothing "$TMP/out"

run "$EMU" --switching programs/farm.x
expect_status switching_needs_value_exit 1

# ---- no message longer than a word: every switching is the same ---------------
same=0; differ=""
for x in programs/*.x; do
    # (not the examples that send messages: pipeline, getrow, ...)
    grep -Eq '![[:space:]]*\[|[[:alnum:]_]\[[^]]* for ' "$x" && continue
    "$EMU" --json "$x" >"$TMP/a" 2>&1
    for s in wormhole cut-through store-forward; do
        "$EMU" --json --switching "$s" "$x" 2>&1 |
            sed "s/\"switching\": \"$s\"/\"switching\": \"wormhole\"/" >"$TMP/b"
        if cmp -s "$TMP/a" "$TMP/b"; then same=$((same + 1)); else differ="$differ $x:$s"; fi
    done
done
if [ -z "$differ" ] && [ "$same" -ge 30 ]; then pass switching_changes_nothing_without_messages
else fail switching_changes_nothing_without_messages "differ:$differ"; fi

run "$EMU" programs/farm.x
"$EMU" --switching store-forward programs/farm.x >"$TMP/b" 2>&1
if grep -v '^switching: store-forward$' "$TMP/b" | cmp -s - "$TMP/out" &&
   grep -q '^switching: store-forward$' "$TMP/b" && ! grep -q '^switching' "$TMP/out"; then
    pass switching_line_only_when_not_wormhole
else fail switching_line_only_when_not_wormhole "$(diff "$TMP/out" "$TMP/b")"; fi
if [ "$(grep -n '^switching:' "$TMP/b" | cut -d: -f1)" = \
     "$(( $(grep -n '^processors:' "$TMP/b" | cut -d: -f1) + 1 ))" ]; then
    pass switching_line_after_processors
else fail switching_line_after_processors "$(head -5 "$TMP/b")"; fi
if grep -q '^messages:' "$TMP/out"; then fail no_messages_line_without_send "$(grep '^messages' "$TMP/out")"
else pass no_messages_line_without_send; fi

run "$EMU" --json --switching cut-through programs/farm.x
sent=$(grep -o '"packets_sent": [0-9]*' "$TMP/out" | cut -d' ' -f2)
delivered=$(grep -o '"packets_delivered": [0-9]*' "$TMP/out" | cut -d' ' -f2)
expect_grep json_switching_keys "\"switching\": \"cut-through\", \"messages\": 0, \"flits_sent\": $sent, \"flits_delivered\": $delivered, " "$TMP/out"
if [ "${sent:-0}" -gt 0 ]; then pass json_flits_are_packets_without_send
else fail json_flits_are_packets_without_send "no packets sent: $(cat "$TMP/out")"; fi
