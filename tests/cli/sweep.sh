# bench/sweep: the plan, the jobs and their Makefile; --plan-only runs
# nothing; a sweep runs every job once and, run again, only the jobs whose
# report is missing; the Slurm script runs the line of its task; --vcs and
# the other options reach bin/emu only when asked; progress on a terminal
# only. The emulator is a wrapper that logs each run's options.
. tests/lib.sh
ROOT=$PWD
SWEEP=bench/sweep
COLLECT=${BUILD:-build}/bench/collect
ROUTINGS=benes,benes-full,greedy,valiant,random,dmodk,adaptive
APPC=programs/appendix_c.x
cat >"$TMP/emu" <<WRAP
#!/bin/sh
echo "\$*" >>"$TMP/log"
exec "$EMU" "\$@"
WRAP
chmod +x "$TMP/emu"
: >"$TMP/log"
# reports D: the reports present under D, one a line
reports() { find "$1/runs" -name '*.json' | sort; }

D=$TMP/plan
run "$SWEEP" $APPC --routing $ROUTINGS --duplex half,full --out "$D" --emu "$TMP/emu" --plan-only
expect_status plan_only_status 0
expect_grep plan_only_summary "$D/jobs.txt: 14 jobs, 14 to run" "$TMP/out"
if [ ! -s "$TMP/log" ] && [ -z "$(reports "$D")" ]; then pass plan_only_runs_nothing
else fail plan_only_runs_nothing "$(cat "$TMP/log")" "$(reports "$D")"; fi
if [ "$(wc -l <"$D/jobs.txt")" -eq 14 ] && [ "$(grep -c -- "$TMP/emu --json --routing [a-z-]* --duplex [a-z]* $APPC >" "$D/jobs.txt")" -eq 14 ]
then pass jobs_one_emu_command_a_line; else fail jobs_one_emu_command_a_line "$(head -n 2 "$D/jobs.txt")"; fi
if [ "$(head -n 1 "$D/plan.csv")" = "program,report,routing,duplex" ] &&
   [ "$(sed -n 2p "$D/plan.csv")" = "$APPC,$D/runs/appendix_c/routing-benes_duplex-half.json,benes,half" ]
then pass plan_rows; else fail plan_rows "$(head -n 2 "$D/plan.csv")"; fi
if [ "$(grep -c '^[^ 	#].*\.json:$' "$D/Makefile")" -eq 14 ]; then pass makefile_a_target_a_job
else fail makefile_a_target_a_job "$(head -n 12 "$D/Makefile")"; fi
if grep -q -- --vcs "$D/jobs.txt" || grep -q -- --seed "$D/jobs.txt"; then
    fail options_only_when_asked "$(head -n 1 "$D/jobs.txt")"; else pass options_only_when_asked; fi
run "$SWEEP" $APPC --vcs 1,2 --seed 3..5 --out "$TMP/vcs" --plan-only
if [ "$(grep -c -- '--seed [345] --vcs [12] ' "$TMP/vcs/jobs.txt")" -eq 6 ]; then pass vcs_passed_when_asked
else fail vcs_passed_when_asked "$(cat "$TMP/vcs/jobs.txt")"; fi
# --switching and --mem are axes like --vcs; --max-steps and --threads
# one value each, given to every run and not in the plan or the reports'
# names. A run that reaches --max-steps is a result, its end "limit".
run "$SWEEP" $APPC --switching wormhole,cut-through,store-forward --mem 4096,8192 --out "$TMP/sw" --plan-only
if [ "$(head -n 1 "$TMP/sw/plan.csv")" = "program,report,switching,mem" ] &&
   [ "$(grep -c -- "--json --switching [a-z-]* --mem [48][0-9]* $APPC " "$TMP/sw/jobs.txt")" -eq 6 ] &&
   contains "$TMP/sw/runs/appendix_c/switching-store-forward_mem-8192.json" "$TMP/sw/plan.csv"
then pass switching_and_mem_axes; else fail switching_and_mem_axes "$(cat "$TMP/sw/plan.csv")" "$(head -n 1 "$TMP/sw/jobs.txt")"; fi
: >"$TMP/log"
run "$SWEEP" $APPC --routing benes,dmodk --max-steps 10 --threads 1 --out "$TMP/steps" --emu "$TMP/emu"
if [ "$STATUS" -eq 0 ] && [ "$(head -n 1 "$TMP/steps/plan.csv")" = "program,report,routing" ] &&
   contains "--json --max-steps 10 --threads 1 --routing dmodk $APPC" "$TMP/log" &&
   contains '"end": "limit"' "$TMP/steps/runs/appendix_c/routing-dmodk.json"
then pass max_steps_and_threads_passed; else fail max_steps_and_threads_passed "status $STATUS" "$(cat "$TMP/log" "$TMP/err")"; fi
run "$SWEEP" $APPC --max-steps 10,20 --out "$TMP/x"
expect_grep max_steps_one_value_message "sweep: --max-steps wants one number, not '10,20'" "$TMP/err"
run "$SWEEP" $APPC --threads 1 --threads 2 --out "$TMP/x"
expect_grep threads_twice_message "sweep: --threads is given twice" "$TMP/err"
: >"$TMP/log"

# The Slurm array's script runs line $SLURM_ARRAY_TASK_ID of jobs.txt, and
# only it.
line5=$(sed -n 5p "$D/jobs.txt" | sed 's/^o=\([^;]*\);.*/\1/')
SLURM_ARRAY_TASK_ID=5 sh "$D/slurm.sh" >"$TMP/out" 2>"$TMP/err"
if [ "$(reports "$D")" = "$line5" ] && [ "$(cat "$TMP/log")" = "--json --routing greedy --duplex half $APPC" ]
then pass slurm_runs_its_line; else fail slurm_runs_its_line "$(cat "$TMP/log")" "$(reports "$D")"; fi
expect_grep slurm_array_size "#SBATCH --array=1-14" "$D/slurm.sh"
if [ "$(wc -l <"$D/slurm.sh")" -eq 3 ]; then pass slurm_three_lines; else fail slurm_three_lines; fi

# A whole sweep, then again after two reports are deleted.
: >"$TMP/log"
run "$SWEEP" $APPC --routing $ROUTINGS --duplex half,full --out "$D" --emu "$TMP/emu" -j 2
expect_status sweep_status 0
expect_grep sweep_summary "$D: 14 of 14 runs done" "$TMP/out"
expect_empty sweep_no_progress_off_a_terminal "$TMP/err"
if [ "$(reports "$D" | wc -l)" -eq 14 ] && [ "$(wc -l <"$TMP/log")" -eq 13 ]; then
    pass sweep_runs_each_job_once; else fail sweep_runs_each_job_once "$(cat "$TMP/log")"; fi
rm "$D/runs/appendix_c/routing-greedy_duplex-full.json" "$D/runs/appendix_c/routing-dmodk_duplex-half.json"
: >"$TMP/log"
run "$SWEEP" $APPC --routing $ROUTINGS --duplex half,full --out "$D" --emu "$TMP/emu"
expect_grep resume_summary "14 jobs, 2 to run" "$TMP/out"
sort "$TMP/log" >"$TMP/ran"
printf '%s\n' "--json --routing dmodk --duplex half $APPC" "--json --routing greedy --duplex full $APPC" >"$TMP/want"
expect_same resume_runs_exactly_the_missing "$TMP/want" "$TMP/ran"
: >"$TMP/log"
run "$SWEEP" $APPC --routing $ROUTINGS --duplex half,full --out "$D" --emu "$TMP/emu"
if [ "$STATUS" -eq 0 ] && [ ! -s "$TMP/log" ]; then pass resume_nothing_left
else fail resume_nothing_left "$(cat "$TMP/log")"; fi

# Each report is the JSON alone, which python3's json.tool reads (where
# there is one), and the program's lines are beside it, in REPORT.out.
# collect reads it, and a report that is emu's whole stdout the same.
run "$SWEEP" programs/broadcast.x --routing benes --out "$TMP/pure" --emu "$EMU"
r=$TMP/pure/runs/broadcast/routing-benes.json
"$EMU" --json --routing benes programs/broadcast.x >"$TMP/whole"
sed '$d' "$TMP/whole" >"$TMP/want.out"
tail -n 1 "$TMP/whole" >"$TMP/want.json"
expect_same report_is_the_json "$TMP/want.json" "$r"
if [ -s "$TMP/want.out" ]; then expect_same report_out_the_programs_lines "$TMP/want.out" "$r.out"
else fail report_out_the_programs_lines "broadcast.x printed nothing"; fi
if command -v python3 >/dev/null 2>&1; then
    if python3 -m json.tool "$r" >/dev/null; then pass report_reads_as_json
    else fail report_reads_as_json "$(head -c 300 "$r")"; fi
fi
"$COLLECT" "$TMP/pure" && mv "$TMP/pure/results.csv" "$TMP/pure.csv"
cp "$TMP/whole" "$r"
run "$COLLECT" "$TMP/pure"
if [ "$STATUS" -eq 0 ] && cmp -s "$TMP/pure.csv" "$TMP/pure/results.csv"; then pass collect_reads_whole_stdout
else fail collect_reads_whole_stdout "status $STATUS" "$(cat "$TMP/err")"; fi

# A run that does not start (a bad routing) writes no report and fails
# the sweep; a deadlock is a result, kept.
run "$SWEEP" $APPC --routing nosuch --out "$TMP/bad" --emu "$EMU"
if [ "$STATUS" -ne 0 ] && [ -z "$(reports "$TMP/bad")" ]; then pass failed_run_no_report
else fail failed_run_no_report "status $STATUS" "$(reports "$TMP/bad")"; fi
expect_grep failed_run_message "routing" "$TMP/err"
# A run that cannot start does not stop the others: here --procs 8 for a
# program of 16 processors, first in the plan and with one job at a time
# (which once stopped the sweep before the run of 16). The sweep names it
# with emu's reason, runs the rest and ends with status 1; run again, it
# tries only that run.
A2A=programs/all_to_all.x
run "$SWEEP" $A2A --procs 8,16 --out "$TMP/skip" --emu "$EMU" -j 1
expect_status skip_status 1
expect_grep skip_summary "$TMP/skip: 1 of 2 runs done, 1 could not run" "$TMP/out"
expect_grep skip_names_run_and_reason "sweep: could not run $A2A --procs 8: emu: --procs 8 is fewer than the program's 16 processors" "$TMP/err"
if [ "$(reports "$TMP/skip")" = "$TMP/skip/runs/all_to_all/procs-16.json" ]; then pass skip_runs_the_rest
else fail skip_runs_the_rest "$(reports "$TMP/skip")"; fi
if [ "$(wc -l <"$TMP/err")" -eq 1 ]; then pass skip_one_line_a_run; else fail skip_one_line_a_run "$(cat "$TMP/err")"; fi
run "$SWEEP" $A2A --procs 8,16 --out "$TMP/skip" --emu "$EMU"
expect_grep skip_again_tries_it "2 jobs, 1 to run" "$TMP/out"
expect_status skip_again_status 1

run "$SWEEP" tests/data/network_deadlock.x --routing greedy --buffer 1 --out "$TMP/dl" --emu "$EMU"
if [ "$STATUS" -eq 0 ] &&
   grep -q '"end": "deadlock"' "$TMP/dl/runs/network_deadlock/routing-greedy_buffer-1.json"
then pass deadlock_is_a_result; else fail deadlock_is_a_result "status $STATUS" "$(cat "$TMP/err")"; fi

# Bad command lines.
run "$SWEEP" $APPC --seed 5..3 --out "$TMP/x"
expect_status bad_range_status 1
expect_grep bad_range_message "'5..3' is an empty range" "$TMP/err"
run "$SWEEP" $APPC --routing benes
expect_grep no_out_message "no --out DIR" "$TMP/err"
# A value given twice would be two jobs of one report (two targets of the
# Makefile, two rows of the table): refused, naming the option and the
# value, a number also when written otherwise, and nothing is made.
run "$SWEEP" $APPC --routing benes,dmodk,benes --out "$TMP/twice"
expect_status value_twice_status 1
expect_grep value_twice_message "sweep: --routing: 'benes' is given twice" "$TMP/err"
run "$SWEEP" $APPC --seed 1..3,2 --out "$TMP/twice"
expect_grep value_twice_in_range_message "sweep: --seed: '2' is given twice" "$TMP/err"
run "$SWEEP" $APPC --seed 7,07 --out "$TMP/twice"
expect_grep value_twice_as_number_message "sweep: --seed: '07' is given twice (as '7')" "$TMP/err"
run "$SWEEP" programs/token_ring.x --define n=4,8,4 --out "$TMP/twice"
expect_grep value_twice_define_message "sweep: --define n: '4' is given twice" "$TMP/err"
if [ ! -e "$TMP/twice" ]; then pass value_twice_nothing_made; else fail value_twice_nothing_made; fi
# A large range is planned whole: 30,000 seeds, a list longer than one
# argument may be (it once planned 0 jobs, with status 0). A range or a
# plan over a million jobs is refused at once, and nothing is made: the
# range below once ran in a loop of the shell without end.
run "$SWEEP" $APPC --seed 1..30000 --out "$TMP/big" --plan-only
if [ "$STATUS" -eq 0 ] && contains "$TMP/big/jobs.txt: 30000 jobs, 30000 to run" "$TMP/out" &&
   [ "$(wc -l <"$TMP/big/plan.csv")" -eq 30001 ] && [ "$(tail -n 1 "$TMP/big/plan.csv")" = \
   "$APPC,$TMP/big/runs/appendix_c/seed-30000.json,30000" ] && contains "--array=1-30000" "$TMP/big/slurm.sh"
then pass large_range_planned; else fail large_range_planned "status $STATUS" "$(cat "$TMP/out" "$TMP/err")"; fi
rm -rf "$TMP/big"
run timeout 5 "$SWEEP" $APPC --seed 1..1000000000 --out "$TMP/big"
expect_status range_too_large_status 1
expect_grep range_too_large_message "sweep: --seed: '1..1000000000' is 1000000000 values; a sweep plans at most 1000000 jobs" "$TMP/err"
run timeout 5 "$SWEEP" $APPC --seed 1..1000 --procs 1..1001 --out "$TMP/big"
expect_status plan_too_large_status 1
expect_grep plan_too_large_message "sweep: the plan has more than 1000000 jobs; a sweep plans at most 1000000" "$TMP/err"
if [ ! -e "$TMP/big" ]; then pass too_large_nothing_made; else fail too_large_nothing_made; fi
# A file of the plan that cannot be written (here a directory in its
# place) stops the sweep with status 1 before it runs anything.
mkdir -p "$TMP/unwritable/Makefile"
: >"$TMP/log"
run "$SWEEP" $APPC --out "$TMP/unwritable" --emu "$TMP/emu"
if [ "$STATUS" -eq 1 ] && [ ! -s "$TMP/log" ] && ! contains "jobs.txt:" "$TMP/out"; then pass plan_write_failure
else fail plan_write_failure "status $STATUS" "$(cat "$TMP/out" "$TMP/err")"; fi
run "$SWEEP" $APPC --colour red --out "$TMP/x"
expect_grep unknown_option_message "unknown option '--colour'" "$TMP/err"

# --define NAME=LIST: the program's val NAME, an axis like the others,
# given to bin/emu as -D NAME=VALUE and in a column D:NAME of the plan.
RING=programs/token_ring.x
: >"$TMP/log"
run "$SWEEP" $RING --routing benes,dmodk --define n=4,16 --out "$TMP/def" --emu "$TMP/emu" -j 2
expect_status define_status 0
if [ "$(head -n 1 "$TMP/def/plan.csv")" = "program,report,routing,D:n" ] &&
   [ "$(sed -n 2p "$TMP/def/plan.csv")" = "$RING,$TMP/def/runs/token_ring/routing-benes_n-4.json,benes,4" ]
then pass define_plan_column; else fail define_plan_column "$(head -n 2 "$TMP/def/plan.csv")"; fi
if [ "$(grep -c -- "--routing [a-z]* -D n=[0-9]* $RING >" "$TMP/def/jobs.txt")" -eq 4 ]
then pass define_passed_as_D; else fail define_passed_as_D "$(head -n 1 "$TMP/def/jobs.txt")"; fi
expect_grep define_reaches_emu "--json --routing dmodk -D n=16 $RING" "$TMP/log"
run "$SWEEP" $RING --define n=1..3 --define laps=2 --out "$TMP/def2" --plan-only
if [ "$(head -n 1 "$TMP/def2/plan.csv")" = "program,report,D:n,D:laps" ] &&
   [ "$(grep -c -- "-D n=[123] -D laps=2 $RING" "$TMP/def2/jobs.txt")" -eq 3 ]
then pass define_two_vals_in_order; else fail define_two_vals_in_order "$(cat "$TMP/def2/plan.csv")"; fi
run "$SWEEP" $RING --define n --out "$TMP/x"
expect_grep define_no_list_message "--define 'n': write NAME=LIST, as in n=64,256,1024" "$TMP/err"
run "$SWEEP" $RING --define 2n=4 --out "$TMP/x"
expect_grep define_bad_name_message "--define '2n=4': '2n' is not a name" "$TMP/err"
run "$SWEEP" $RING --define n=4 --define n=8 --out "$TMP/x"
expect_grep define_twice_message "--define n is given twice" "$TMP/err"
run "$SWEEP" $RING --define 'n=4;ls' --out "$TMP/x"
expect_grep define_bad_value_message "'4;ls' is not a value" "$TMP/err"

# Paths with a space or a glob: each refused, named whole, before anything
# is made or run. Unchecked, `--out "o 6"` ran 6/runs/... as a command,
# `--out '*'` matched the older sweep beside it, and `my prog.x` was the
# two programs my and prog.x. The sweeps run in $W, where paths are relative.
W=$TMP/glob
mkdir -p "$W/old/runs"
cp $APPC "$W/prog.x"
# refused NAME WHAT ARGS...: the sweep of ARGS, run in $W, stops with
# status 1, a message naming 'WHAT', no new file in $W and no run of the
# emulator.
refused() {
    name=$1 what=$2; shift 2
    listing=$(ls -A "$W")
    : >"$TMP/log"
    run timeout 5 sh -c 'cd "$0" && exec "$@"' "$W" "$ROOT/$SWEEP" "$@"
    expect_status "${name}_status" 1
    expect_grep "${name}_message" "'$what': only letters" "$TMP/err"
    if [ "$(ls -A "$W")" = "$listing" ] && [ ! -s "$TMP/log" ]; then pass "${name}_nothing_made"
    else fail "${name}_nothing_made" "$(ls -A "$W" | tr '\n' ' ')" "$(cat "$TMP/log")"; fi
}
refused sweep_out_glob "*" prog.x --out "*" --emu "$TMP/emu"
W=$TMP/paths
mkdir -p "$W"
cp $APPC "$W/my prog.x"; cp $APPC "$W/my"; cp $APPC "$W/prog.x"
refused sweep_out_space "o 6" prog.x --out "o 6" --emu "$TMP/emu"
refused sweep_program_space "my prog.x" "my prog.x" --out out --emu "$TMP/emu"
refused sweep_emu_space "$TMP/emu prog.x" prog.x --out out --emu "$TMP/emu prog.x"

if command -v script >/dev/null 2>&1; then
    # On a terminal (a pseudo-terminal made by script), jobs done of total.
    script -qec "$SWEEP $APPC --routing $ROUTINGS --out $TMP/tty --emu $EMU" /dev/null >"$TMP/tty.out" 2>&1
    expect_grep progress_on_a_terminal "jobs 7/7" "$TMP/tty.out"
fi

# ---- bench/collect ------------------------------------------------------------------
run "$COLLECT" "$D"
expect_status collect_status 0
# Each row of the table is what a single run of bin/emu reports, read here
# from its JSON by name (the first member of that name is the top level's).
tail -n +2 "$D/results.csv" >"$TMP/rows"
keys=$(head -n 1 "$D/results.csv" | cut -d, -f4- | tr , ' ')
# (one awk a run, not a grep, head and sed a key and run: a process costs)
while IFS=, read -r prog routing duplex rest; do
    "$EMU" --json --routing "$routing" --duplex "$duplex" "$prog" |
        awk -v keys="$keys" -v row="$prog,$routing,$duplex" '
            { json = $0 }
            END {
                n = split(keys, key, " ")
                for (i = 1; i <= n; i++) {
                    v = ""
                    if (match(json, "\"" key[i] "\": [^,}]*")) {
                        v = substr(json, RSTART, RLENGTH)
                        sub(/^[^:]*: /, "", v); gsub(/"/, "", v); sub(/^null$/, "", v)
                    }
                    row = row "," v
                }
                print row
            }'
done <"$TMP/rows" >"$TMP/singles"
if [ "$(wc -l <"$TMP/rows")" -eq 14 ]; then pass collect_a_row_a_run; else fail collect_a_row_a_run; fi
expect_same collect_rows_equal_single_runs "$TMP/singles" "$TMP/rows"
if [ "$(head -n 1 "$D/results.csv" | cut -d, -f1-6)" = "program,routing,duplex,end,exit_status,processors" ]
then pass collect_columns; else fail collect_columns "$(head -n 1 "$D/results.csv")"; fi
# Every scalar at the top level of emu's report is a column, in its order
# (as python3 reads the report, where there is one): switching, messages,
# flits_sent and flits_delivered among them.
expect_grep collect_message_columns ",copies,switching,messages,flits_sent,flits_delivered,vcs," "$D/results.csv"
if command -v python3 >/dev/null 2>&1; then
    scalars=$("$EMU" --json $APPC | tail -n 1 | python3 -c 'import json, sys
print(",".join(k for k, v in json.load(sys.stdin).items() if not isinstance(v, (dict, list))))')
    if [ "$(head -n 1 "$D/results.csv" | cut -d, -f4-)" = "$scalars" ]; then pass collect_every_scalar_a_column
    else fail collect_every_scalar_a_column "$scalars" "$(head -n 1 "$D/results.csv")"; fi
fi

# The plots: two panels side by side, one line per routing in each, the
# axes' labels and a legend of the seven routings.
for stat in collisions timesteps; do
    svg=$D/appendix_c.$stat.svg
    lines=$(grep -c '<path class="line"' "$svg")
    panels=$(grep -c '<g class="panel">' "$svg")
    if [ "$lines" -eq 14 ] && [ "$panels" -eq 2 ] &&
       grep -q '>half duplex</text>' "$svg" && grep -q '>full duplex</text>' "$svg"
    then pass "plot_${stat}_a_line_a_routing"; else fail "plot_${stat}_a_line_a_routing" "$lines lines, $panels panels"; fi
    for r in $(echo $ROUTINGS | tr , ' '); do
        [ "$(grep -c "<title>$r</title>" "$svg")" -eq 2 ] || fail "plot_${stat}_routing_$r"
    done
    expect_grep "plot_${stat}_xlabel" 'class="xlabel"' "$svg"
    expect_grep "plot_${stat}_xlabel_text" '>processors (N)</text>' "$svg"
    expect_grep "plot_${stat}_ylabel" ">$stat (mean; bars: least to greatest)</text>" "$svg"
    if [ "$(tail -n 1 "$svg")" = "</svg>" ]; then pass "plot_${stat}_closed"; else fail "plot_${stat}_closed"; fi
done
# Lines that lie on one another stay apart: each routing has its own
# colour, dash pattern and marker, in the plot and in the legend; and a
# line that is another's says so in the legend ("same as" the first such).
# Appendix C's collisions: benes-full's and adaptive's are benes's (0),
# dmodk's random's (2), in both duplex modes.
svg=$D/appendix_c.collisions.svg
# (each line's style, then its routing)
sed -n 's/.*class="line"\(.*\) d=.*<title>\([^<]*\)<.*/\1 \2/p' "$svg" | sort -u >"$TMP/styles"
if [ "$(wc -l <"$TMP/styles")" -eq 7 ] && [ "$(sed 's/ [^ ]*$//' "$TMP/styles" | sort -u | wc -l)" -eq 7 ] &&
   [ "$(grep -c 'stroke-dasharray' "$TMP/styles")" -ge 4 ]
then pass plot_lines_own_colour_and_dash; else fail plot_lines_own_colour_and_dash "$(cat "$TMP/styles")"; fi
sed -n '/<g class="legend">/,/<\/g>$/p' "$svg" >"$TMP/legend"
# (each marker's shape: its element, and a path's moves after its start)
shapes() { sed -n "s/.*<g class=\"$1\"[^>]*><\([a-z]*\)\( d=\"M[-0-9.]* [-0-9.]*\([^\"]*\)\"\)\{0,1\}.*/\1 \3/p" "$2" | sort -u | wc -l; }
if [ "$(shapes points "$svg")" -eq 7 ] && [ "$(shapes marker "$TMP/legend")" -eq 7 ]
then pass plot_lines_own_marker; else fail plot_lines_own_marker "$(grep -o '<g class="points".\{80\}' "$svg")"; fi
grep -o '>[^<]*</text>' "$TMP/legend" | tr -d '<>' | sed 's,/text$,,' >"$TMP/legend.text"
printf '%s\n' benes benes-full "same as benes" greedy valiant random dmodk "same as random" adaptive "same as benes" >"$TMP/want"
expect_same plot_legend_same_as "$TMP/want" "$TMP/legend.text"

# The tables: Appendix C at N = 8, the figures of docs/routing.md.
expect_grep tables_heading "collisions at N = 8, half duplex:" "$D/tables.md"
expect_grep tables_columns '| program | `benes` | `benes-full` | `greedy` | `valiant` | `random` | `dmodk` | `adaptive` |' "$D/tables.md"
expect_grep tables_appendix_c_collisions '| `appendix_c.x` | 0 | 0 | 4 | 9 | 2 | 2 | 0 |' "$D/tables.md"
expect_grep tables_appendix_c_timesteps '| `appendix_c.x` | 35 | 35 |' "$D/tables.md"
# The plots of a table written before are the same bytes.
mkdir "$TMP/again"
run "$COLLECT" --csv "$D/results.csv" "$TMP/again"
expect_same plots_from_the_csv_collisions "$D/appendix_c.collisions.svg" "$TMP/again/appendix_c.collisions.svg"
expect_same plots_from_the_csv_timesteps "$D/appendix_c.timesteps.svg" "$TMP/again/appendix_c.timesteps.svg"
expect_same tables_from_the_csv "$D/tables.md" "$TMP/again/tables.md"

# Seeds: one point per N, the mean of the seeds' runs, with a bar from the
# least to the greatest when they differ.
"$SWEEP" $APPC --routing valiant --procs 8,16 --seed 1..4 --out "$TMP/seeds" --emu "$EMU" >/dev/null 2>&1
run "$COLLECT" "$TMP/seeds"
if [ "$(grep '<g class="points"' "$TMP/seeds/appendix_c.collisions.svg" | grep -o "<circle" | wc -l)" -eq 2 ] &&
   grep -q '<path class="error"' "$TMP/seeds/appendix_c.collisions.svg"
then pass plot_seeds_one_point_with_bars; else fail plot_seeds_one_point_with_bars; fi
# valiant's collisions at N = 16 (the largest) are 3, 11, 5 and 7 by seed:
# their mean, to one decimal
expect_grep tables_seeds_mean '| `appendix_c.x` | 6.5 |' "$TMP/seeds/tables.md"

# The options that split lines other than the routing name them, as a
# val does (n=64): buffer=1 vcs=2, in the legend and the tables' columns.
"$SWEEP" $APPC --routing benes,dmodk --buffer 1,2 --vcs 1,2 --out "$TMP/named" --emu "$EMU" >/dev/null 2>&1
run "$COLLECT" "$TMP/named"
expect_grep plot_lines_name_options '<title>dmodk buffer=1 vcs=2</title>' "$TMP/named/appendix_c.collisions.svg"
expect_grep tables_lines_name_options '| program | `benes buffer=1 vcs=1` | `benes buffer=1 vcs=2` |' "$TMP/named/tables.md"

# Programs of different sizes, each at its own N: the tables show each
# at its largest N, in a column of its own, not a row of '-' at the
# sweep's largest.
"$SWEEP" $APPC programs/token_ring.x --routing benes,dmodk --out "$TMP/sizes" --emu "$EMU" >/dev/null 2>&1
run "$COLLECT" "$TMP/sizes"
expect_grep tables_each_programs_n_heading "timesteps at each program's largest N:" "$TMP/sizes/tables.md"
expect_grep tables_each_programs_n_columns '| program | N | `benes` | `dmodk` |' "$TMP/sizes/tables.md"
expect_grep tables_each_programs_n_row '| `appendix_c.x` | 8 | 35 | 36 |' "$TMP/sizes/tables.md"
expect_grep tables_each_programs_n_row_16 '| `token_ring.x` | 16 | 684 | 684 |' "$TMP/sizes/tables.md"

# A sweep of a val and not of --procs: the plots and tables are against the
# val (here the ring's size, so N follows it); with --procs too, against N,
# a line per value of the val. A val that is not a power of two makes a
# linear axis.
run "$COLLECT" "$TMP/def"
expect_status collect_define_status 0
if [ "$(head -n 1 "$TMP/def/results.csv" | cut -d, -f1-6)" = "program,routing,D:n,end,exit_status,processors" ] &&
   [ "$(cut -d, -f3,6 "$TMP/def/results.csv" | tail -n +2 | sort -u | tr '\n' ' ')" = "16,16 4,4 " ]
then pass collect_define_column; else fail collect_define_column "$(cut -d, -f1-6 "$TMP/def/results.csv")"; fi
svg=$TMP/def/token_ring.timesteps.svg
expect_grep collect_define_x_label '>n (-D n)</text>' "$svg"
expect_grep collect_define_title '>token_ring.x: timesteps by n</text>' "$svg"
expect_grep collect_define_tables "timesteps at n = 16:" "$TMP/def/tables.md"
expect_grep collect_define_tables_row '| `token_ring.x` | 891 | 891 |' "$TMP/def/tables.md"
"$SWEEP" $RING --procs 16,32 --define n=4,16 --out "$TMP/defp" --emu "$EMU" >/dev/null 2>&1
run "$COLLECT" "$TMP/defp"
expect_grep collect_define_and_procs_x_is_n '>processors (N)</text>' "$TMP/defp/token_ring.timesteps.svg"
expect_grep collect_define_and_procs_lines '<title>n=4</title>' "$TMP/defp/token_ring.timesteps.svg"
expect_grep collect_define_and_procs_tables '| program | `n=4` | `n=16` |' "$TMP/defp/tables.md"
"$SWEEP" $RING --define laps=1..3 --out "$TMP/defl" --emu "$EMU" >/dev/null 2>&1
run "$COLLECT" "$TMP/defl"
svg=$TMP/defl/token_ring.timesteps.svg
if grep -q 'text-anchor="middle">3</text>' "$svg"; then pass collect_define_linear_axis
else fail collect_define_linear_axis "$(grep 'text-anchor="middle">[0-9]' "$svg")"; fi

# A run that could not run: collect names it with its reason, apart from
# the runs not run yet, and the table holds the others.
run "$COLLECT" "$TMP/skip"
expect_status collect_skip_status 1
expect_grep collect_skip_reason "collect: $TMP/skip/runs/all_to_all/procs-8.json: could not run: emu: --procs 8 is fewer than the program's 16 processors" "$TMP/err"
expect_grep collect_skip_count "collect: 1 of 2 runs could not run (above); the table holds the others" "$TMP/err"
if grep -q "run the sweep again" "$TMP/err"; then fail collect_skip_not_to_run_again "$(cat "$TMP/err")"
else pass collect_skip_not_to_run_again; fi
if [ "$(cut -d, -f2 "$TMP/skip/results.csv" | tr '\n' ' ')" = "procs 16 " ]; then pass collect_skip_table
else fail collect_skip_table "$(cat "$TMP/skip/results.csv")"; fi

# A sweep stopped while a job runs (here by SIGTERM to the sweep's
# process group, made by timeout, sent by the emulator as it starts, so
# that the stop falls in the run) leaves no report and no REPORT.err: the
# run is not run yet, and collect says so, not that it could not run
# (which every job cut short once was, for a REPORT.err made as it
# started). So is a run that emu ended on a signal (143), the sweep
# saying it stopped; and an old REPORT.err without the exit status.
printf '#!/bin/sh\nkill -TERM 0\nsleep 5\n' >"$TMP/emu_stop"
printf '#!/bin/sh\nexit 143\n' >"$TMP/emu_143"
chmod +x "$TMP/emu_stop" "$TMP/emu_143"
timeout 20 "$SWEEP" $APPC --out "$TMP/stop" --emu "$TMP/emu_stop" >/dev/null 2>&1
if [ -z "$(find "$TMP/stop/runs" -name '*.json' -o -name '*.json.err')" ] &&
   [ -n "$(find "$TMP/stop/runs" -name '*.part')" ]; then pass stopped_job_no_err
else fail stopped_job_no_err "$(find "$TMP/stop/runs" -type f)"; fi
run "$COLLECT" "$TMP/stop"
expect_status collect_stopped_status 1
expect_grep collect_stopped_not_run_yet "1 of 1 runs has no report yet (run the sweep again)" "$TMP/err"
if grep -q "could not run" "$TMP/err"; then fail collect_stopped_not_could_not_run "$(cat "$TMP/err")"
else pass collect_stopped_not_could_not_run; fi
run "$SWEEP" $APPC --out "$TMP/s143" --emu "$TMP/emu_143"
expect_status emu_signal_status 1
expect_grep emu_signal_summary "$TMP/s143: 0 of 1 run done, 1 stopped (run the sweep again)" "$TMP/out"
if [ -z "$(find "$TMP/s143/runs" -type f)" ] && [ ! -s "$TMP/err" ]; then pass emu_signal_no_err
else fail emu_signal_no_err "$(find "$TMP/s143/runs" -type f)" "$(cat "$TMP/err")"; fi
: >"$TMP/s143/runs/appendix_c/run.json.err"
run "$COLLECT" "$TMP/s143"
expect_grep collect_err_without_status_not_run_yet "1 of 1 runs has no report yet" "$TMP/err"

# A report missing: the table holds the others, and collect says so.
rm "$D/runs/appendix_c/routing-random_duplex-full.json"
run "$COLLECT" "$D"
expect_status collect_missing_status 1
expect_grep collect_missing_message "1 of 14 runs has no report yet" "$TMP/err"
if [ "$(wc -l <"$D/results.csv")" -eq 14 ]; then pass collect_missing_rows; else fail collect_missing_rows; fi

# ---- docs/results.md: the example programs by routing and size -------------------
# The committed plots and tables are what collect draws from the committed
# CSV, the tables are in the doc as they are, and the CSV's rows at N = 32
# are what the programs do now (the whole sweep to 65,536 takes longer).
R=docs/results
nprograms=$(ls programs/*.x | wc -l)
mkdir "$TMP/docs"
run "$COLLECT" --csv $R/programs.csv "$TMP/docs"
expect_status results_plots_status 0
stale=""
for f in "$TMP"/docs/*.svg "$TMP/docs/tables.md"; do
    cmp -s "$f" "$R/$(basename "$f")" || stale="$stale $(basename "$f")"
done
# (two plots per program)
if [ -z "$stale" ] && [ "$(ls "$TMP"/docs/*.svg | wc -l)" -eq $((2 * nprograms)) ]; then pass results_plots_from_the_csv
else fail results_plots_from_the_csv "differ from $R:$stale"; fi
if grep -qF "$(tr '\n' '\001' <$R/tables.md)" "$(tr '\n' '\001' <docs/results.md >"$TMP/doc1"; echo "$TMP/doc1")"
then pass results_tables_in_the_doc; else fail results_tables_in_the_doc "docs/results.md does not hold $R/tables.md as it is"; fi
# (make test: the first seed of the three, and a quarter of the runs, each
# routing in each duplex mode on a quarter of the programs, which ones
# turning from one routing and mode to the next, 60 runs; make check: the
# first seed in both modes,
# 238 runs, which is every program, routing and mode under the sanitizers;
# TEST_FULL=1 on the normal build: all three seeds, 714 runs.) The sweep's
# runs, its jobs' bin/emu commands, run in two shells side by side (the
# sweep's -j 2), each writing emu's whole stdout as its report, which
# collect reads as well: its make and each job's splitting of the output,
# tested above, would start six more processes a run, at about 10 ms each.
# The runs left out have no report, and collect leaves their rows out.
if [ "${TEST_FULL:-0}" = 0 ]; then seeds=1; nseeds=1; all=0
else case "${BUILD:-build}" in
    *check*) seeds=1; nseeds=1; all=1 ;;
    *) seeds=1..3; nseeds=3; all=1 ;;
esac; fi
"$SWEEP" programs/*.x --routing $ROUTINGS --duplex half,full --procs 32 --seed $seeds --out "$TMP/d32" \
    --emu "$EMU" --plan-only >/dev/null
# (the plan's rows are the jobs' lines: program,report,routing,duplex,...;
# the sample's program,routing,duplex go to $TMP/d32/sample)
awk -F, -v all=$all -v routings=$ROUTINGS -v d="$TMP/d32" '
    BEGIN { n = split(routings, r, ","); for (i = 1; i <= n; i++) ri[r[i]] = i }
    FNR == NR {
        if (FNR == 1) next
        if (!($1 in pi)) pi[$1] = ++np
        if (keep[FNR - 1] = all || (pi[$1] + ri[$3] + 2 * ($4 == "full")) % 4 == 0)
            print $1 "," $3 "," $4 > (d "/sample")
        next
    }
    keep[FNR] { sub(/ >\$o\.part 2>.*/, " >$o"); print > (d "/runs." (++k % 2)) }' "$TMP/d32/plan.csv" "$TMP/d32/jobs.txt"
sh "$TMP/d32/runs.0" & sh "$TMP/d32/runs.1"
wait $!
run "$COLLECT" "$TMP/d32"
awk -F, -v n=$nseeds '$4 == 32 && $5 <= n' $R/programs.csv >"$TMP/all32"
awk -F, 'FNR == NR { sample[$0]; next } ($1 "," $2 "," $3) in sample' "$TMP/d32/sample" "$TMP/all32" >"$TMP/want32"
awk -F, '$4 == 32' "$TMP/d32/results.csv" >"$TMP/got32"
# (7 routings, 2 duplex modes, the seeds run, per program)
if [ "$(wc -l <"$TMP/all32")" -eq $((14 * nseeds * nprograms)) ]; then pass results_csv_rows_at_32; else fail results_csv_rows_at_32; fi
# (the sample: every program, routing and mode when all are run, and else
# every routing in both modes; a committed row for each run of it)
if [ $all = 1 ]; then want=$((14 * nprograms)); else want=$(wc -l <"$TMP/d32/sample"); fi
if [ "$(cut -d, -f2,3 "$TMP/d32/sample" | sort -u | wc -l)" -eq 14 ] &&
   [ "$(wc -l <"$TMP/d32/sample")" -eq $want ] &&
   [ "$(wc -l <"$TMP/want32")" -eq $(($(wc -l <"$TMP/d32/sample") * nseeds)) ]; then
    expect_same results_csv_is_what_the_programs_do "$TMP/want32" "$TMP/got32"
else fail results_csv_is_what_the_programs_do "$(wc -l <"$TMP/d32/sample") runs in the sample, $(wc -l <"$TMP/want32") rows"; fi
if [ "$(head -n 1 $R/programs.csv)" = "$(head -n 1 "$TMP/d32/results.csv")" ]; then pass results_csv_columns
else fail results_csv_columns; fi

# A directory without a plan: one message naming it, status 1.
mkdir "$TMP/empty"
run "$COLLECT" "$TMP/empty"
expect_status collect_no_plan_status 1
if [ "$(wc -l <"$TMP/err")" -eq 1 ] && grep -q "empty/plan.csv: cannot read" "$TMP/err"
then pass collect_no_plan_one_message; else fail collect_no_plan_one_message "$(cat "$TMP/err")"; fi

# ---- collect: hostile reports and tables ------------------------------------------
# A report or a table with a bad field stops collect at once, with status
# 1 and a message naming the file, the row and the field, and no endless
# plot: unchecked, N = 0 drew axes from log2 0 = -inf without end, and nan
# crashed it (timeout 5 keeps such a mistake from hanging the suite).
H=$TMP/hostile
mkdir -p "$H/runs" "$H/drawn"
"$EMU" --json $APPC | tail -n 1 >"$H/runs/good.json"
printf 'program,report\n%s,%s\n' $APPC "$H/runs/good.json" >"$H/plan.csv"
"$COLLECT" "$H" && mv "$H/results.csv" "$H/good.csv"
printf '%s,%s\n' $APPC "$H/runs/bad.json" >>"$H/plan.csv"
# hostile NAME WHAT CMD...: collect (CMD) ends with status 1 within the
# timeout, says WHAT, and writes no plot over 1 MB.
hostile() {
    name=$1 what=$2; shift 2
    run timeout 5 "$@"
    expect_status "${name}_status" 1
    expect_grep "${name}_message" "$what" "$TMP/err"
    big=$(find "$H" -name '*.svg' -size +1024k)
    if [ -z "$big" ]; then pass "${name}_bounded"; else fail "${name}_bounded" "$big"; fi
    find "$H" -name '*.svg' -exec rm -f {} +
}
# bad_report NAME FIELD SED: the good report edited by SED is the other run.
bad_report() {
    sed "$3" "$H/runs/good.json" >"$H/runs/bad.json"
    hostile "$1" "$H/runs/bad.json: $2:" "$COLLECT" "$H"
}
bad_report collect_report_processors_0 processors 's/"processors": 8/"processors": 0/'
bad_report collect_report_processors_inf processors 's/"processors": 8/"processors": 1e999/'
bad_report collect_report_processors_string processors 's/"processors": 8/"processors": "8"/'
bad_report collect_report_latency_inf latency_mean 's/"latency_mean": [0-9.]*/"latency_mean": 1e999/'
bad_report collect_report_end_comma end 's/"end": "normal"/"end": "nor,mal"/'
# The table left holds the good run, and collect reads it back.
run "$COLLECT" --csv "$H/results.csv" "$H/drawn"
if [ "$STATUS" -eq 0 ] && [ "$(wc -l <"$H/results.csv")" -eq 2 ]; then pass collect_report_end_comma_table_reads_back
else fail collect_report_end_comma_table_reads_back "status $STATUS" "$(cat "$TMP/err")"; fi
bad_report collect_report_end_line_break end 's/"end": "normal"/"end": "nor\\nmal"/'
# bad_table NAME COLUMN VALUE: the good row, then one with COLUMN = VALUE.
head -n 1 "$H/good.csv" | tr , '\n' >"$H/columns"
bad_table() {
    c=$(grep -n -x "$2" "$H/columns" | cut -d: -f1)
    { cat "$H/good.csv"; tail -n 1 "$H/good.csv" | awk -F, -v OFS=, -v c="$c" -v v="$3" '{ $c = v; print }'; } >"$H/t.csv"
    hostile "$1" "t.csv:3: $2: '$3'" "$COLLECT" --csv "$H/t.csv" "$H/drawn"
}
bad_table collect_csv_processors_0 processors 0
bad_table collect_csv_processors_empty processors ""
bad_table collect_csv_processors_abc processors abc
bad_table collect_csv_processors_nan processors nan
bad_table collect_csv_processors_fraction processors 2.5
bad_table collect_csv_collisions_nan collisions nan
bad_table collect_csv_timesteps_inf timesteps inf

# Run from inside make (as make test runs it), the sweep's own make says
# nothing of directories: its output is the sweep's.
MAKEFLAGS=w MAKELEVEL=2 "$SWEEP" programs/appendix_c.x --routing benes --out "$TMP/inside" \
    --emu "$EMU" >"$TMP/inside.out" 2>&1
if grep -q 'Entering directory' "$TMP/inside.out"; then
    fail sweep_inside_make_quiet "$(cat "$TMP/inside.out")"
else pass sweep_inside_make_quiet; fi
