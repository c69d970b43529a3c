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

# browse_pages LIST: opens every page LIST names (a line "NAME PAGE
# FRAGMENT" each, NAME a word) in one chromium, since starting chromium
# takes seconds: each page in a frame of 1400x860 of one page of frames.
# A second (of chromium's virtual time) after they have all loaded, each
# page's DOM is copied into that page of frames and the lot dumped; then
# use_page NAME puts the page's DOM in $TMP/dom and the lines of chromium's
# log about its file (each page is opened as a file of its own,
# $TMP/pages/NAME.html) in $TMP/log, for the helpers below. $TMP/shot.png
# is a screenshot of the window, 1400x860: the first page. Checks
# browser_pages_opened: every page was read back.
browse_pages() {
    mkdir -p "$TMP/pages"
    {
        echo '<!DOCTYPE html><html><head><meta charset="utf-8"><style>'
        echo 'body { margin: 0 } iframe { display: block; border: 0; width: 1400px; height: 860px }'
        echo '</style></head><body>'
        while read -r name page frag; do
            cp "$page" "$TMP/pages/$name.html"
            echo "<iframe data-name=\"$name\" src=\"$name.html#$frag\"></iframe>"
        done <"$1"
        cat <<'HARNESS'
<div id="doms" hidden></div>
<script>
window.addEventListener("load", function () {
  setTimeout(function () {
    const doms = document.getElementById("doms");
    for (const f of document.querySelectorAll("iframe")) {
      doms.appendChild(document.createTextNode("\n@@ page " + f.dataset.name + "\n"));
      doms.appendChild(document.importNode(f.contentDocument.documentElement, true));
    }
    doms.appendChild(document.createTextNode("\n@@ end\n"));
  }, 1000);
});
</script></body></html>
HARNESS
    } >"$TMP/pages/all.html"
    # (from $TMP, so that nothing chromium writes lands in the repository)
    (cd "$TMP" && "$CHROMIUM" --headless --disable-gpu --no-sandbox --no-first-run \
        --user-data-dir="$TMP/profile" --enable-logging=stderr --v=0 \
        --allow-file-access-from-files --virtual-time-budget=5000 \
        --window-size=1400,860 --hide-scrollbars --screenshot="$TMP/shot.png" \
        --dump-dom "file://$TMP/pages/all.html" >"$TMP/pages/dom" 2>"$TMP/pages/log")
    awk -v dir="$TMP/pages" '
        /^@@ page [A-Za-z0-9_]*$/ { out = dir "/dom." $3; next }
        /^@@ end$/ { out = "" }
        out != "" { print > out }' "$TMP/pages/dom"
    # A message of the log starts with "[pid:tid:..." and may go on for lines.
    while read -r name page frag; do
        awk -v file="/pages/$name.html" '
            /^\[[0-9]+:[0-9]+:/ { flush(); msg = $0; next }
            { msg = msg "\n" $0 }
            function flush() { if (index(msg, file)) print msg; msg = "" }
            END { flush() }' "$TMP/pages/log" >"$TMP/pages/log.$name"
    done <"$1"
    missing=$(while read -r name page frag; do
                  [ -s "$TMP/pages/dom.$name" ] || printf ' %s' "$name"
              done <"$1")
    if grep -q '^@@ end$' "$TMP/pages/dom" && [ -z "$missing" ]; then
        pass browser_pages_opened
    else
        fail browser_pages_opened "pages not read back:$missing" "$(grep Uncaught "$TMP/pages/log" | head -n 5)"
    fi
}

# use_page NAME: the DOM and log of page NAME of the last browse_pages in
# $TMP/dom and $TMP/log.
use_page() {
    cp "$TMP/pages/dom.$1" "$TMP/dom" 2>/dev/null || : >"$TMP/dom"
    cp "$TMP/pages/log.$1" "$TMP/log" 2>/dev/null || : >"$TMP/log"
}

# dom_attr NAME: the values of attribute NAME, in document order, unescaped.
dom_attr() {
    grep -o " $1=\"[^\"]*\"" "$TMP/dom" | sed "s/^ $1=\"//; s/\"\$//; s/&gt;/>/g; s/&lt;/</g; s/&quot;/\"/g; s/&amp;/\\&/g"
}

# dom_text ID: the text of the element with that id.
dom_text() {
    sed -n "s/.*id=\"$1\">\\([^<]*\\)<.*/\\1/p" "$TMP/dom"
}

# no_errors NAME: the page was read, and neither it nor chromium's log saw a
# script error.
no_errors() {
    if [ ! -s "$TMP/dom" ]; then
        fail "$1" "the page's DOM was not read"
    elif grep -q 'data-errors=' "$TMP/dom" || grep -q 'Uncaught' "$TMP/log"; then
        fail "$1" "$(sed -n 's/.*id="errors"[^>]*>\([^<]*\).*/\1/p' "$TMP/dom")" "$(grep Uncaught "$TMP/log")"
    else
        pass "$1"
    fi
}
