# How fast the page of a large run opens and plays in headless chromium
# (cli.md: usable for runs of up to 256 processors and 10,000 timesteps;
# the page is drawn for up to 4,096). tests/run.sh runs this alone, after
# every other group, so that the times measure the page and not the load of
# other tests; the pages are made before, beside the others.
. tests/lib.sh
. tests/browser.sh

# opens_and_plays NAME: the page NAME of time_pages' read its script draws
# its first timestep within 2 s of starting, and then a timestep in under
# 100 ms (10 timesteps a second).
opens_and_plays() {
    use_page "$1"
    no_errors "${1}_no_errors"
    load=$(dom_attr data-load-ms)
    step=$(dom_attr data-step-ms)
    if [ -n "$load" ] && [ "$load" -lt 2000 ]; then pass "${1}_opens_in_2s"
    else fail "${1}_opens_in_2s" "opened in '$load' ms"; fi
    if [ -n "$step" ] && awk -v s="$step" 'BEGIN { exit !(s < 100) }'; then pass "${1}_plays_10_a_second"
    else fail "${1}_plays_10_a_second" "a timestep took '$step' ms"; fi
}

# 256 processors, 10,000 timesteps, in the network view and in the summary
# (which a page of more than 64 processors opens in); 1,024 processors and
# 2,500 timesteps, as much as a page holds, in the summary. make test times
# the first, which comes nearest its limits, and make check (TEST_FULL=1)
# all three, as each takes seconds in which nothing else may run. They are
# opened in one chromium, one after the other (time_pages_start and
# time_pages_go), as chromium takes seconds to start. It starts once the
# other groups have ended: under make check they take longer than a
# chromium may wait before it counts as hung (browser.sh).
"$EMU" -q --duplex full --max-steps 10000 --html "$TMP/big.html" tests/data/html_shift.x >/dev/null 2>&1   # (at their limits)
echo "browser_large $TMP/big.html t=5000&view=network&bench=20" >"$TMP/list"
if [ "${TEST_FULL:-0}" != 0 ]; then
    sed 's/^val n = 256;/val n = 1024;/' tests/data/html_shift.x >"$TMP/shift1024.x"
    "$EMU" -q --duplex full --max-steps 2500 --html "$TMP/big1024.html" "$TMP/shift1024.x" >/dev/null 2>&1
    cat >>"$TMP/list" <<LIST
browser_large_summary $TMP/big.html t=5000&bench=20
browser_1024 $TMP/big1024.html t=1250&bench=20
LIST
fi
wait_alone
time_pages_start "$TMP/list"
time_pages_go
while read -r name _; do
    opens_and_plays "$name"
done <"$TMP/list"
