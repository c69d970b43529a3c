# The results tools as a comparison of switchings uses them:
#
# - collect's tables say how runs that did not end normally ended, not
#   only deadlocks: a sweep of getrow.x under cut-through with the default
#   buffers faults (its 28-word message cannot fit), and its 709 timesteps
#   must not read as a run five times faster than wormhole's, in a table
#   or a plot (where it is ringed); a cell of several runs says how many
#   of them ended how;
# - `messages draw` names the messages' length and routing in its plots'
#   titles, as the CSV holds them, and refuses a CSV of two lengths,
#   whose rows it would draw into the same lines; the latency table of a
#   CSV without loads 0.2 and 0.6 shows the loads run nearest them;
# - `messages traffic` names an option whose value is out of range with
#   the values it takes, not as an unknown option;
# - bench/messages.sh refuses an unknown option, an option without its
#   value and --tables with --traffic-only (which ran nothing, status 0),
#   naming them, before it makes anything, and takes a relative DIR or
#   BUILD from where it is run.
. tests/lib.sh
BUILD=${BUILD:-build}
COLLECT=$BUILD/bench/collect
MESSAGES=$BUILD/bench/messages

# ---- collect: every end that is not normal is marked ----------------------------
run bench/sweep programs/getrow.x --switching wormhole,cut-through --out "$TMP/sw" --emu "$EMU" -j 2
expect_status sweep_fault_status 0
run "$COLLECT" "$TMP/sw"
expect_status collect_fault_status 0
expect_grep collect_fault_marked '| `getrow.x` | 3,641 | 709 (fault) |' "$TMP/sw/tables.md"
expect_grep collect_fault_marked_collisions '| `getrow.x` | 0 | 0 (fault) |' "$TMP/sw/tables.md"
# ...and in the plots: the faulted point ringed, and the ring in the legend,
# the normal one not.
if [ "$(grep -o '<circle [^>]*r="8"/>' "$TMP/sw/getrow.timesteps.svg" | wc -l)" -eq 1 ] &&
   grep -q '<g class="unfinished" [^>]*><circle cx="260.0" cy="269.9"' "$TMP/sw/getrow.timesteps.svg" &&
   grep -q '>a run did not end</text>' "$TMP/sw/getrow.timesteps.svg"
then pass collect_fault_ringed_in_plot
else fail collect_fault_ringed_in_plot "$(grep -o '<g class="unfinished[^/]*/>' "$TMP/sw/getrow.timesteps.svg")"; fi
# One cell of two runs, one of which reached --max-steps.
awk -F, -v OFS=, 'NR == 1 { for (i = 1; i <= NF; i++) c[$i] = i }
    { print } NR == 2 { $c["end"] = "limit"; $c["timesteps"] = 1000; print }' \
    "$TMP/sw/results.csv" >"$TMP/limit.csv"
mkdir "$TMP/lim"
run "$COLLECT" --csv "$TMP/limit.csv" "$TMP/lim"
expect_grep collect_some_limit_marked '| `getrow.x` | 2,320.5 (1 of 2 limit) | 709 (fault) |' "$TMP/lim/tables.md"

# ---- messages draw: what the plots say is what the CSV holds ----------------------
grep -e '^N,' -e '^64,dmodk,wormhole,8,' "docs/results/messages.csv" |
    awk -F, -v OFS=, 'NR > 1 { $2 = "adaptive"; $5 = 4 } { print }' >"$TMP/four.csv"
mkdir "$TMP/draw"
run "$MESSAGES" draw "$TMP/four.csv" "$TMP/draw"
expect_status draw_status 0
expect_grep draw_title_length_routing '>Random messages of 4 words, adaptive: flits delivered</text>' "$TMP/draw/messages_throughput.svg"
expect_grep draw_title_length_routing_latency '>Random messages of 4 words, adaptive: latency (loads that do not saturate)</text>' "$TMP/draw/messages_latency.svg"
# Loads 0.1, 0.4, 0.8 and 1.0 only: the table's rows are 0.1 and 0.4 (the
# nearer to 0.6 of 0.4 and 0.8, the lower), not 0.2 and 0.6 with no values.
awk -F, 'NR == 1 || ($1 == 64 && $6 != "0.20" && $6 != "0.60")' docs/results/messages.csv >"$TMP/odd.csv"
mkdir "$TMP/odd"
run "$MESSAGES" draw "$TMP/odd.csv" "$TMP/odd"
expect_grep draw_latency_nearest_light '| 64 | 0.1 | 27.3 | 27.3 | 27.5 | 91.8 | 27.3 | 27.3 |' "$TMP/out"
expect_grep draw_latency_nearest_middle '| 64 | 0.4 | 31.6 | 31.4 | 32.8 | 129.2 | 31.4 | 31.4 |' "$TMP/out"
expect_grep draw_routing_nearest_light '| `benes` | 0.13 (40.3) |' "$TMP/out"
{ cat "$TMP/four.csv"; grep '^64,dmodk,wormhole,8,' docs/results/messages.csv; } >"$TMP/mixed.csv"
mkdir "$TMP/mixed"
run "$MESSAGES" draw "$TMP/mixed.csv" "$TMP/mixed"
expect_status draw_mixed_lengths_status 1
expect_grep draw_mixed_lengths_message "messages: $TMP/mixed.csv: messages of 4 and of 8 words: draw one length at a time" "$TMP/err"
if [ -z "$(ls "$TMP/mixed")" ]; then pass draw_mixed_lengths_draws_nothing
else fail draw_mixed_lengths_draws_nothing "$(ls "$TMP/mixed")"; fi

# ---- messages traffic: a value out of range is named as such ----------------------
run "$MESSAGES" traffic --procs 64 --length 0
expect_status traffic_bad_length_status 1
expect_file_text traffic_bad_length_message "$TMP/err" "messages traffic: --length wants 1 to 65536, not '0'"
run "$MESSAGES" traffic --procs 64 --steps many
expect_file_text traffic_bad_steps_message "$TMP/err" "messages traffic: --steps wants 1 to 1000000, not 'many'"

# ---- bench/messages.sh: a bad option is refused, named, before anything runs ------
run sh bench/messages.sh --bogus --out "$TMP/ms"
expect_status messages_sh_unknown_option_status 1
expect_grep messages_sh_unknown_option_message "bench/messages.sh: unknown option --bogus" "$TMP/err"
run sh bench/messages.sh --out
expect_grep messages_sh_missing_value "bench/messages.sh: --out wants a value" "$TMP/err"
run sh bench/messages.sh --tables --traffic-only --out "$TMP/ms"
expect_status messages_sh_both_modes_status 1
if [ ! -e "$TMP/ms" ]; then pass messages_sh_bad_options_make_nothing
else fail messages_sh_bad_options_make_nothing "$(ls "$TMP/ms")"; fi
# DIR and BUILD given relative are taken from where the script is run, not
# from the repository it changes to (a BUILD without the bench, so that it
# stops at once, after making DIR).
mkdir "$TMP/cwd"
root=$PWD
(cd "$TMP/cwd" && sh "$root/bench/messages.sh" --tables --out rel nobuild) >"$TMP/out" 2>"$TMP/err"
if [ -d "$TMP/cwd/rel" ] && [ ! -e "$root/rel" ] && grep -q "$TMP/cwd/nobuild/bench/messages" "$TMP/err"
then pass messages_sh_relative_paths_from_cwd
else fail messages_sh_relative_paths_from_cwd "$(cat "$TMP/err")" "$(ls "$TMP/cwd")"; rm -rf "$root/rel"; fi
