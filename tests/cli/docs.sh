# Runs the examples in README.md and docs/*.md so that they stay true.
#
# An example is an indented block (4 spaces) whose first line starts with
# "$ ": each "$ command" is run from the repository root (bin/ is where the
# binaries under test are, build/ the build they come from) and the indented
# lines after it, up to the next "$ " or the end of the block, are its
# expected stdout. A last line "..." means the output may go on; a line
# "[exit N]" gives the expected status (0 otherwise). Blocks that do not
# start with "$ " are not run.
#
# A file a command names under /tmp/ is made in this test's own temporary
# directory instead, and the output names it as /tmp/ again: the docs show
# what a user types, and the tests leave nothing in /tmp, where another run
# may be using the same name. Each section (a heading of one or two #) has
# a directory of its own, so that a section copied on its own, after the
# README's `make`, works: none may use a file another section made.
. tests/lib.sh
B=${BUILD:-build}

# Every example is read first, by one awk: its expected lines, status and
# whether its output may go on; then the commands run, in order, each
# keeping its output; then one awk compares them all. (A process costs
# about 10 ms here: a dozen for each of seventy examples were most of this
# test's time.)
mkdir "$TMP/ex"
LC_ALL=C awk -v dir="$TMP/ex" -v B="$B" -v BIN="$BIN" -v T="$TMP" '
    # sub_all S FROM TO: S with every FROM (a plain string) replaced by TO.
    function sub_all(s, from, to,    out, i) {
        out = ""
        while ((i = index(s, from)) > 0) { out = out substr(s, 1, i - 1) to; s = substr(s, i + length(from)) }
        return out s
    }
    # The command as run: build/ and bin/ (at the start or after a space)
    # are the build under test, /tmp/ its section'"'"'s directory.
    function as_run(c) {
        if (substr(c, 1, 6) == "build/") c = B "/" substr(c, 7)
        c = sub_all(c, " build/", " " B "/")
        if (substr(c, 1, 4) == "bin/") c = BIN "/" substr(c, 5)
        c = sub_all(c, " bin/", " " BIN "/")
        return sub_all(c, "/tmp/", T "/" section "/")
    }
    function close_block(    name) {
        if (cmd == "") return
        if (nlines > 0 && line[nlines] == "...") { prefix = 1; nlines-- } else prefix = 0
        want = dir "/" n ".want"
        printf "" >want
        for (i = 1; i <= nlines; i++) print line[i] >want
        close(want)
        name = doc; sub(/^.*\//, "", name); sub(/\.md$/, "", name)
        c = cmd; gsub(/[^a-zA-Z0-9]/, "_", c)
        name = "doc_" name "_" substr(c, 1, 50)
        printf "%d\t%d\t%d\t%s\t%s\t%s\n", n, status, prefix, name, section, as_run(cmd) >(dir "/list")
        printf "%s\n", cmd >(dir "/" n ".cmd")
        close(dir "/" n ".cmd")
        # the files it names under /tmp/, which must be made in its section'"'"'s
        c = cmd
        while (match(c, /\/tmp\/[A-Za-z0-9._-]*/)) {
            print section "/" substr(c, RSTART + 5, RLENGTH - 5) >(dir "/tmp_files")
            c = substr(c, RSTART + RLENGTH)
        }
        cmd = ""
    }
    FNR == 1 { close_block(); doc = FILENAME; section++ }
    /^##? / { close_block(); section++ }
    /^    \$ / { close_block(); n++; cmd = substr($0, 7); nlines = 0; status = 0; next }
    /^    / {
        if (cmd == "") next
        l = substr($0, 5)
        if (l ~ /^\[exit [0-9]*\]$/) status = substr(l, 7, length(l) - 7)
        else line[++nlines] = l
        next
    }
    { close_block() }
    END { close_block() }' README.md docs/*.md

while IFS='	' read -r n status prefix name section cmd_run; do
    [ -d "$TMP/$section" ] || mkdir "$TMP/$section"
    sh -c "$cmd_run" >"$TMP/ex/$n.raw" 2>"$TMP/ex/$n.err" </dev/null
    echo $? >"$TMP/ex/$n.status"
done <"$TMP/ex/list"

# Each output with its section's directory named /tmp/ again, cut to the
# expected lines if the output may go on, against the expected lines.
LC_ALL=C awk -F '\t' -v dir="$TMP/ex" -v T="$TMP/" '
    # slurp F: the bytes of file F, to the last newline or not ("\001"
    # is in none of them).
    function slurp(f,    s, rs) {
        rs = RS; RS = "\001"; s = ""
        getline s <f
        close(f); RS = rs
        return s
    }
    {
        n = $1; want = slurp(dir "/" n ".want"); got = slurp(dir "/" n ".raw")
        got_status = slurp(dir "/" n ".status") + 0
        out = ""; t = T $5 "/"
        while ((i = index(got, t)) > 0) { out = out substr(got, 1, i - 1) "/tmp/"; got = substr(got, i + length(t)) }
        got = out got
        if ($3 == 1) {          # the first lines only, as many as expected
            wanted = gsub(/\n/, "\n", want); cut = 0
            for (k = 0; k < wanted && (i = index(substr(got, cut + 1), "\n")) > 0; k++) cut += i
            if (k == wanted) got = substr(got, 1, cut)
        }
        printf "%s", got >(dir "/" n ".got"); close(dir "/" n ".got")
        if (got_status != $2) print n, "status", got_status, $2, $4
        else if (got != want) print n, "output", got_status, $2, $4
        else print n, "pass", got_status, $2, $4
    }' "$TMP/ex/list" >"$TMP/ex/verdicts"
while read -r n verdict got_status status name; do
    case $verdict in
    pass) pass "$name" ;;
    status) fail "$name" "\$ $(cat "$TMP/ex/$n.cmd")" "exit status $got_status, expected $status" \
                 "$(head -c 400 "$TMP/ex/$n.err")" ;;
    *) fail "$name" "\$ $(cat "$TMP/ex/$n.cmd")" "$(diff "$TMP/ex/$n.want" "$TMP/ex/$n.got" | head -n 15)" ;;
    esac
done <"$TMP/ex/verdicts"

# The files the examples name under /tmp/ were made in their sections'
# directories.
missing=""
while IFS= read -r path; do
    [ -e "$TMP/$path" ] || missing="$missing $path"
done <"$TMP/ex/tmp_files"
if [ -s "$TMP/ex/tmp_files" ] && [ -z "$missing" ]; then pass docs_tmp_files_are_the_tests_own
else fail docs_tmp_files_are_the_tests_own "not made in $TMP:${missing:- (no /tmp/ path in the examples)}"; fi

# Every program of build/ that the docs tell a user to run is one that
# `make` builds (they say "after make"): the commands of a dry run of make,
# from an empty build, link each of them.
MAKEFLAGS= MAKELEVEL= make -n BUILD="$TMP/nb" BIN="$TMP/nbin" >"$TMP/make_n" 2>&1
grep -ohE '(^|[ `(])build/[A-Za-z0-9_.-]+/[A-Za-z0-9_/.-]*[A-Za-z0-9_]' README.md docs/*.md | sed 's/^[ `(]//' |
    sort -u >"$TMP/tools"
unbuilt=""
while IFS= read -r tool; do
    grep -qF -- "-o $TMP/nb/${tool#build/} " "$TMP/make_n" || unbuilt="$unbuilt $tool"
done <"$TMP/tools"
if [ -s "$TMP/tools" ] && [ -z "$unbuilt" ]; then pass docs_tools_built_by_make
else fail docs_tools_built_by_make "make does not build:$unbuilt"; fi
