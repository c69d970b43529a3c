# bin/emu --html in a real browser: Debian's chromium, headless, opens the
# page of Appendix C at timesteps the test chooses (by the URL's #t= and by
# pressing keys), and the packets it draws, the processors' status and the
# counts it shows are read back from its DOM and compared with --state T
# and the report. Any script error fails (the page writes errors into the
# DOM, and chromium's log is searched for "Uncaught"). The page of a
# 256-processor, 10,000-timestep run must open in under 2 s and draw a
# timestep in under 100 ms (10 a second). A screenshot of Appendix C at
# timestep 19 is written; HTML_SCREENSHOT=FILE keeps it (docs/emulator.md
# shows docs/html_appendix_c.png, made so).
#
# Without chromium this prints one line saying so, and nothing is counted.
. tests/lib.sh
CHROMIUM=${CHROMIUM:-chromium}
if ! command -v "$CHROMIUM" >/dev/null 2>&1; then
    echo "NOTE cli/html_browser: '$CHROMIUM' is not installed: the browser test did not run"
    exit 0
fi
HERE=$(pwd)

# browse PAGE FRAGMENT: the page's DOM once its script has run, in $TMP/dom,
# chromium's log in $TMP/log; extra arguments go to chromium.
browse() {
    page=$1; frag=$2; shift 2
    "$CHROMIUM" --headless --disable-gpu --no-sandbox --no-first-run \
        --user-data-dir="$TMP/profile" --enable-logging=stderr --v=0 \
        --virtual-time-budget=1000 "$@" --dump-dom "file://$page#$frag" >"$TMP/dom" 2>"$TMP/log"
}

# dom_attr NAME: the values of attribute NAME, in document order, unescaped.
dom_attr() {
    grep -o " $1=\"[^\"]*\"" "$TMP/dom" | sed "s/^ $1=\"//; s/\"\$//; s/&gt;/>/g; s/&lt;/</g; s/&quot;/\"/g; s/&amp;/\\&/g"
}

# dom_text ID: the text of the element with that id.
dom_text() {
    sed -n "s/.*id=\"$1\">\\([^<]*\\)<.*/\\1/p" "$TMP/dom"
}

# no_errors NAME: neither the page nor chromium's log saw a script error.
no_errors() {
    if grep -q 'data-errors=' "$TMP/dom" || grep -q 'Uncaught' "$TMP/log"; then
        fail "$1" "$(sed -n 's/.*id="errors"[^>]*>\([^<]*\).*/\1/p' "$TMP/dom")" "$(grep Uncaught "$TMP/log")"
    else
        pass "$1"
    fi
}

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
    sed -n 's/^=== state after timestep \([0-9]*\): \([0-9]*\) collisions in this timestep, \([0-9]*\) in all ===$/\1 \2 \3/p
            s/^packets in the network: //p' "$TMP/state" | tr '\n' ' ' >"$TMP/want"
    printf '%s %s %s %s ' "$(dom_text n-t)" "$(dom_text n-step)" "$(dom_text n-coll)" \
        "$(dom_text n-flight)" >"$TMP/got"
    expect_same "${name}_counts" "$TMP/want" "$TMP/got"
}

"$EMU" -q --routing dmodk --html "$TMP/c.html" programs/appendix_c.x >/dev/null

browse "$TMP/c.html" t=19
no_errors browser_appendix_c_no_errors
same_as_state browser_appendix_c_t19 19 --routing dmodk
browse "$TMP/c.html" "t=22&keys=right,right,left,right"
same_as_state browser_keys_step 24 --routing dmodk
browse "$TMP/c.html" "t=5&keys=space"
expect_grep browser_space_plays 'data-playing="yes"' "$TMP/dom"

# At the last timestep the counts are the report's.
browse "$TMP/c.html" t=36
"$EMU" --routing dmodk programs/appendix_c.x >"$TMP/report"
sed -n 's/^link collisions: //p; s/^buffer collisions: //p; s/^collisions: //p
        s/^packets: \([0-9]*\) sent, \([0-9]*\) delivered.*/\1 \2/p' "$TMP/report" | tr '\n' ' ' >"$TMP/want"
printf '%s %s %s %s %s ' "$(dom_text n-sent)" "$(dom_text n-delivered)" "$(dom_text n-link)" \
    "$(dom_text n-buffer)" "$(dom_text n-coll)" >"$TMP/got"
expect_same browser_last_counts_are_the_report "$TMP/want" "$TMP/got"

# A page whose script fails is caught.
sed 's/"moves":\[/"moves":0,"broken":[/' "$TMP/c.html" >"$TMP/broken.html"
browse "$TMP/broken.html" t=1
if grep -q 'data-errors=' "$TMP/dom" || grep -q Uncaught "$TMP/log"; then pass browser_errors_are_caught
else fail browser_errors_are_caught "a broken recording raised no error"; fi

# The screenshot of the docs.
cd "$TMP" && "$CHROMIUM" --headless --disable-gpu --no-sandbox --no-first-run \
    --user-data-dir="$TMP/profile" --hide-scrollbars --virtual-time-budget=1000 \
    --window-size=1400,860 --screenshot="$TMP/shot.png" "file://$TMP/c.html#t=19" >/dev/null 2>&1
cd "$HERE" || exit 1
if [ "$(od -An -c -N4 "$TMP/shot.png" 2>/dev/null | tr -d ' ')" = "211PNG" ]; then
    pass browser_screenshot
    [ -n "$HTML_SCREENSHOT" ] && cp "$TMP/shot.png" "$HTML_SCREENSHOT"
else
    fail browser_screenshot "no PNG written"
fi

# 256 processors, 10,000 timesteps: opens in under 2 s, 10 timesteps a second.
"$EMU" -q --duplex full --max-steps 10000 --html "$TMP/big.html" tests/data/html_shift.x >/dev/null
browse "$TMP/big.html" "t=5000&bench=20"
no_errors browser_large_no_errors
load=$(dom_attr data-load-ms)
step=$(dom_attr data-step-ms)
if [ -n "$load" ] && [ "$load" -lt 2000 ]; then pass browser_large_opens_in_2s
else fail browser_large_opens_in_2s "opened in '$load' ms"; fi
if [ -n "$step" ] && awk -v s="$step" 'BEGIN { exit !(s < 100) }'; then pass browser_large_plays_10_a_second
else fail browser_large_plays_10_a_second "a timestep took '$step' ms"; fi
