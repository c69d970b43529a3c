# A count and its noun agree wherever a message puts a number before a noun
# ("1 packet", "1 copy"), and a multicast list longer than the machine says
# how long it is and how many processors there are.
. tests/lib.sh

# p0 multicasts to p2 and p3 (one copy made), then sends to p1: at t=25
# the multicast is the only packet in the network, and the packet to p1 is
# the only one of its latency.
cat >"$TMP/one.x" <<'X'
proc main() is
  var x;
  network {
    { [2, 3] ! 7; 1 ! 8 } &
    0 ? x &
    0 ? x &
    0 ? x
  }
X
printf '25\nq\n' | "$EMU" --step "$TMP/one.x" >"$TMP/out" 2>/dev/null
expect_grep one_packet_in_the_network "=== t=25: 0 collisions (0 in all), 1 packet in the network ===" "$TMP/out"
run "$EMU" --histogram "$TMP/one.x"
expect_grep one_copy "multicasts: 1, making 1 copy" "$TMP/out"
expect_match one_packet_of_a_latency '^  latency 3: 1 packet$' "$TMP/out"

# A list of three on a machine of two: both numbers said.
cat >"$TMP/long.x" <<'X'
proc main() is
  var x;
  network {
    [1, 1, 1] ! 5 &
    0 ? x
  }
X
run "$EMU" "$TMP/long.x"
expect_status list_longer_than_machine_status 2
expect_grep list_longer_than_machine "multicast list at word" "$TMP/out"
expect_grep list_longer_than_machine_counts ": 3 destinations, more than the 2 processors the machine has" "$TMP/out"

# A record of one byte in a hex image, listed.
printf '01000000 00000000 00\n' >"$TMP/byte.hex"
run "$EMU" --disasm "$TMP/byte.hex"
expect_grep one_byte_record "processor 0: 1 byte, entry word 0" "$TMP/out"
