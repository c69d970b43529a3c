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
# may be using the same name.
. tests/lib.sh
B=${BUILD:-build}
TMP_PATTERN=$(printf '%s' "$TMP" | sed 's/[.]/\\./g')

check_block() {   # $1 = doc name, $2 = command, $3 = file of expected lines
    doc=$1; cmd=$2; want=$3
    status=0
    if grep -q '^\[exit [0-9]*\]$' "$want"; then
        status=$(sed -n 's/^\[exit \([0-9]*\)\]$/\1/p' "$want")
        grep -v '^\[exit [0-9]*\]$' "$want" >"$want.tmp"; mv "$want.tmp" "$want"
    fi
    prefix=0
    if [ "$(tail -n 1 "$want")" = "..." ]; then
        prefix=1
        sed '$d' "$want" >"$want.tmp"; mv "$want.tmp" "$want"
    fi
    cmd_run=$(printf '%s' "$cmd" | sed "s#^build/#$B/#; s# build/# $B/#g; s#^bin/#$BIN/#; s# bin/# $BIN/#g; s#/tmp/#$TMP/#g")
    sh -c "$cmd_run" >"$TMP/got.raw" 2>"$TMP/got_err" </dev/null
    got_status=$?
    sed "s#$TMP_PATTERN/#/tmp/#g" "$TMP/got.raw" >"$TMP/got"
    if [ $prefix -eq 1 ]; then
        head -n "$(wc -l <"$want")" "$TMP/got" >"$TMP/got.cut"; mv "$TMP/got.cut" "$TMP/got"
    fi
    name="doc_$(basename "$doc" .md)_$(printf '%s' "$cmd" | tr -c 'a-zA-Z0-9' '_' | cut -c1-50)"
    if [ "$got_status" -ne "$status" ]; then
        fail "$name" "\$ $cmd" "exit status $got_status, expected $status" "$(head -c 400 "$TMP/got_err")"
    elif ! cmp -s "$want" "$TMP/got"; then
        fail "$name" "\$ $cmd" "$(diff "$want" "$TMP/got" | head -n 15)"
    else
        pass "$name"
    fi
}

for doc in README.md docs/*.md; do
    [ -f "$doc" ] || continue
    cmd=""
    : >"$TMP/want"
    # Read the doc line by line, with a sentinel blank line at the end.
    { cat "$doc"; echo; } | while IFS= read -r line; do
        case "$line" in
        "    \$ "*)
            [ -n "$cmd" ] && check_block "$doc" "$cmd" "$TMP/want"
            cmd=${line#    \$ }
            : >"$TMP/want"
            ;;
        "    "*)
            [ -n "$cmd" ] && printf '%s\n' "${line#    }" >>"$TMP/want"
            ;;
        *)
            [ -n "$cmd" ] && check_block "$doc" "$cmd" "$TMP/want"
            cmd=""
            ;;
        esac
    done
done

# The files the examples make under /tmp/ were made in $TMP.
names=$(grep -h '^    \$ ' README.md docs/*.md | grep -o '/tmp/[A-Za-z0-9._-]*' | sort -u)
missing=""
for path in $names; do
    [ -e "$TMP/${path#/tmp/}" ] || missing="$missing $path"
done
if [ -n "$names" ] && [ -z "$missing" ]; then pass docs_tmp_files_are_the_tests_own
else fail docs_tmp_files_are_the_tests_own "not made in $TMP:${missing:- (no /tmp/ path in the examples)}"; fi
