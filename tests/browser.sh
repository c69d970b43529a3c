# Helpers for the tests that open pages in headless chromium (sourced after
# tests/lib.sh, not run). Without chromium the test prints one NOTE line
# saying so and stops, and nothing is counted.
CHROMIUM=${CHROMIUM:-chromium}
if ! command -v "$CHROMIUM" >/dev/null 2>&1; then
    echo "NOTE cli/$(basename "$0" .sh): '$CHROMIUM' is not installed: the browser test did not run"
    exit 0
fi
HERE=$(pwd)
# A chromium that has not finished in five minutes has hung (it has, once
# in many runs, on a loaded machine): it is stopped, and its pages fail.
STOP_HUNG=
command -v timeout >/dev/null 2>&1 && STOP_HUNG="timeout 300"

# time_pages_start LIST: starts one chromium, since starting chromium
# takes seconds, for every page LIST names (a line "NAME PAGE FRAGMENT"
# each, NAME a word), and returns; time_pages_go then opens the pages, one
# after the other, each alone, and reads them back. Chromium starts and
# waits, idle, on a script of its page that is a named pipe,
# $TMP/pages/go.js, until time_pages_go opens it (html_timing.sh starts it
# once the other groups have ended: a chromium waiting longer than
# STOP_HUNG allows is stopped, as hung). Then a page
# of frames makes a page's frame, the size of the window, only when the
# page before it has run its script (its load event), and removes that
# one, so that no two pages' times overlap. (A page after the first opens
# in a chromium that has opened one already: V8's cache of compiled
# scripts is off, so that it compiles the page's script again, but the
# times of the pages after the first are still lower than alone, by up to
# a third: the page that comes nearest its limits goes first.) Each page's
# <body>, its attributes (the times a page writes there, data-errors) and
# its #errors, is copied into that page of frames, and the lot dumped;
# then use_page NAME names them $DOM and the lines of chromium's log
# about its file (each page is opened as a file of its own,
# $TMP/pages/NAME.html) $LOG. time_pages_go checks
# browser_pages_timed: every page was read back.
time_pages_start() {
    mkdir -p "$TMP/pages"
    time_list=$1
    {
        echo '<!DOCTYPE html><html><head><meta charset="utf-8"><style>'
        echo 'body { margin: 0 } iframe { display: block; border: 0; width: 100vw; height: 100vh }'
        echo '</style></head><body><div id="doms" hidden></div>'
        echo '<script src="go.js"></script><script>'
        echo 'const pages = ['
        while read -r name page frag; do
            # (a link, not a copy: the pages of large runs are tens of MB)
            ln -f "$page" "$TMP/pages/$name.html" 2>/dev/null || cp "$page" "$TMP/pages/$name.html"
            echo "  [\"$name\", \"$name.html#$frag\"],"
        done <"$1"
        cat <<'HARNESS'
];
const doms = document.getElementById("doms");
// Each frame is made when the one before it has loaded: the page's load
// event waits for them all, and then chromium dumps its DOM.
function open(i) {
  const f = document.createElement("iframe");
  f.addEventListener("load", function () {
    const body = f.contentDocument.body, copy = document.createElement("div");
    for (const a of body.attributes) copy.setAttribute(a.name, a.value);
    const errors = f.contentDocument.getElementById("errors");
    if (errors) copy.appendChild(document.importNode(errors, true));
    doms.appendChild(document.createTextNode("\n@@ page " + pages[i][0] + "\n"));
    doms.appendChild(copy);
    // (the next frame first: a document with no frame left loading would
    // end its load, and be dumped, as this one is removed)
    if (i + 1 < pages.length) open(i + 1);
    else doms.appendChild(document.createTextNode("\n@@ end\n"));
    f.remove();
  });
  f.src = pages[i][1];
  document.body.appendChild(f);
}
open(0);
</script></body></html>
HARNESS
    } >"$TMP/pages/all.html"
    rm -f "$TMP/pages/go.js"
    mkfifo "$TMP/pages/go.js"
    # (from $TMP, so that nothing chromium writes lands in the repository)
    (cd "$TMP" && exec $STOP_HUNG "$CHROMIUM" --headless --disable-gpu --no-sandbox --no-first-run \
        --user-data-dir="$TMP/profile" --enable-logging=stderr --v=0 \
        --allow-file-access-from-files --js-flags=--no-compilation-cache \
        --dump-dom "file://$TMP/pages/all.html" >"$TMP/pages/dom" 2>"$TMP/pages/log") &
    time_chromium=$!
}

# time_pages_go: see time_pages_start. (Opening the pipe waits for
# chromium to open it: for a minute at most, should it have ended.)
time_pages_go() {
    if command -v timeout >/dev/null 2>&1; then
        timeout 60 sh -c ': >"$1"' sh "$TMP/pages/go.js"
    else
        : >"$TMP/pages/go.js"
    fi
    wait "$time_chromium"
    read_back browser_pages_timed "$time_list"
}

# browse_pages LIST: opens every page LIST names (a line "NAME PAGE
# FRAGMENT [WxH]" each, NAME a word) in one chromium, since starting chromium
# takes seconds: each page in a frame of 1400x860, or WxH, of one page of
# frames. A page given a size is measured as a window of that size: its
# <body> gets data-layout="ok" if the page fits it -- nothing scrolls or lies
# outside it, no panel is cut short or squeezed to nothing -- and else
# data-layout="overflow: " and what does not fit.
# A second (of chromium's virtual time) after they have all loaded, each
# page's DOM is copied into that page of frames and the lot dumped; then
# use_page NAME names the page's DOM $DOM and the lines of chromium's
# log about its file (each page is opened as a file of its own,
# $TMP/pages/NAME.html) $LOG, for the helpers below. $TMP/shot.png
# is a screenshot of the window, 1400x860: the first page. Checks
# browser_pages_opened: every page was read back.
browse_pages() {
    mkdir -p "$TMP/pages"
    {
        echo '<!DOCTYPE html><html><head><meta charset="utf-8"><style>'
        echo 'body { margin: 0 } iframe { display: block; border: 0; width: 1400px; height: 860px }'
        echo '</style></head><body>'
        while read -r name page frag size; do
            cp "$page" "$TMP/pages/$name.html"
            style=
            [ -n "$size" ] && style=" data-size=\"$size\" style=\"width: ${size%x*}px; height: ${size#*x}px\""
            echo "<iframe data-name=\"$name\"$style src=\"$name.html#$frag\"></iframe>"
        done <"$1"
        cat <<'HARNESS'
<div id="doms" hidden></div>
<script>
// What of a page does not fit its window: the parts a lecturer must see.
function layout(f) {
  const d = f.contentDocument, w = f.contentWindow.innerWidth, h = f.contentWindow.innerHeight;
  const bad = [];
  if (d.documentElement.scrollWidth > w || d.documentElement.scrollHeight > h)
    bad.push("the page scrolls (" + d.documentElement.scrollWidth + "x" + d.documentElement.scrollHeight + ")");
  for (const sel of ["header", "#controls", "#chart", "#drawing", "#legend", "aside", "#counts", "#info",
                     "#output", "#events", "#hist"]) {
    const e = d.querySelector(sel);
    if (!e) { bad.push(sel + " missing"); continue; }
    const r = e.getBoundingClientRect();
    if (r.right > w + 1 || r.bottom > h + 1 || r.left < -1 || r.top < -1)
      bad.push(sel + " at " + Math.round(r.left) + "," + Math.round(r.top) + " to " +
               Math.round(r.right) + "," + Math.round(r.bottom));
    else if (r.width < 20 || r.height < 20)
      bad.push(sel + " squeezed to " + Math.round(r.width) + "x" + Math.round(r.height));
    if (e.scrollWidth > e.clientWidth + 1 && sel !== "#output" && sel !== "#events")
      bad.push(sel + " cut short across");
    if (e.scrollHeight > e.clientHeight + 1 && sel !== "#output" && sel !== "#events")
      bad.push(sel + " cut short");
  }
  const drawing = d.querySelector("#drawing").getBoundingClientRect();
  if (drawing.height < h / 2) bad.push("the drawing is " + Math.round(drawing.height) + " high");
  return bad.length ? "overflow: " + bad.join("; ") : "ok";
}
window.addEventListener("load", function () {
  setTimeout(function () {
    const doms = document.getElementById("doms");
    // (all measured before any is copied: a page's styles, copied here,
    // would lay out the frames anew)
    for (const f of document.querySelectorAll("iframe[data-size]"))
      f.contentDocument.body.dataset.layout = layout(f);
    for (const f of document.querySelectorAll("iframe")) {
      doms.appendChild(document.createTextNode("\n@@ page " + f.dataset.name + "\n"));
      const copy = doms.appendChild(document.importNode(f.contentDocument.documentElement, true));
      for (const style of copy.querySelectorAll("style")) style.remove();   // (not this page's)
      // (nor its scripts, the recording among them: megabytes to copy and dump)
      for (const script of copy.querySelectorAll("script")) script.remove();
    }
    doms.appendChild(document.createTextNode("\n@@ end\n"));
  }, 1000);
});
</script></body></html>
HARNESS
    } >"$TMP/pages/all.html"
    # (from $TMP, so that nothing chromium writes lands in the repository)
    (cd "$TMP" && $STOP_HUNG "$CHROMIUM" --headless --disable-gpu --no-sandbox --no-first-run \
        --user-data-dir="$TMP/profile" --enable-logging=stderr --v=0 \
        --allow-file-access-from-files --virtual-time-budget=5000 \
        --window-size=1400,860 --hide-scrollbars --screenshot="$TMP/shot.png" \
        --dump-dom "file://$TMP/pages/all.html" >"$TMP/pages/dom" 2>"$TMP/pages/log")
    read_back browser_pages_opened "$1"
}

# read_back CHECK LIST: splits the dump of the pages of LIST (their lines
# "@@ page NAME" ... "@@ end") and chromium's log into $TMP/pages/dom.NAME
# and $TMP/pages/log.NAME, and checks CHECK: every page was read back.
read_back() {
    awk -v dir="$TMP/pages" '
        /^@@ page [A-Za-z0-9_]*$/ { out = dir "/dom." $3; next }
        /^@@ end$/ { out = "" }
        out != "" { print > out }' "$TMP/pages/dom"
    # A message of the log starts with "[pid:tid:..." and may go on for
    # lines; it goes to the log of each page whose file it names.
    awk -v dir="$TMP/pages" '
        FNR == NR { name[++n] = $1; printf "" > (dir "/log." $1); next }
        /^\[[0-9]+:[0-9]+:/ { flush(); msg = $0; next }
        { msg = msg "\n" $0 }
        function flush(    i) {
            for (i = 1; i <= n; i++) if (index(msg, "/pages/" name[i] ".html")) print msg > (dir "/log." name[i])
            msg = ""
        }
        END { flush() }' "$2" "$TMP/pages/log"
    missing=$(while read -r name page frag size; do
                  [ -s "$TMP/pages/dom.$name" ] || printf ' %s' "$name"
              done <"$2")
    if grep -q '^@@ end$' "$TMP/pages/dom" && [ -z "$missing" ]; then
        pass "$1"
    else
        fail "$1" "pages not read back:$missing" "$(grep Uncaught "$TMP/pages/log" | head -n 5)"
    fi
}

# use_page NAME: the DOM and log of page NAME of the last browse_pages or
# time_pages, named by $DOM and $LOG (an empty file for a page not read
# back), for the helpers below: named, not copied, as a copy a page was
# sixty processes a test.
use_page() {
    [ -e "$TMP/empty" ] || : >"$TMP/empty"
    DOM=$TMP/pages/dom.$1 LOG=$TMP/pages/log.$1
    [ -e "$DOM" ] || DOM=$TMP/empty
    [ -e "$LOG" ] || LOG=$TMP/empty
}

# dom_attr NAME: the values of attribute NAME, in document order, unescaped.
dom_attr() {
    grep -o " $1=\"[^\"]*\"" "$DOM" | sed "s/^ $1=\"//; s/\"\$//; s/&gt;/>/g; s/&lt;/</g; s/&quot;/\"/g; s/&amp;/\\&/g"
}

# dom_text ID: the text of the element with that id.
dom_text() {
    sed -n "s/.*id=\"$1\">\\([^<]*\\)<.*/\\1/p" "$DOM"
}

# no_errors NAME: the page was read, and neither it nor chromium's log saw a
# script error.
no_errors() {
    if [ ! -s "$DOM" ]; then
        fail "$1" "the page's DOM was not read"
    elif grep -q 'data-errors=' "$DOM" || grep -q 'Uncaught' "$LOG"; then
        fail "$1" "$(sed -n 's/.*id="errors"[^>]*>\([^<]*\).*/\1/p' "$DOM")" "$(grep Uncaught "$LOG")"
    else
        pass "$1"
    fi
}
