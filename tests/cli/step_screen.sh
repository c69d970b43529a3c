# --step on a terminal of 80 columns and 24 lines (a tmux pane) with 16
# processors: no line of the compact state is wider than the terminal, and
# f shows the full state in the terminal's width, a screen at a time, with
# --More-- between screens. Needs tmux; without it, says that it did not
# run.
. tests/lib.sh
if ! command -v tmux >/dev/null 2>&1; then
    echo "NOTE cli/step_screen: tmux is not installed: the terminal test of --step did not run"
    exit 0
fi
SOCK=$TMP/tmux
trap 'tmux -S "$SOCK" kill-server 2>/dev/null; rm -rf "$TMP"' EXIT
T() { tmux -S "$SOCK" "$@"; }
screen() { T capture-pane -p -t emu; }
# wait_for REGEX: until a line of the screen matches (10 s at most).
screen_has() { screen | grep -qE -- "$1"; }
wait_for() { wait_until screen_has "$1"; }
# The cursor's row counted from the first line the pane ever showed, and
# the line it is on.
row() { set -- $(T display -p -t emu '#{history_size} #{cursor_y}'); echo $(($1 + $2)); }
cursor_line() { y=$(T display -p -t emu '#{cursor_y}'); T capture-pane -p -t emu -S "$y" -E "$y"; }
# answer KEY...: types the keys at a prompt (--More-- or --step's) and waits
# (10 s at most) for the next prompt, on a row below the line the keys
# ended; says which it is in $PROMPT.
answer() {
    from=$(row)
    T send-keys -t emu "$@"
    tries=0
    PROMPT=
    while [ $tries -lt 100 ]; do
        line=$(cursor_line)
        if [ "$(row)" -gt $((from + 1)) ]; then
            case $line in --More--*) PROMPT=more; return ;; "step t="*) PROMPT=step; return ;; esac
        fi
        sleep 0.1
        tries=$((tries + 1))
    done
}

T -f /dev/null start-server \; set-option -g history-limit 50000 \; \
    new -d -s emu -x 80 -y 24 -c "$PWD" \
    "\"$EMU\" --port-depth 3 --step tests/data/gather16.x; echo \"exit status \$?\"; sleep 120"
if ! wait_for '^step t=0> *$'; then fail step_screen_started "$(screen)"; exit 0; fi
i=0
while [ $i -lt 30 ]; do T send-keys -t emu Enter; i=$((i + 1)); done
wait_for '^step t=30> *$' || fail step_screen_thirty_steps "$(screen)"

# f: a screen at a time, until the prompt comes back.
answer f Enter
if [ "$PROMPT" = more ]; then pass step_screen_f_pages; else fail step_screen_f_pages "$(screen)"; fi
pages=1
while [ "$PROMPT" = more ] && [ $pages -lt 20 ]; do answer Enter; pages=$((pages + 1)); done
if [ "$PROMPT" = step ] && [ "$(cursor_line)" = "step t=30>" ]; then pass step_screen_f_ends
else fail step_screen_f_ends "$(screen)"; fi
T send-keys -t emu q Enter
wait_for '^exit status' || fail step_screen_quit "$(screen)"
if screen | grep -q '^exit status 4$'; then pass step_screen_quit_status
else fail step_screen_quit_status "$(screen)"; fi

# Everything it wrote, each line joined again if the terminal wrapped it,
# up to the report.
T capture-pane -p -J -S - -E - -t emu >"$TMP/all"
awk '/^end:/ { exit } length($0) > 80 { wide++; if (!first) first = $0 } /^=== t=/ { states++ }
     END { printf "%d compact states, %d lines over 80 columns %s\n", states, wide, first }' \
    "$TMP/all" >"$TMP/got"
echo "31 compact states, 0 lines over 80 columns " >"$TMP/want"
expect_same step_screen_fits_80_columns "$TMP/want" "$TMP/got"
expect_grep step_screen_f_whole "           p8 . p9 .    p10 . p11 .  p12 . p13 .  p14 . p15 ." "$TMP/all"
expect_grep step_screen_f_last_line "limit: ended by q in --step at timestep 30" "$TMP/all"
if grep -q -- '--More--' "$TMP/all"; then fail step_screen_more_erased "$(grep -n -- '--More--' "$TMP/all")"
else pass step_screen_more_erased; fi

# On a terminal of 60 columns the compact state takes its width: no line
# wraps, the processors' long lines go on indented below them.
T new -d -s narrow -x 60 -y 24 -c "$PWD" \
    "\"$EMU\" --routing dmodk --step tests/data/appendix_c.hex; echo \"exit status \$?\"; sleep 120"
tries=0
until T capture-pane -p -t narrow | grep -q '^step t=0> *$' || [ $tries -ge 100 ]; do sleep 0.1; tries=$((tries + 1)); done
T send-keys -t narrow 19 Enter
tries=0
until T capture-pane -p -t narrow | grep -q '^step t=19> *$' || [ $tries -ge 100 ]; do sleep 0.1; tries=$((tries + 1)); done
T capture-pane -p -J -S - -E - -t narrow >"$TMP/narrow"
awk '/^=== t=19/ { on = 1 } on && /^step t=19>/ { exit } on { n++; if (length($0) > 60) wide++ }
     END { printf "%d lines, %d over 60 columns\n", n, wide }' "$TMP/narrow" >"$TMP/got"
if grep -q '^=== t=19: 2 collisions (2 in all),' "$TMP/narrow" && grep -q ' 0 over 60 columns$' "$TMP/got"
then pass step_screen_narrow_fits; else fail step_screen_narrow_fits "$(cat "$TMP/got")" "$(cat "$TMP/narrow")"; fi
T send-keys -t narrow q Enter

# Ctrl-D at the prompt runs to the end, as c, and the report starts on a
# line of its own, not after the prompt.
T new -d -s eof -x 80 -y 24 -c "$PWD" \
    "\"$EMU\" --routing dmodk --step tests/data/appendix_c.hex; echo \"exit status \$?\"; sleep 120"
tries=0
until T capture-pane -p -t eof | grep -q '^step t=0> *$' || [ $tries -ge 100 ]; do sleep 0.1; tries=$((tries + 1)); done
T send-keys -t eof C-d
tries=0
until T capture-pane -p -t eof | grep -q '^exit status' || [ $tries -ge 100 ]; do sleep 0.1; tries=$((tries + 1)); done
T capture-pane -p -J -S - -E - -t eof >"$TMP/eof"
if grep -q '^end: normal$' "$TMP/eof" && grep -q '^exit status 0$' "$TMP/eof"; then pass step_screen_eof_report_on_its_line
else fail step_screen_eof_report_on_its_line "$(cat "$TMP/eof")"; fi
