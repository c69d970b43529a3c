# The example programs that send messages of several words (SEND,
# spec/messages.md) under every switching.
#
# - pipeline, getrow, transpose and contention print exactly their
#   tests/programs/examples/NAME.expected under every routing, both duplex
#   modes and the three switchings (cut-through and store-and-forward with
#   buffers that hold their longest message); programs.sh runs them under
#   the default switching as it runs every example.
# - Under wormhole switching contention's first message owns buffers in
#   several switches at once; under cut-through, with buffers that hold
#   it, the blocked second message is gathered in one buffer.
. tests/lib.sh

# Each run's output is kept and the lot checked by one awk a program: a
# grep and a cmp a run were 336 processes, at about 10 ms each.
routings="benes benes-full greedy valiant random dmodk adaptive"
for n in pipeline getrow transpose contention; do
    want=tests/programs/examples/$n.expected
    runs=0
    : >"$TMP/runs"
    for s in wormhole cut-through store-forward; do
        for r in $routings; do
            for d in half full; do
                "$EMU" -q --switching "$s" --buffer 32 --routing "$r" --duplex "$d" \
                    "programs/$n.x" >"$TMP/out.$runs" 2>&1
                echo "$runs $? $s/$r/$d" >>"$TMP/runs"
                runs=$((runs + 1))
            done
        done
    done
    # (the runs whose status is not 0 or whose lines "pN: value" are not
    # the expected ones)
    bad=$(awk -v dir="$TMP" -v want="$want" '
        BEGIN { while ((getline l <want) > 0) expected = expected l "\n" }
        {
            got = ""; f = dir "/out." $1
            while ((getline l <f) > 0)
                if (l ~ /^p[0-9]+: -?[0-9]+$/) got = got l "\n"
            close(f)
            if ($2 != 0 || got != expected) printf " %s(exit %s)", $3, $2
        }' "$TMP/runs")
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

# The same contention under cut-through, buffers that hold a message: the
# blocked second message is gathered in one buffer (its head, refused
# ahead, on the link beyond), where under wormhole it spans several.
run "$EMU" --switching cut-through --buffer 24 --state 880 programs/contention.x
held=$(grep -E '^  #1\.[0-9]+ .*: buffer ' "$TMP/out" | sed 's/.*: buffer \([^ ]*\) .*/\1/' |
       sort | uniq -c | awk '{ printf "%s:%s ", $2, $1 }')
if [ "$held" = "p0.l2.s2.d1:23 " ]; then pass cut_through_message_gathered_in_one_buffer
else fail cut_through_message_gathered_in_one_buffer "buffers holding #1: $held"; fi
run "$EMU" --buffer 24 --state 880 programs/contention.x
held=$(grep -E '^  #1\.[0-9]+ .*: buffer ' "$TMP/out" | sed 's/.*: buffer \([^ ]*\) .*/\1/' | sort -u | wc -l)
if [ "$held" -ge 2 ]; then pass wormhole_same_message_spans_buffers
else fail wormhole_same_message_spans_buffers "#1 in $held buffers"; fi

# A half-duplex wormhole message to its own processor longer than --buffer
# deadlocks by itself: the report says it is one message held up by its
# own flits, why, and what lets it through; the waiting processor is told
# of the flits of one message, not of "10 packets".
printf '%s\n' 'proc main() is' '  array a[10];' \
    '  network { { 0 ! a[0 for 10]; 0 ? a[0 for 10]; print 1 } & skip }' >"$TMP/self.x"
run "$EMU" "$TMP/self.x"
expect_status message_to_itself_deadlocks 3
expect_grep message_to_itself_deadlock_names_one_message "; it is one message, #0 of 10 words from p0 to p0, held up by its own flits: its route crosses a half-duplex link twice, and the buffers between the two crossings (--buffer 5) cannot hold the whole message: a larger --buffer or --duplex full lets it through" "$TMP/out"
expect_grep message_to_itself_waits_for_flits "waits for IN on port 0: 10 flits of message #0 from p0 are headed for it, the oldest #0.0 (buffer p0.l1.s0.d0 place 1 of 5)" "$TMP/out"
run "$EMU" -q --buffer 10 "$TMP/self.x"
expect_status message_to_itself_within_buffer_arrives 0
# Two messages for port 0 queue behind one for port 1, which is never read.
printf '%s\n' 'proc main() is' '  array a[4];' \
    '  network { { 1 : 1 ! [8, 9]; 1 ! [1, 2]; 1 ! [3, 4, 5] } & 0 ? a[0] }' >"$TMP/behind.x"
run "$EMU" --planes 1 "$TMP/behind.x"
expect_grep message_flits_of_two_messages "waits for IN on port 0: 5 flits of 2 messages are headed for it, the oldest #1.0 from p0" "$TMP/out"

# Words of a message left behind are counted as the flits of the messages
# they are, in the report and in -q's note: a receive of 3 words of a
# message of 5 leaves "2 flits of 1 message", not "2 packets".
printf '%s\n' 'proc main() is' '  array a[8];' \
    '  network { 1 ! [1, 2, 3, 4, 5] & { 0 ? a[0 for 3]; print a[2] } }' >"$TMP/part.x"
run "$EMU" -q --port-depth 8 "$TMP/part.x"
expect_status message_read_in_part_ends_normally 0
expect_file_text message_read_in_part_quiet_note "$TMP/err" \
    "emu: note: 2 flits of 1 message left unread in input ports (without -q the report lists them)"
run "$EMU" "$TMP/part.x"
expect_grep message_read_in_part_in_network "in the network: 1 flit of 1 message" "$TMP/out"
expect_grep message_read_in_part_unread "unread: 1 flit of 1 message left in input ports" "$TMP/out"
run "$EMU" "$TMP/self.x"
expect_grep message_to_itself_in_network "in the network: 10 flits of 1 message" "$TMP/out"

# The deadlock report shows the places messages own, as --state does
# (messages.md: the deadlock report shows which buffers and ports are owned
# and by whom): here the buffer the message to itself waits in, and the
# input port the message read in part holds.
run "$EMU" "$TMP/self.x"
expect_grep deadlock_report_names_owned_buffer "owned: buffer p0.l1.s0.d0 by #0" "$TMP/out"
run "$EMU" "$TMP/part.x"
expect_grep deadlock_report_names_owned_port "owned: input port 0 of p1 by #0" "$TMP/out"
