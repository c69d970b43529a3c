#!/bin/sh
# Runs every test and prints the closing line "N passed, N failed".
#
# Each test program (build/tests/*), each fuzzer (build/fuzz/*, a fixed number
# of iterations from fixed seeds) and each shell test (tests/cli/*.sh) prints
# one "PASS name" or "FAIL name" line per test (and a "NOTE ..." line, shown
# as it is, for a test that could not run here); a program that crashes or
# exits non-zero without printing a FAIL line counts as one failure itself.
# Environment: BUILD and BIN name the build to test (set by the Makefile, so
# `make check` runs the same tests on the sanitizer build).
BUILD=${BUILD:-build}
BIN=${BIN:-bin}
FUZZ_ITERATIONS=${FUZZ_ITERATIONS:-2000}
export BUILD BIN FUZZ_ITERATIONS
cd "$(dirname "$0")/.." || exit 1

passed=0
failed=0
log=$(mktemp)
trap 'rm -f "$log"' EXIT

run_one() {
    name=$1; shift
    "$@" >"$log" 2>&1
    rc=$?
    p=$(grep -c '^PASS ' "$log")
    f=$(grep -c '^FAIL ' "$log")
    if [ "$rc" -ne 0 ] && [ "$f" -eq 0 ]; then
        echo "FAIL $name (exit status $rc, no test reported a failure)" >>"$log"
        f=1
    fi
    passed=$((passed + p))
    failed=$((failed + f))
    if [ "$f" -ne 0 ]; then
        echo "== $name: $f failed"
        grep -v '^PASS ' "$log" | head -n 60
    else
        echo "== $name: $p passed"
    fi
    grep '^NOTE ' "$log"
}

for t in "$BUILD"/tests/*; do
    [ -x "$t" ] && [ -f "$t" ] || continue
    run_one "$(basename "$t")" "$t"
done
for f in "$BUILD"/fuzz/*; do
    [ -x "$f" ] && [ -f "$f" ] || continue
    run_one "fuzz/$(basename "$f")" "$f" --iterations "$FUZZ_ITERATIONS"
done
for s in tests/cli/*.sh; do
    [ -f "$s" ] || continue
    run_one "cli/$(basename "$s" .sh)" sh "$s"
done

echo "$passed passed, $failed failed"
[ "$failed" -eq 0 ]
