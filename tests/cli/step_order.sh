# --step with its stdout and its stderr in the same pipe (`2>&1 | tee log`):
# each prompt, and each message about a command, comes after the state or
# the output it follows on a terminal, not before it, although stdout
# through a pipe is written a buffer at a time: after the state of the
# timestep it names, after the statistics of s and the full state of f,
# and the report after the last.
. tests/lib.sh

# events FILE: what FILE shows, in order, one a line: "state T" (a compact
# state), "full T" (the full state), "prompt T", "help" (a command not
# understood), "statistics" (s), "report" (the report's first line).
events() {
    awk '
        function seen(l) {
            if (l ~ /^=== t=0, before/) print "state 0"
            else if (l ~ /^=== t=[0-9]+:/) { sub(/^=== t=/, "", l); sub(/:.*/, "", l); print "state " l }
            else if (l ~ /^=== state after timestep /) { sub(/^=== state after timestep /, "", l); sub(/:.*/, "", l); print "full " l }
            else if (l ~ /^commands: /) print "help"
            else if (l ~ /^processors: [0-9]+ \(/) print "statistics"
            else if (l ~ /^end: /) { print "report"; exit }
        }
        {
            line = $0
            while (match(line, /step t=[0-9]+> /)) {
                if (RSTART > 1) seen(substr(line, 1, RSTART - 1))
                print "prompt " substr(line, RSTART + 7, RLENGTH - 9)
                line = substr(line, RSTART + RLENGTH)
            }
            if (line != "") seen(line)
        }' "$1"
}

# Enter, a word and a number that are no commands, s, f, 2, and q.
printf '\nwhat\n0\ns\nf\n2\nq\n' |
    "$EMU" --routing dmodk --step tests/data/appendix_c.hex 2>&1 | cat >"$TMP/both"
events "$TMP/both" >"$TMP/got"
printf '%s\n' 'state 0' 'prompt 0' 'state 1' 'prompt 1' 'help' 'prompt 1' 'help' 'prompt 1' \
    'statistics' 'prompt 1' 'full 1' 'prompt 1' 'state 3' 'prompt 3' 'report' >"$TMP/want"
expect_same step_order_through_a_pipe "$TMP/want" "$TMP/got"

# The end of input ends the run as c does: the report comes after the
# last prompt; and under -q, the lines on stderr that say how the run
# ended come after the state and the report on stdout.
printf '\n' | "$EMU" --routing dmodk --step tests/data/appendix_c.hex 2>&1 | cat >"$TMP/both"
events "$TMP/both" >"$TMP/got"
printf '%s\n' 'state 0' 'prompt 0' 'state 1' 'prompt 1' 'report' >"$TMP/want"
expect_same step_order_end_of_input "$TMP/want" "$TMP/got"
printf '5\nq\n' | "$EMU" -q --routing dmodk --step tests/data/appendix_c.hex 2>&1 | cat >"$TMP/both"
events "$TMP/both" >"$TMP/got"
printf '%s\n' 'state 0' 'prompt 0' 'state 5' 'prompt 5' 'report' >"$TMP/want"
if cmp -s "$TMP/want" "$TMP/got" && [ "$(tail -n 1 "$TMP/both")" = "limit: ended by q in --step at timestep 5" ]
then pass step_order_quiet_end; else fail step_order_quiet_end "$(cat "$TMP/both")"; fi
