# How fast the page of a large run opens and plays in headless chromium
# (cli.md: usable for runs of up to 256 processors and 10,000 timesteps).
# tests/run.sh runs this alone, after every other group, so that the times
# measure the page and not the load of other tests; the page is made before,
# beside the others.
. tests/lib.sh
. tests/browser.sh

# 256 processors, 10,000 timesteps: opens in under 2 s, 10 timesteps a second.
"$EMU" -q --duplex full --max-steps 10000 --html "$TMP/big.html" tests/data/html_shift.x >/dev/null
wait_alone
browse "$TMP/big.html" "t=5000&bench=20"
no_errors browser_large_no_errors
load=$(dom_attr data-load-ms)
step=$(dom_attr data-step-ms)
if [ -n "$load" ] && [ "$load" -lt 2000 ]; then pass browser_large_opens_in_2s
else fail browser_large_opens_in_2s "opened in '$load' ms"; fi
if [ -n "$step" ] && awk -v s="$step" 'BEGIN { exit !(s < 100) }'; then pass browser_large_plays_10_a_second
else fail browser_large_plays_10_a_second "a timestep took '$step' ms"; fi
