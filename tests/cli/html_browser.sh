# bin/emu --html in a real browser: Debian's chromium, headless, opens the
# page of Appendix C at timesteps the test chooses (by the URL's #t= and by
# pressing keys), and the packets it draws, the processors' status and the
# counts it shows are read back from its DOM and compared with --state T
# and the report; so are the flits of a run with messages of several words
# (contention.x), each named #id.i, and the buffers and ports their
# messages own; so are the counts of multicasts, copies, messages and
# flits, the lines printed and why a run ended, and the summary of a
# 128-processor run (its switches' packets and the collisions). Pages are
# opened as windows of 1280x720 and 1920x1080, and must fit them. Any
# script error fails (the page writes errors into the DOM, and chromium's
# log is searched for "Uncaught"). (How fast a large page opens and plays
# is html_timing.sh's.) A screenshot of Appendix C at timestep 19 is
# written; HTML_SCREENSHOT=FILE keeps it (docs/emulator.md shows
# docs/html_appendix_c.png, made so).
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
# 40,000 timesteps, which it reaches in about 0.1 s here, and stops
# it after 0.3 s (it would run on for the rest of the second), make check
# (TEST_FULL=1) on 2.
if [ "$TEST_FULL" = 1 ]; then term_procs=2 term_after=1; else term_procs=64 term_after=0.3; fi
"$EMU" -q --procs $term_procs --html "$TMP/term.html" tests/data/hex/loop.hex >/dev/null 2>&1 &
term_pid=$!
sleep $term_after &
sleep_pid=$!

# same_as_state NAME T OPTIONS...: the page in $DOM shows timestep T as
# --state T does: its packets, the processors' status, the counts.
same_as_state() {
    name=$1; t=$2; shift 2
    "$EMU" --state "$t" "$@" programs/appendix_c.x >"$TMP/state" 2>/dev/null
    sed -n 's/^  \(#.*\)/\1/p' "$TMP/state" | tr -s ' ' | sort >"$TMP/want"   # (without its columns' blanks)
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
"$EMU" -q --buffer 1 --html "$TMP/m1.html" programs/contention.x >/dev/null
# broadcast.x: multicasts and their copies; ring.x: a deadlock; a run of
# 128 processors, drawn as a summary, and one of 4,096.
"$EMU" -q --html "$TMP/b.html" programs/broadcast.x >/dev/null
"$EMU" -q --html "$TMP/r.html" tests/data/deadlocks/ring.x >/dev/null 2>&1   # (it ends in a deadlock, as meant)
sed 's/^val n = 256;/val n = 128;/' tests/data/html_shift.x >"$TMP/shift128.x"
"$EMU" -q --duplex full --max-steps 300 --html "$TMP/s.html" "$TMP/shift128.x" >/dev/null 2>&1   # (at its limit)
sed 's/^val n = 256;/val n = 4096;/' tests/data/html_shift.x >"$TMP/shift4096.x"
"$EMU" -q --duplex full --max-steps 100 --html "$TMP/s4096.html" "$TMP/shift4096.x" >/dev/null 2>&1
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
owned $TMP/m1.html t=826
term $TMP/term.html t=3
clamp $TMP/c.html t=50
zoom $TMP/c.html t=19&keys=plus,plus
c720 $TMP/c.html t=19 1280x720
c1080 $TMP/c.html t=19 1920x1080
bcast $TMP/b.html t=38 1280x720
bcast_last $TMP/b.html t=600 1920x1080
msgs_last $TMP/m.html t=2949 1280x720
msgs_mid $TMP/m.html t=2000 1280x720
ring $TMP/r.html t=88 1920x1080
sum $TMP/s.html t=155&cells=1 1280x720
sum_zoom $TMP/s.html t=155&keys=plus,plus,plus 1920x1080
big $TMP/s4096.html t=90 1920x1080
big_network $TMP/s4096.html t=90&view=network 1280x720
LIST
browse_pages "$TMP/list"

use_page c19
no_errors browser_appendix_c_no_errors
same_as_state browser_appendix_c_t19 19 --routing dmodk
use_page keys
same_as_state browser_keys_step 24 --routing dmodk
use_page space
expect_grep browser_space_plays 'data-playing="yes"' "$DOM"

# At the last timestep the counts are the report's.
use_page last
"$EMU" --routing dmodk programs/appendix_c.x >"$TMP/report"
sed -n 's/^link collisions: //p; s/^buffer collisions: //p; s/^collisions: //p
        s/^packets: \([0-9]*\) sent, \([0-9]*\) delivered.*/\1 \2/p' "$TMP/report" | tr '\n' ' ' >"$TMP/want"
printf '%s %s %s %s %s ' "$(dom_text n-sent)" "$(dom_text n-delivered)" "$(dom_text n-link)" \
    "$(dom_text n-buffer)" "$(dom_text n-coll)" >"$TMP/got"
expect_same browser_last_counts_are_the_report "$TMP/want" "$TMP/got"

# marks_in_place NAME: in $DOM, every mark of an event has a place on
# the drawing (no coordinate is NaN), and each link collision's and each
# port wait's lies on a link (the one claimed, or the one waited on); there
# is at least one of those.
marks_in_place() {
    if grep -q '"NaN"' "$DOM"; then
        fail "${1}_no_nan" "$(grep -o '<[a-z]* class="ev [^>]*"NaN"[^>]*>' "$DOM" | head -3)"
    else
        pass "${1}_no_nan"
    fi
    grep -o '<line class="link"[^>]*>\|<circle class="ev \(link-collision\|port-wait\)"[^>]*>' "$DOM" |
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
# A full buffer's five dots fit its box side by side (radius 2 in a box 22
# wide), and its taken part is shaded all along.
full=$(grep -o ' r="[0-9.]*"[^>]*data-place="buffer [^"]* of 5"' "$DOM" | sed 's/ r="\([0-9.]*\)".*/\1/' | sort -u | tr '\n' ' ')
if [ "$full" = "2 " ] && grep -q 'class="fill"[^>]* width="22.0"[^>]* data-count="5"' "$DOM"
then pass browser_full_buffer_fits; else fail browser_full_buffer_fits "radii of dots in full buffers: $full"; fi
use_page h2
marks_in_place browser_event_marks_vcs2
expect_grep browser_port_wait_marked 'class="ev port-wait"' "$DOM"

# A page whose script fails is caught.
use_page broken
if grep -q 'data-errors=' "$DOM" || grep -q Uncaught "$LOG"; then pass browser_errors_are_caught
else fail browser_errors_are_caught "a broken recording raised no error"; fi

# At a timestep where a wormhole message is spread over several switches,
# the page draws every flit, named #id.i, where --state shows it.
use_page msgs
no_errors browser_messages_no_errors
"$EMU" --state 840 programs/contention.x >"$TMP/state" 2>/dev/null
sed -n 's/^  \(#.*\)/\1/p' "$TMP/state" | tr -s ' ' | sort >"$TMP/want"
dom_attr data-line | grep -v ": input port " | sort >"$TMP/got"   # (state lists ports apart)
expect_same browser_messages_flits_where_state_says "$TMP/want" "$TMP/got"
if grep -q '^#0\.17 ' "$TMP/got" && [ "$(wc -l <"$TMP/got")" -gt 20 ]; then
    pass browser_messages_flits_named
else fail browser_messages_flits_named "$(head -n 5 "$TMP/got")"; fi
# Each message with two flits or more drawn is one worm, a line through
# its flits; here both messages are spread out.
worms=$(grep -o 'class="worm"[^>]*data-message="[0-9]*"' "$DOM" | sed 's/.*data-message=//' | sort -u | tr '\n' ' ')
if [ "$worms" = '"0" "1" ' ]; then pass browser_messages_drawn_as_worms
else fail browser_messages_drawn_as_worms "worms of messages: $worms"; fi
# The timestep's events name as collisions exactly those it counts (a flit
# behind its own message is none), here a head refused by a buffer that
# the other message owns, which they name.
listed=$(grep -o '<li class="[a-z-]*">[^<]*collision:' "$DOM" | wc -l)
if [ "$listed" -eq "$(dom_text n-step)" ] &&
   grep -q '<li class="buffer-owned">buffer collision: #1.0 ([^)]*) refused by buffer p0.l1.s[0-9].[ud][01], owned by message #0<' "$DOM"
then pass browser_messages_collisions_listed_as_counted
else fail browser_messages_collisions_listed_as_counted "$listed listed, $(dom_text n-step) counted" \
        "$(grep -o '<li class="[a-z-]*">[^<]*' "$DOM" | head -n 5)"; fi

# owned_as_state NAME T OPTIONS...: every buffer and input port a message
# owns at timestep T is drawn as owned, by that message, as --state T says.
owned_as_state() {
    name=$1; t=$2; shift 2
    "$EMU" --state "$t" "$@" programs/contention.x >"$TMP/state" 2>/dev/null
    grep -o 'data-owned="[^"]*"' "$DOM" | sed 's/^data-owned="//; s/"$//' | sort >"$TMP/got"
    sed -n 's/^owned: //p' "$TMP/state" | sed 's/, /\n/g' | sort >"$TMP/want"
    if [ -s "$TMP/want" ]; then expect_same "$name" "$TMP/want" "$TMP/got"
    else fail "$name" "--state $t shows nothing owned"; fi
}
owned_as_state browser_messages_owned_as_state_says 840
# With --buffer 1 a message's flits move every other timestep: at 826 a
# buffer it owns is empty, and drawn as owned all the same.
use_page owned
owned_as_state browser_messages_owned_while_empty_as_state_says 826 --buffer 1
empty=$(sed -n 's/^buffer \([^ ]*\) by #.*/\1/p' "$TMP/want" | while read -r b; do
            grep -q ": *buffer $b place" "$TMP/state" || echo "$b"; done)
if [ -n "$empty" ]; then pass browser_messages_owned_while_empty
else fail browser_messages_owned_while_empty "no owned buffer is empty at timestep 826"; fi

use_page term
no_errors browser_page_of_a_stopped_run
expect_grep browser_page_of_a_stopped_run_drawn 'data-status=' "$DOM"

# A timestep beyond the run is not shown silently as the last.
use_page clamp
no_errors browser_clamp_no_errors
if [ "$(dom_text n-t)" = 36 ] && grep -q 'id="note-clamp">There is no timestep 50: the run has timesteps 0 to 36' "$DOM"
then pass browser_timestep_beyond_the_run_said
else fail browser_timestep_beyond_the_run_said "timestep $(dom_text n-t): $(dom_text note-clamp)"; fi

# The keys + and - zoom.
use_page zoom
if grep -q 'data-zoom="2.25"' "$DOM"; then pass browser_plus_zooms
else fail browser_plus_zooms "$(grep -o 'data-zoom="[^"]*"' "$DOM")"; fi

# Each plane is named; no packet has the red of a link collision's ring
# or the orange of a buffer collision's (hues from 60 to 320); the halted
# and idle swatches of the legend show on white.
use_page c19
if [ "$(grep -o '<text class="plane"[^>]*>plane [01]</text>' "$DOM" | wc -l)" -eq 2 ]; then pass browser_planes_named
else fail browser_planes_named "$(grep -o '<text class="plane"[^>]*>[^<]*' "$DOM")"; fi
cat "$TMP"/pages/dom.* | grep -o 'class="pk[^"]*"[^>]* fill="hsl([0-9.]*,' | sed 's/.*hsl(//; s/,$//' |
    awk '$1 < 60 || $1 >= 320 { print "hue " $1; bad = 1 } END { exit bad || NR == 0 }' >"$TMP/hues"
if [ $? -eq 0 ]; then pass browser_packets_never_collision_red
else fail browser_packets_never_collision_red "$(sort -u "$TMP/hues" | head -5)"; fi
# The switches are numbered beyond each plane's last layer, and the first
# switch of each layer names its ports, as the events and --state name them.
names=$(grep -o '<text class="label switch-name"[^>]*>s[0-9]*</text>' "$DOM" | sed 's/.*>\(s[0-9]*\)<.*/\1/' | tr '\n' ' ')
ports=$(grep -o '<text class="port-name"[^>]*>[ud][01]</text>' "$DOM" | wc -l)
if [ "$names" = "s0 s1 s2 s3 s0 s1 s2 s3 " ] && [ "$ports" -eq 20 ]; then pass browser_switches_and_ports_named
else fail browser_switches_and_ports_named "switches: $names" "$ports port names"; fi
# The 8 sources of Appendix C are told apart: any two of their colours
# differ by 30 degrees of hue, or by 10 points of lightness and 15 of hue.
grep -o 'class="pk[^"]*"[^>]* fill="hsl([0-9.]*,[0-9]*%,[0-9]*%)' "$DOM" |
    sed 's/.*hsl(//; s/%)$//; s/,[0-9]*%,/ /' | sort -u >"$TMP/colours"
awk '{ h[NR] = $1; l[NR] = $2 }
     END { for (i = 1; i <= NR; i++) for (j = i + 1; j <= NR; j++) {
               dh = h[i] - h[j]; if (dh < 0) dh = -dh; dl = l[i] - l[j]; if (dl < 0) dl = -dl
               if (dh < 30 && !(dl >= 10 && dh >= 15)) { print h[i] "/" l[i] " and " h[j] "/" l[j]; bad = 1 } }
           exit bad || NR != 8 }' "$TMP/colours" >"$TMP/close"
if [ $? -eq 0 ]; then pass browser_sources_told_apart
else fail browser_sources_told_apart "$(wc -l <"$TMP/colours") colours" "$(head -n 3 "$TMP/close")"; fi
swatch() { grep -o "<i style=\"[^\"]*\"></i>$1<" "$DOM" | head -n 1; }
if swatch halted | grep -q 'background:rgb(\(1[0-9][0-9]\|[0-9][0-9]\), ' &&
   swatch idle | grep -q 'border-style:dashed'
then pass browser_halted_and_idle_swatches_show
else fail browser_halted_and_idle_swatches_show "$(swatch halted)" "$(swatch idle)"; fi

# The pages fit windows of 1280x720 and 1920x1080.
for page in c720 c1080 bcast bcast_last msgs_last msgs_mid ring sum sum_zoom big big_network; do
    use_page $page
    no_errors "browser_${page}_no_errors"
    layout=$(dom_attr data-layout)
    if [ "$layout" = ok ]; then pass "browser_${page}_fits"
    else fail "browser_${page}_fits" "$layout"; fi
done

# A broadcast's counts: the multicasts sent and the copies their splits
# made, and at the end the report's.
use_page bcast
if [ "$(dom_text n-sent) $(dom_text n-multicasts) $(dom_text n-copies) $(dom_text n-flight)" = "2 2 15 17" ] &&
   ! grep -q '<tr class="multicast" hidden' "$DOM"
then pass browser_broadcast_counts_copies
else fail browser_broadcast_counts_copies "sent $(dom_text n-sent), multicasts $(dom_text n-multicasts), copies $(dom_text n-copies), in flight $(dom_text n-flight)"; fi
use_page bcast_last
"$EMU" programs/broadcast.x >"$TMP/report"
sed -n 's/^packets: \([0-9]*\) sent, \([0-9]*\) delivered.*/\1 \2/p
        s/^multicasts: \([0-9]*\), making \([0-9]*\) copies/\1 \2/p' "$TMP/report" | tr '\n' ' ' >"$TMP/want"
printf '%s %s %s %s ' "$(dom_text n-sent)" "$(dom_text n-delivered)" "$(dom_text n-multicasts)" \
    "$(dom_text n-copies)" >"$TMP/got"
expect_same browser_broadcast_last_counts_are_the_report "$TMP/want" "$TMP/got"

# A run with messages counts messages and flits, and at the end shows the
# lines it printed and how it ended.
use_page msgs_last
"$EMU" programs/contention.x >"$TMP/report"
sed -n 's/^packets: \([0-9]*\) sent, \([0-9]*\) delivered.*/\1 \2/p
        s/^messages: [0-9]*, flits: sent \([0-9]*\), delivered \([0-9]*\)/\1 \2/p' "$TMP/report" | tr '\n' ' ' >"$TMP/want"
printf '%s %s %s %s ' "$(dom_text n-sent)" "$(dom_text n-delivered)" "$(dom_text n-flits-sent)" \
    "$(dom_text n-flits-delivered)" >"$TMP/got"
expect_same browser_messages_counts_are_the_report "$TMP/want" "$TMP/got"
if [ "$(dom_text l-sent)" = "messages sent" ] && [ "$(dom_text l-flight)" = "flits in flight" ]
then pass browser_messages_counted_as_messages
else fail browser_messages_counted_as_messages "$(dom_text l-sent), $(dom_text l-flight)"; fi
tr -d '\n' <"$DOM" | grep -o '<div id="output">.*</div></section>' >"$TMP/output"
if grep -q 't=1881 p7: 300.*t=2944 p7: 2700.*end: normal at timestep 2949' "$TMP/output"
then pass browser_printed_lines_shown
else fail browser_printed_lines_shown "$(head -c 600 "$TMP/output")"; fi

# Half way, the panel holds what --state says was printed by then: the
# lines before its state, and not those after.
use_page msgs_mid
"$EMU" --state 2000 programs/contention.x | sed '/^=== state after/,$d' >"$TMP/printed"
tr -d '\n' <"$DOM" | grep -o '<div id="output">.*</div></section>' |
    grep -o 'p[0-9]*: -*[0-9]*' >"$TMP/shown"
if [ -s "$TMP/printed" ] && cmp -s "$TMP/printed" "$TMP/shown"; then pass browser_printed_lines_by_then
else fail browser_printed_lines_by_then "--state: $(cat "$TMP/printed"), page: $(cat "$TMP/shown")"; fi

# A deadlock's reason is on the page at its last timestep.
use_page ring
"$EMU" tests/data/deadlocks/ring.x | sed -n 's/^\(deadlock: .*\)/\1/p' | head -c 60 >"$TMP/why"
tr -d '\n' <"$DOM" | grep -o '<div id="output">.*</div></section>' >"$TMP/output"
if grep -q 'end: deadlock at timestep 88' "$TMP/output" && [ -s "$TMP/why" ] && grep -qF "$(cat "$TMP/why")" "$TMP/output"
then pass browser_deadlock_reason_shown
else fail browser_deadlock_reason_shown "$(head -c 600 "$TMP/output")"; fi

# The summary of 128 processors: the packets in each switch's buffers, and
# the collisions of the timestep, are --state's.
use_page sum
if grep -q 'data-view="summary"' "$DOM"; then pass browser_summary_above_64
else fail browser_summary_above_64 "$(grep -o 'data-view="[^"]*"' "$DOM")"; fi
"$EMU" --duplex full --state 155 "$TMP/shift128.x" 2>/dev/null >"$TMP/state"
{ sed -n 's/^  #.*: *buffer \(p[01]\.l[0-9]*\)\.s\([0-9]*\)\..*/\1 \2/p' "$TMP/state" |
      awk '{ n[$1 " " $2]++ }
           END { for (p = 0; p < 2; p++) for (l = 1; l <= 7; l++) {
                     line = "p" p ".l" l
                     for (j = 0; j < 64; j++) line = line " " (n["p" p ".l" l " " j] + 0)
                     print line } }'
  sed -n 's/^=== state after timestep 155: \([0-9]*\) collisions in this timestep.*/collisions \1/p' "$TMP/state"
} >"$TMP/want"
dom_attr data-cells | tr ';' '\n' >"$TMP/got"
expect_same browser_summary_is_the_state "$TMP/want" "$TMP/got"
use_page sum_zoom
if grep -q 'data-zoom="3.38"' "$DOM"; then pass browser_summary_zooms
else fail browser_summary_zooms "$(grep -o 'data-zoom="[^"]*"' "$DOM")"; fi

# 4,096 processors: the summary, as the network view is not drawn for so
# many.
use_page big_network
if grep -q 'data-view="summary"' "$DOM"; then pass browser_4096_summary_only
else fail browser_4096_summary_only "$(grep -o 'data-view="[^"]*"' "$DOM")"; fi

# The screenshot of the docs: Appendix C at timestep 19.
if [ "$(od -An -c -N4 "$TMP/shot.png" 2>/dev/null | tr -d ' ')" = "211PNG" ]; then
    pass browser_screenshot
    if [ -n "$HTML_SCREENSHOT" ]; then cp "$TMP/shot.png" "$HTML_SCREENSHOT"; fi
else
    fail browser_screenshot "no PNG written"
fi
