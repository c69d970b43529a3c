# The web page (--html) of a run with messages of several words, in
# headless chromium: at a timestep where a wormhole message is spread over
# several switches, the page draws every flit, named #id.i, where --state
# shows it, with no script error.
. tests/lib.sh
. tests/browser.sh

"$EMU" -q --html "$TMP/m.html" programs/contention.x >/dev/null
browse "$TMP/m.html" t=840
no_errors browser_messages_no_errors
"$EMU" --state 840 programs/contention.x >"$TMP/state" 2>/dev/null
sed -n 's/^  \(#.*\)/\1/p' "$TMP/state" | sort >"$TMP/want"
dom_attr data-line | grep -v ": input port " | sort >"$TMP/got"   # (state lists ports apart)
expect_same browser_messages_flits_where_state_says "$TMP/want" "$TMP/got"
if grep -q '^#0\.17 ' "$TMP/got" && [ "$(wc -l <"$TMP/got")" -gt 20 ]; then
    pass browser_messages_flits_named
else fail browser_messages_flits_named "$(head -n 5 "$TMP/got")"; fi
# Each message of several words with two flits or more drawn is one worm,
# a line through its flits; here both messages are spread out.
worms=$(grep -o 'class="worm"[^>]*data-message="[0-9]*"' "$TMP/dom" | sed 's/.*data-message=//' | sort -u | tr '\n' ' ')
if [ "$worms" = '"0" "1" ' ]; then pass browser_messages_drawn_as_worms
else fail browser_messages_drawn_as_worms "worms of messages: $worms"; fi
