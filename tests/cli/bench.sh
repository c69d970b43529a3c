# build/bench/bench's options: --vcs V runs every program with V virtual
# channels, which each row says (from the machine it ran on, so that an
# option that does not reach the machine fails); a V out of 1 .. 8 is refused with
# status 1, as is an option it does not know (with its usage).
. tests/lib.sh
BENCH=${BUILD:-build}/bench/bench

run "$BENCH" --quick --only flood --procs 64 --threads 1 --duplex full --vcs 4
expect_status bench_vcs_4_runs 0
expect_grep bench_vcs_4_flood_row "flood        64       1" "$TMP/out"
if grep "^flood" "$TMP/out" | grep -q "  (4 channels)\$"; then
    pass bench_vcs_4_said
else
    fail bench_vcs_4_said "the flood row does not end with (4 channels):" "$(cat "$TMP/out")"
fi
expect_empty bench_vcs_4_quiet "$TMP/err"

run "$BENCH" --quick --only flood --procs 64 --threads 1 --duplex full
expect_status bench_one_channel_runs 0
if grep -q "channels" "$TMP/out"; then
    fail bench_one_channel_not_said "one channel is the default, not said: $(cat "$TMP/out")"
else
    pass bench_one_channel_not_said
fi

for v in 0 9 x; do
    run "$BENCH" --vcs "$v"
    expect_status "bench_vcs_${v}_refused" 1
    expect_grep "bench_vcs_${v}_says_why" "bench: --vcs must be 1 .. 8" "$TMP/err"
done

run "$BENCH" --no-such-option
expect_status bench_unknown_option_refused 1
expect_grep bench_unknown_option_usage "usage: bench" "$TMP/err"
