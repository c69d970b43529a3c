# Helpers for the shell tests in tests/cli/ (sourced, not run): each check prints one
# "PASS name" or "FAIL name" line (tests/run.sh counts them).
# BIN names the directory of the binaries under test (bin/ by default).
BIN=${BIN:-bin}
EMU="$BIN/emu"
XC="$BIN/xc"
TMP=$(mktemp -d)
trap 'rm -rf "$TMP"' EXIT

# wait_alone: in a group that tests/run.sh runs alone (its TIMED), waits
# until the other groups have ended; what comes before runs beside them.
wait_alone() { [ -z "$TEST_ALONE" ] || read -r _ <"$TEST_ALONE"; }

# wait_until CMD...: runs CMD every 0.1 s until it succeeds, for 10 s at
# most; fails if it never did.
wait_until() {
    tries=0
    until "$@"; do
        tries=$((tries + 1))
        [ $tries -lt 100 ] || return 1
        sleep 0.1
    done
}

pass() { echo "PASS $1"; }
fail() { echo "FAIL $1"; shift; for line in "$@"; do echo "  $line"; done; }

# run NAME CMD...: runs a command, keeping stdout, stderr and status in
# $TMP/out, $TMP/err and $STATUS.
run() {
    "$@" >"$TMP/out" 2>"$TMP/err"
    STATUS=$?
}

# expect_status NAME WANT: the last run's exit status.
expect_status() {
    if [ "$STATUS" -eq "$2" ]; then pass "$1"
    else fail "$1" "exit status $STATUS, expected $2" "stderr: $(head -c 600 "$TMP/err")"; fi
}

# expect_same NAME GOLDEN ACTUAL: two files must be identical.
expect_same() {
    if cmp -s "$2" "$3"; then pass "$1"
    else fail "$1" "$3 differs from $2:" "$(diff "$2" "$3" | head -n 20)"; fi
}

# expect_grep NAME PATTERN FILE: a fixed string must appear in a file.
expect_grep() {
    if contains "$2" "$3"; then pass "$1"
    else fail "$1" "'$2' not found in $(basename "$3"):" "$(head -c 600 "$3")"; fi
}

# contains TEXT FILE: whether a line of FILE holds TEXT, as grep -qF: read
# by the shell for the first 200 lines, so that most checks start no
# process (a few milliseconds each here), by grep beyond them or for a TEXT
# of several lines.
contains() {
    case $1 in *"
"*) grep -qF -- "$1" "$2"; return ;; esac
    contains_n=0
    while IFS= read -r contains_line || [ -n "$contains_line" ]; do
        case $contains_line in *"$1"*) return 0 ;; esac
        contains_n=$((contains_n + 1))
        [ $contains_n -lt 200 ] || { grep -qF -- "$1" "$2"; return; }
    done <"$2"
    return 1
}

# expect_match NAME REGEX FILE: the same for an extended regular expression
expect_match() {
    if grep -qE -- "$2" "$3"; then pass "$1"
    else fail "$1" "/$2/ not found in $(basename "$3"):" "$(head -c 600 "$3")"; fi
}

# expect_empty NAME FILE
expect_empty() {
    if [ ! -s "$2" ]; then pass "$1"
    else fail "$1" "$(basename "$2") is not empty:" "$(head -c 600 "$2")"; fi
}

# expect_file_text NAME FILE TEXT: a file must hold exactly one line, TEXT.
expect_file_text() {
    if [ -f "$2" ] && [ "$(cat "$2")" = "$3" ]; then pass "$1"
    else fail "$1" "$2 does not hold '$3':" "$(head -c 600 "$2" 2>&1)"; fi
}
