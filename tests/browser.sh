# Helpers for the tests that open pages in headless chromium (sourced after
# tests/lib.sh, not run). Without chromium the test prints one NOTE line
# saying so and stops, and nothing is counted.
CHROMIUM=${CHROMIUM:-chromium}
if ! command -v "$CHROMIUM" >/dev/null 2>&1; then
    echo "NOTE cli/$(basename "$0" .sh): '$CHROMIUM' is not installed: the browser test did not run"
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
