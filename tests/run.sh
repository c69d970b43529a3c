#!/bin/sh
# Runs every test and prints the closing line "N passed, N failed".
#
# Each test program (build/tests/*), each fuzzer (build/fuzz/*, a fixed number
# of iterations from fixed seeds) and each shell test (tests/cli/*.sh) is a
# group; each prints one "PASS name" or "FAIL name" line per test (and a
# "NOTE ..." line, shown as it is, for a test that could not run here); a
# group that crashes or exits non-zero without printing a FAIL line counts
# as one failure itself. For each group one summary line is printed, with
# its time, and the output of a failing one.
#
# The groups run side by side, as many at once as make's -j gives (`make
# -j4 test`), or else as the host has cores; their summaries come in the
# same order whatever finishes first, each as soon as it can. The groups
# that hold a time limit (TIMED below) run their timed part after the
# others, alone, so that their limits measure the emulator rather than the
# load of the others: they start with the others, beside them, and wait
# (wait_alone in tests/lib.sh) until the others have ended; their time is
# counted from then.
#
# Environment: BUILD and BIN name the build to test (set by the Makefile, so
# `make check` runs the same tests on the sanitizer build); TEST_FULL=1
# (make check) runs the long property runs at their full size, where make
# test runs a sample of each (tests/README.md); TEST_JOBS sets the groups
# run at once.
BUILD=${BUILD:-build}
BIN=${BIN:-bin}
FUZZ_ITERATIONS=${FUZZ_ITERATIONS:-2000}
TEST_FULL=${TEST_FULL:-0}
export BUILD BIN FUZZ_ITERATIONS TEST_FULL
case $0 in tests/run.sh) ;; *) cd "$(dirname "$0")/.." || exit 1 ;; esac

# now: $now, the seconds since the system started, read from /proc/uptime
# (date +%s where there is none): each group starts no process for it.
now() {
    if read -r now _ 2>/dev/null </proc/uptime; then now=${now%.*}; else now=$(date +%s); fi
}

# --one NAME CMD...: runs one group, keeping its output, status and time in
# $RESULTS/NAME.* (a group's name has no space and at most one '/', which
# becomes '_'), then says so in $RESULTS/wake.
if [ "$1" = --one ]; then
    case $2 in */*) file=$RESULTS/${2%%/*}_${2#*/} ;; *) file=$RESULTS/$2 ;; esac
    name=$2
    shift 2
    now; start=$now
    "$@" >"$file.log" 2>&1
    rc=$?
    if [ -n "$TEST_ALONE" ] && [ -e "$RESULTS/alone.start" ]; then
        read -r alone <"$RESULTS/alone.start"
        [ "$alone" -gt "$start" ] && start=$alone
    fi
    now
    echo "$rc $((now - start))" >"$file.part" && mv "$file.part" "$file.rc"  # (says done)
    echo "$name" >"$RESULTS/wake"
    exit 0
fi

# The groups that take longest start first, so that the others fill in
# around them; TIMED run their timed part last, alone.
FIRST="cli/html_browser cli/sweep test_reference cli/docs cli/channels test_ref_messages cli/html test_benes_network cli/emu test_route_conflicts test_conformance cli/outputs cli/messages_results cli/programs test_messages cli/switching test_net test_multicast cli/series cli/paths cli/quiet cli/messages cli/xc_errors cli/stopped cli/xc_programs test_machine fuzz/fuzz_codegen"
TIMED="cli/html_timing"

jobs=$TEST_JOBS
if [ -z "$jobs" ]; then
    # make passes its -j on as "-jN" in MAKEFLAGS (GNU make 4.2 and later)
    for flag in $MAKEFLAGS; do
        case $flag in -j[0-9]*) jobs=${flag#-j} ;; esac
    done
fi
[ -n "$jobs" ] || jobs=$(getconf _NPROCESSORS_ONLN 2>/dev/null || echo 1)

RESULTS=$(mktemp -d)
export RESULTS
trap 'rm -rf "$RESULTS"' EXIT

# The list of groups: "name command...", one a line.
{
    for t in "$BUILD"/tests/*; do
        [ -x "$t" ] && [ -f "$t" ] && echo "${t##*/} $t"
    done
    for f in "$BUILD"/fuzz/*; do
        [ -x "$f" ] && [ -f "$f" ] && echo "fuzz/${f##*/} $f --iterations $FUZZ_ITERATIONS"
    done
    for s in tests/cli/*.sh; do
        s=${s##*/}
        [ -f "tests/cli/$s" ] && echo "cli/${s%.sh} sh tests/cli/$s"
    done
} >"$RESULTS/all"
awk -v first="$FIRST" -v timed="$TIMED" '
    BEGIN { n = split(first, f, " "); split(timed, t, " ")
            for (i in f) rank[f[i]] = i; for (i in t) alone[t[i]] = 1 }
    { line[NR] = $0; name[NR] = $1 }
    END {
        for (i = 1; i <= n; i++) for (r = 1; r <= NR; r++) if (name[r] == f[i]) print line[r] > "/dev/stdout"
        for (r = 1; r <= NR; r++) if (!(name[r] in rank) && !(name[r] in alone)) print line[r] > "/dev/stdout"
        for (r = 1; r <= NR; r++) if (name[r] in alone) print line[r] > "/dev/stderr"
    }' "$RESULTS/all" >"$RESULTS/parallel" 2>"$RESULTS/alone"

# Each group that ends writes a line into this pipe, which wakes the loop
# below (opened for reading and writing, so that neither end waits for the
# other).
mkfifo "$RESULTS/wake"
exec 3<>"$RESULTS/wake"
# The timed groups, one after the other, beside the others from the start;
# each reads a line of TEST_ALONE before its timed part, and gets one when
# the others have all ended.
mkfifo "$RESULTS/alone.go"
exec 4<>"$RESULTS/alone.go"
{
    TEST_ALONE=$RESULTS/alone.go xargs -L 1 sh tests/run.sh --one <"$RESULTS/alone" &
    timed=$!
    xargs -P "$jobs" -L 1 sh tests/run.sh --one <"$RESULTS/parallel"
    now; echo "$now" >"$RESULTS/alone.start"
    while read -r _; do echo go >&4; done <"$RESULTS/alone"
    wait $timed
    touch "$RESULTS/finished"
    echo finished >"$RESULTS/wake"
} &

# Each group's summary as soon as it and those before it in the list are
# done: its passes, or its failures and what it printed but passes (60
# lines at most), then its NOTE lines; a group that exited non-zero
# without a FAIL line counts as one failure. (One awk a group.)
passed=0
failed=0
while read -r name cmd; do
    case $name in */*) file=$RESULTS/${name%%/*}_${name#*/} ;; *) file=$RESULTS/$name ;; esac
    while [ ! -e "$file.rc" ] && [ ! -e "$RESULTS/finished" ]; do read -r _ <&3; done
    rc=127 secs=0
    [ -e "$file.rc" ] && read -r rc secs <"$file.rc"
    [ -e "$file.log" ] || : >"$file.log"
    awk -v name="$name" -v rc="$rc" -v secs="$secs" -v counts="$file.counts" '
        { line[NR] = $0 }
        /^PASS / { p++ }
        /^FAIL / { f++ }
        END {
            if (rc != 0 && f == 0) { line[++NR] = "FAIL " name " (exit status " rc ", no test reported a failure)"; f = 1 }
            if (f) {
                printf "== %s: %d failed (%s s)\n", name, f, secs
                for (i = 1; i <= NR && shown < 60; i++) if (line[i] !~ /^PASS /) { print line[i]; shown++ }
            } else
                printf "== %s: %d passed (%s s)\n", name, p, secs
            for (i = 1; i <= NR; i++) if (line[i] ~ /^NOTE /) print line[i]
            print p + 0, f + 0 > counts
        }' "$file.log"
    read -r p f <"$file.counts"
    passed=$((passed + p))
    failed=$((failed + f))
done <"$RESULTS/all"

wait
echo "$passed passed, $failed failed"
[ "$failed" -eq 0 ]
