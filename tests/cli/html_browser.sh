# bin/emu --html in a real browser: Debian's chromium, headless, opens the
# page of Appendix C at timesteps the test chooses (by the URL's #t= and by
# pressing keys), and the packets it draws, the processors' status and the
# counts it shows are read back from its DOM and compared with --state T
# and the report; so are the flits of a run with messages of several words
# (contention.x), each named #id.i. Any script error fails (the page writes errors into the
# DOM, and chromium's log is searched for "Uncaught"). (How fast a large
# page opens and plays is html_timing.sh's.) A screenshot of Appendix C at
# timestep 19 is written; HTML_SCREENSHOT=FILE keeps it (docs/emulator.md
# shows docs/html_appendix_c.png, made so).
#
# Every page is opened in one chromium (browse_pages), which takes seconds
# to start: the pages are made first, then opened together, then checked.
#
# Without chromium this prints one line saying so, and nothing is counted.
. tests/lib.sh
. tests/browser.sh

# A run stopped by SIGTERM (as timeout and batch schedulers stop one)
# leaves a whole page, which opens without an error. The run starts first,
# so that its second passes while the other pages are made. Its page holds
# what the run reached in that second, up to 2,560,000 processor-timesteps:
# on 2 processors a page of 1,280,000 timesteps, 33 MB, which chromium takes
# half a minute to open; make test runs it on 64 processors, a page of
# 40,000 timesteps, make check (TEST_FULL=1) on 2.
if [ "$TEST_FULL" = 1 ]; then term_procs=2; else term_procs=64; fi
"$EMU" -q --procs $term_procs --html "$TMP/term.html" tests/data/hex/loop.hex >/dev/null 2>&1 &
term_pid=$!
sleep 1 &
sleep_pid=$!

# same_as_state NAME T OPTIONS...: the page in $TMP/dom shows timestep T as
# --state T does: its packets, the processors' status, the counts.
same_as_state() {
    name=$1; t=$2; shift 2
    "$EMU" --state "$t" "$@" programs/appendix_c.x >"$TMP/state" 2>/dev/null
    sed -n 's/^  \(#.*\)/\1/p' "$TMP/state" | sort >"$TMP/want"
    dom_attr data-line | sort >"$TMP/got"
    expect_same "${name}_packets" "$TMP/want" "$TMP/got"
    sed -n '/^  p[0-9]/{ s/^  p[0-9]* *//; s/ *pc [0-9a-f]\{4\} .*//; s/  *slot .*//; p; }' "$TMP/state" >"$TMP/want"
    dom_attr data-status >"$TMP/got"
    expect_same "${name}_processors" "$TMP/want" "$TMP/got"
    sed -n 's/^=== state after timestep \([0-9]*\): \([0-9]*\) collisions\{0,1\} in this timestep, \([0-9]*\) in all ===$/\1 \2 \3/p
            s/^packets in the network: //p' "$TMP/state" | tr '\n' ' ' >"$TMP/want"
    printf '%s %s %s %s ' "$(dom_text n-t)" "$(dom_text n-step)" "$(dom_text n-coll)" \
        "$(dom_text n-flight)" >"$TMP/got"
    expect_same "${name}_counts" "$TMP/want" "$TMP/got"
}

# The pages: Appendix C under dmodk; head_of_line.x, whose p0's packets
# wait on p2's full input port, with one channel and with two; a page whose
# script fails; contention.x, whose messages are of several words; the page
# of the stopped run.
"$EMU" -q --routing dmodk --html "$TMP/c.html" programs/appendix_c.x >/dev/null
"$EMU" -q --html "$TMP/h1.html" programs/head_of_line.x >/dev/null
"$EMU" -q --vcs 2 --duplex full --html "$TMP/h2.html" programs/head_of_line.x >/dev/null
sed 's/"moves":\[/"moves":0,"broken":[/' "$TMP/c.html" >"$TMP/broken.html"
"$EMU" -q --html "$TMP/m.html" programs/contention.x >/dev/null
wait $sleep_pid
kill -TERM $term_pid
wait $term_pid

# The first page is the one of the screenshot.
cat >"$TMP/list" <<LIST
c19 $TMP/c.html t=19
keys $TMP/c.html t=22&keys=right,right,left,right
space $TMP/c.html t=5&keys=space
last $TMP/c.html t=36
h1 $TMP/h1.html t=400
h2 $TMP/h2.html t=400
broken $TMP/broken.html t=1
msgs $TMP/m.html t=840
term $TMP/term.html t=3
LIST
browse_pages "$TMP/list"

use_page c19
no_errors browser_appendix_c_no_errors
same_as_state browser_appendix_c_t19 19 --routing dmodk
use_page keys
same_as_state browser_keys_step 24 --routing dmodk
use_page space
expect_grep browser_space_plays 'data-playing="yes"' "$TMP/dom"

# At the last timestep the counts are the report's.
use_page last
"$EMU" --routing dmodk programs/appendix_c.x >"$TMP/report"
sed -n 's/^link collisions: //p; s/^buffer collisions: //p; s/^collisions: //p
        s/^packets: \([0-9]*\) sent, \([0-9]*\) delivered.*/\1 \2/p' "$TMP/report" | tr '\n' ' ' >"$TMP/want"
printf '%s %s %s %s %s ' "$(dom_text n-sent)" "$(dom_text n-delivered)" "$(dom_text n-link)" \
    "$(dom_text n-buffer)" "$(dom_text n-coll)" >"$TMP/got"
expect_same browser_last_counts_are_the_report "$TMP/want" "$TMP/got"

# marks_in_place NAME: in $TMP/dom, every mark of an event has a place on
# the drawing (no coordinate is NaN), and each link collision's and each
# port wait's lies on a link (the one claimed, or the one waited on); there
# is at least one of those.
marks_in_place() {
    if grep -q '"NaN"' "$TMP/dom"; then
        fail "${1}_no_nan" "$(grep -o '<[a-z]* class="ev [^>]*"NaN"[^>]*>' "$TMP/dom" | head -3)"
    else
        pass "${1}_no_nan"
    fi
    grep -o '<line class="link"[^>]*>\|<circle class="ev \(link-collision\|port-wait\)"[^>]*>' "$TMP/dom" |
        sed 's/ [a-z0-9]*="\([^"]*\)"/ \1/g; s/[<>]//g' | awk '
        $1 == "line" { n++; x1[n] = $3; y1[n] = $4; x2[n] = $5; y2[n] = $6; next }
        {   marks++; cx = $4; cy = $5; on = 0
            for (i = 1; i <= n; i++) {
                cross = (x2[i] - x1[i]) * (cy - y1[i]) - (y2[i] - y1[i]) * (cx - x1[i])
                len = sqrt((x2[i] - x1[i]) ^ 2 + (y2[i] - y1[i]) ^ 2)
                dot = (cx - x1[i]) * (x2[i] - x1[i]) + (cy - y1[i]) * (y2[i] - y1[i])
                if (len > 0 && cross / len < 0.5 && cross / len > -0.5 && dot > 0 && dot < len * len)
                    on = 1
            }
            if (!on) { print $3 " marked off every link at " cx "," cy; bad = 1 } }
        END { if (marks == 0) print "no link collision or port wait is marked"; exit bad || marks == 0 }' >"$TMP/marks"
    if [ $? -eq 0 ]; then pass "${1}_on_links"; else fail "${1}_on_links" "$(cat "$TMP/marks")"; fi
}

# A timestep with link collisions and port waits, with one channel and with
# two.
use_page h1
marks_in_place browser_event_marks
use_page h2
marks_in_place browser_event_marks_vcs2
expect_grep browser_port_wait_marked 'class="ev port-wait"' "$TMP/dom"

# A page whose script fails is caught.
use_page broken
if grep -q 'data-errors=' "$TMP/dom" || grep -q Uncaught "$TMP/log"; then pass browser_errors_are_caught
else fail browser_errors_are_caught "a broken recording raised no error"; fi

# At a timestep where a wormhole message is spread over several switches,
# the page draws every flit, named #id.i, where --state shows it.
use_page msgs
no_errors browser_messages_no_errors
"$EMU" --state 840 programs/contention.x >"$TMP/state" 2>/dev/null
sed -n 's/^  \(#.*\)/\1/p' "$TMP/state" | sort >"$TMP/want"
dom_attr data-line | grep -v ": input port " | sort >"$TMP/got"   # (state lists ports apart)
expect_same browser_messages_flits_where_state_says "$TMP/want" "$TMP/got"
if grep -q '^#0\.17 ' "$TMP/got" && [ "$(wc -l <"$TMP/got")" -gt 20 ]; then
    pass browser_messages_flits_named
else fail browser_messages_flits_named "$(head -n 5 "$TMP/got")"; fi
# Each message with two flits or more drawn is one worm, a line through
# its flits; here both messages are spread out.
worms=$(grep -o 'class="worm"[^>]*data-message="[0-9]*"' "$TMP/dom" | sed 's/.*data-message=//' | sort -u | tr '\n' ' ')
if [ "$worms" = '"0" "1" ' ]; then pass browser_messages_drawn_as_worms
else fail browser_messages_drawn_as_worms "worms of messages: $worms"; fi

use_page term
no_errors browser_page_of_a_stopped_run
expect_grep browser_page_of_a_stopped_run_drawn 'data-status=' "$TMP/dom"

# The screenshot of the docs: Appendix C at timestep 19.
if [ "$(od -An -c -N4 "$TMP/shot.png" 2>/dev/null | tr -d ' ')" = "211PNG" ]; then
    pass browser_screenshot
    if [ -n "$HTML_SCREENSHOT" ]; then cp "$TMP/shot.png" "$HTML_SCREENSHOT"; fi
else
    fail browser_screenshot "no PNG written"
fi
