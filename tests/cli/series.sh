# bench/series.sh, the series of the speed targets' runs: run on stand-ins
# for bench and net_bench that print rows of known figures (round r prints
# r times a base), so that its rows, its summary (least, median, greatest,
# rounds at or over the target) and its errors can be checked in no time.
. tests/lib.sh

fake=$TMP/build/bench
mkdir -p "$fake"
# Each stand-in counts its calls for one program in a file, and prints a
# header and one row with the figure in the column series.sh reads.
cat >"$fake/bench" <<'EOF'
#!/bin/sh
dir=$(dirname "$0")
case "$*" in
*compute*) what=compute base=100000000 ;;
*flood*) what=flood base=20000000 ;;
*network*) what=network base=30000000 ;;
*) exit 2 ;;
esac
[ -f "$dir/fail.$what" ] && { echo "bench: made to fail" >&2; exit 1; }
r=$(( $(cat "$dir/n.$what" 2>/dev/null || echo 0) + 1 ))
echo "$r" >"$dir/n.$what"
echo "program N threads timesteps seconds instr/s timesteps/s hops/s RSS"
echo "$what 4096 1 1000 1.0 $((r * base)) 1000 $((r * base)) 2.0"
EOF
cat >"$fake/net_bench" <<'EOF'
#!/bin/sh
dir=$(dirname "$0")
r=$(( $(cat "$dir/n.net_bench" 2>/dev/null || echo 0) + 1 ))
echo "$r" >"$dir/n.net_bench"
echo "N duplex routing load hops/s hops/step collisions/hop stage hops/s"
echo "4096 full benes 1.00 1 1 0.3 $((r * 25000000))"
EOF
chmod +x "$fake/bench" "$fake/net_bench"

run sh bench/series.sh 3 0 "$TMP/build"
expect_status series_runs 0
# Rounds 1-3: compute 100-300 M, flood 20-60 M, net_bench 25-75 M, network 30-90 M.
grep -v '^#' "$TMP/out" | sed 's/^[0-9][0-9]:[0-9][0-9]/HH:MM/' >"$TMP/got"
cat >"$TMP/want" <<'EOF'
time   compute-instr/s flood-hops/s net_bench-stage-hops/s network-hops/s
HH:MM  100000000 20000000 25000000 30000000
HH:MM  200000000 40000000 50000000 60000000
HH:MM  300000000 60000000 75000000 90000000
compute    least 1e+08  median 2e+08  greatest 3e+08  at or over 3e+08 in 1 of 3
flood      least 2e+07  median 4e+07  greatest 6e+07  at or over 5e+07 in 1 of 3
net_bench  least 2.5e+07  median 5e+07  greatest 7.5e+07  at or over 5e+07 in 2 of 3
network    least 3e+07  median 6e+07  greatest 9e+07  at or over 5e+07 in 2 of 3
EOF
expect_same series_rows_and_summary "$TMP/want" "$TMP/got"

# An even number of rounds: the median is the mean of the middle two.
rm -f "$fake"/n.*
run sh bench/series.sh 2 0 "$TMP/build"
expect_grep series_even_median "flood      least 2e+07  median 3e+07  greatest 4e+07" "$TMP/out"

# A run that fails stops the series with a message and a non-zero status.
touch "$fake/fail.flood"
run sh bench/series.sh 2 0 "$TMP/build"
expect_status series_run_fails 1
expect_grep series_run_fails_message "a run failed in round 1" "$TMP/err"
rm -f "$fake/fail.flood"

run sh bench/series.sh x 0 "$TMP/build"
expect_status series_bad_rounds 1
expect_grep series_bad_rounds_message "whole numbers" "$TMP/err"

run sh bench/series.sh 1 0 "$TMP/nowhere"
expect_status series_no_build 1
expect_grep series_no_build_message "make bench builds it" "$TMP/err"
