# Virtual channels (--vcs, spec/channels.md) seen from the command line.
#
# - --vcs 1 is the machine without channels: every example program and
#   every conformance case without --vcs print exactly the same, byte for
#   byte, with and without it.
# - The report names the channels and splits the collisions by channel;
#   the JSON has vcs and collisions_by_vc; the per-channel counts add up.
# - --state draws each buffer's and each link's lanes, and names lanes in
#   places; a half-duplex deadlock is reported with its lanes.
# - --threads changes nothing.
. tests/lib.sh

# ---- --vcs 1 changes nothing ------------------------------------------------------
# Each run's output is kept, both ways, and the lot compared at once (a cmp
# and a sed a case were 150 processes, at about 10 ms each); each run's
# output starts with a line naming it. (make test: the conformance cases of
# odd number, 35 of the 70; TEST_FULL all.)
# options_of E: the options of conformance case E, its line "options: ...".
options_of() {
    opts=
    while IFS= read -r l; do
        case $l in "options: "*) opts=${l#options: } ;; esac
    done <"$1"
}
: >"$TMP/a"; : >"$TMP/b"; runs=0
for x in programs/*.x; do
    echo "=== $x" >>"$TMP/a"; echo "=== $x" >>"$TMP/b"
    "$EMU" "$x" >>"$TMP/a" 2>&1
    "$EMU" --vcs 1 "$x" >>"$TMP/b" 2>&1
    runs=$((runs + 1))
done
if [ "${TEST_FULL:-0}" != 0 ]; then least=80; else least=45; fi
for e in tests/data/conformance/case0[0-6][0-9].expected tests/data/conformance/case070.expected; do
    [ "${TEST_FULL:-0}" != 0 ] || case ${e%.expected} in *[13579]) ;; *) continue ;; esac
    options_of "$e"
    hex=${e%.expected}.hex
    echo "=== $hex" >>"$TMP/a"; echo "=== $hex" >>"$TMP/b"
    # shellcheck disable=SC2086
    "$EMU" $opts --json "$hex" >>"$TMP/a" 2>&1
    # shellcheck disable=SC2086
    "$EMU" $opts --vcs 1 --json "$hex" >>"$TMP/b" 2>&1
    runs=$((runs + 1))
done
if cmp -s "$TMP/a" "$TMP/b" && [ "$runs" -gt $least ]; then pass vcs_1_is_byte_identical
else
    differ=$(awk 'FNR == 1 { f++ } /^=== / { name = $2 } { out[f, name] = out[f, name] $0 "\n"; names[name] }
                  END { for (n in names) if (out[1, n] != out[2, n]) printf " %s", n }' "$TMP/a" "$TMP/b")
    fail vcs_1_is_byte_identical "$runs runs; differ:$differ"
fi

# ---- the report --------------------------------------------------------------------
run "$EMU" --vcs 2 programs/head_of_line.x
expect_status report_vcs_runs 0
expect_grep report_vcs_line 'virtual channels: 2 (a buffer per channel at every output port)' "$TMP/out"
expect_grep report_vcs_table 'collisions by channel  link  buffer' "$TMP/out"
link=$(sed -n 's/^link collisions: //p' "$TMP/out")
buffer=$(sed -n 's/^buffer collisions: //p' "$TMP/out")
vc_link=$(awk '$1 ~ /^vc[0-9]$/ { n += $2 } END { print n }' "$TMP/out")
vc_buffer=$(awk '$1 ~ /^vc[0-9]$/ { n += $3 } END { print n }' "$TMP/out")
if [ "$link" = "$vc_link" ] && [ "$buffer" = "$vc_buffer" ] && [ "$link" -gt 0 ]; then
    pass report_vcs_channels_add_up
else fail report_vcs_channels_add_up "link $link = $vc_link? buffer $buffer = $vc_buffer?"; fi
run "$EMU" programs/head_of_line.x
if grep -q 'virtual channels\|collisions by channel' "$TMP/out"; then
    fail report_one_channel_says_nothing_of_channels "$(grep 'channel' "$TMP/out")"
else pass report_one_channel_says_nothing_of_channels; fi
run "$EMU" --vcs 3 --json programs/head_of_line.x
# (Port 1's packets, on channel 1, meet nothing; nothing uses channel 2.)
expect_grep json_vcs '"vcs": 3, "collisions_by_vc": {"0": {"link": 7097, "buffer": 5052}, "1": {"link": 0, "buffer": 0}, "2": {"link": 0, "buffer": 0}}' "$TMP/out"
run "$EMU" --json programs/token_ring.x
expect_grep json_one_channel '"vcs": 1, "collisions_by_vc": {"0": {"link": 0, "buffer": 0}}' "$TMP/out"

# ---- the state -----------------------------------------------------------------------
run "$EMU" --vcs 2 --state 200 programs/head_of_line.x
expect_grep state_vcs_legend '(2 virtual channels: a/b/... = channel 0/1/...)' "$TMP/out"
expect_grep state_vcs_buffers 'layer 1  s0[0/0 0/0|0/0 0/0]  s1[0/0 0/0|5/0 0/0]' "$TMP/out"
expect_grep state_vcs_lanes 'p2 #2v/. p3 ./.' "$TMP/out"
expect_grep state_vcs_places 'buffer p0.l1.s1.d0 vc0 place 1 of 5' "$TMP/out"

# A half-duplex deadlock, told with its lanes (conformance case 076).
e=tests/data/conformance/case076.expected
options_of "$e"
# shellcheck disable=SC2086
run "$EMU" $opts tests/data/conformance/case076.hex
expect_status deadlock_vcs_status 3
expect_grep deadlock_vcs_network 'deadlock: a network deadlock' "$TMP/out"
expect_grep deadlock_vcs_lanes 'held up by #13 from p4 (link p0.l2.s2.u0 up vc1)' "$TMP/out"

# A network whose channels cannot be had: one line that says so, status 1.
# The network of 65,536 processors with 8 channels needs about 1 GB, so
# the process is given 600 MB. (Not under the sanitizers, whose allocator
# stops the process rather than return no memory.)
case "${BUILD:-build}" in
*check*) echo "NOTE vcs_too_large: not run in the sanitizer build" ;;
*)
    run sh -c 'ulimit -v 600000 && exec "$@"' sh "$EMU" --procs 65536 --vcs 8 --buffer 1024 programs/token_ring.x
    expect_status vcs_too_large_status 1
    expect_grep vcs_too_large_message "emu: cannot allocate a machine of 65536 processors with 200000 words of memory each and 8 virtual channels of 1024 places" "$TMP/err"
    ;;
esac

# ---- threads ---------------------------------------------------------------------------
"$EMU" --vcs 4 --duplex full programs/all_to_all.x >"$TMP/t1" 2>&1
"$EMU" --vcs 4 --duplex full --threads 3 programs/all_to_all.x >"$TMP/t3" 2>&1
expect_same vcs_threads_identical "$TMP/t1" "$TMP/t3"

# ---- docs/results.md holds what bench/channels.sh prints ---------------------------
# (The random traffic, ten runs of net_bench at N = 1,024, only in the
# optimised build: under the sanitizers it would take minutes. make test
# runs its row at load 0.5, the five runs that take a third of the time,
# and compares the doc without the row at 1.0; TEST_FULL both.)
part= skipped=
case "${BUILD:-build}" in
*check*) part=--programs; echo "NOTE results_channels_tables_current: random traffic not rerun in the sanitizer build" ;;
*) [ "${TEST_FULL:-0}" != 0 ] || { part="--loads 0.5"; skipped='| full | 1.0 |'; } ;;
esac
# shellcheck disable=SC2086
sh bench/channels.sh $part "${BUILD:-build}" "$BIN" >"$TMP/channels.md" 2>"$TMP/err"
expect_status_of_channels=$?
if [ "$expect_status_of_channels" -eq 0 ] && [ -s "$TMP/channels.md" ] &&
   grep -qF "$(tr '\n' '\001' <"$TMP/channels.md")" "$(awk -v skip="$skipped" 'skip == "" || index($0, skip) != 1' docs/results.md |
              tr '\n' '\001' >"$TMP/doc1"; echo "$TMP/doc1")"
then pass results_channels_tables_current
else fail results_channels_tables_current "docs/results.md does not hold what bench/channels.sh prints:" "$(head -n 20 "$TMP/channels.md")" "$(cat "$TMP/err")"; fi
