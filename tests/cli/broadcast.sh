# bench/broadcast, hardware against software broadcast, run at N = 16 and
# 64 (the pairs at 16): every processor must halt with the word or sum its
# program computes; and the image that --hex writes must run in bin/emu, by
# the command in its header, as it ran in the bench.
. tests/lib.sh
BENCH=${BUILD:-build}/bench/broadcast

run "$BENCH" --max-n 64 -o "$TMP/b.csv"
expect_status broadcast_small_runs_check_out 0
expect_same broadcast_stdout_is_the_csv "$TMP/b.csv" "$TMP/out"

# --hex: the image of one run, and the command to run it, in its header.
csv_field() {   # CASE ROUTING DUPLEX BUFFER COLUMN: from the small run's CSV
    awk -F, -v c="$1" -v r="$2" -v d="$3" -v b="$4" -v col="$5" \
        '$1 == c && $2 == 16 && $3 == r && $4 == d && $5 == b && $6 == 1 { print $col }' "$TMP/b.csv"
}
hex_run() {     # NAME CASE ROUTING DUPLEX BUFFER STATUS
    name=$1
    run "$BENCH" --case "$2" --max-n 16 --routing "$3" --duplex "$4" --hex "$TMP/$name.hex"
    expect_status "${name}_written" 0
    cmd=$(sed -n '2s/^# bin\///p' "$TMP/$name.hex")
    # shellcheck disable=SC2086 # the command's words
    run "$BIN"/$cmd "$TMP/$name.hex"
    expect_status "${name}_status" "$6"
    want="collisions: $(csv_field "$2" "$3" "$4" "$5" 7)"
    expect_grep "${name}_collisions" "$want" "$TMP/out"
    want="timesteps: $(csv_field "$2" "$3" "$4" "$5" 12)"
    expect_grep "${name}_timesteps" "$want" "$TMP/out"
}
hex_run broadcast_hex_tree tree valiant full 5 0
hex_run broadcast_hex_pair_deadlock pair-near dmodk half 1 3
expect_grep broadcast_hex_pair_deadlock_is_network "a network deadlock" "$TMP/out"
