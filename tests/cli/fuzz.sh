# make fuzz's open-ended fuzzers leave a file only for a failure: the
# compiler's fuzzer, which writes each input to fuzz-compiler-crash.x
# before compiling it (so that an input that crashes it stays there),
# removes the file when interrupted, and dies of the signal; an input that
# keeps the compiler busy for its HANG_SECONDS stops it, the file kept.
. tests/lib.sh
FUZZ_COMPILER=$PWD/${BUILD:-build}/fuzz/fuzz_compiler
# (it reads its seeds from programs/ and tests/programs/ in the directory it
# runs in, and writes its file there)
mkdir -p "$TMP/fz/tests"
ln -s "$PWD/programs" "$TMP/fz/programs"
ln -s "$PWD/tests/programs" "$TMP/fz/tests/programs"
CRASH=$TMP/fz/fuzz-compiler-crash.x

# start_fuzzer: starts fuzz_compiler --forever ($pid), and waits until it
# has written an input, so that it is in its loop.
start_fuzzer() {
    rm -f "$CRASH"
    (cd "$TMP/fz" && exec "$FUZZ_COMPILER" --forever) >"$TMP/out" 2>"$TMP/err" &
    pid=$!
    wait_until test -e "$CRASH"
}

gone() { ! kill -0 "$1" 2>/dev/null; }

# signal_fuzzer SIG: sends it SIG and waits for it to end, $STATUS its
# status (a fuzzer that went on would hang the test: it gets 10 s, then
# SIGKILL).
signal_fuzzer() {
    kill "-$1" $pid
    wait_until gone $pid
    kill -KILL $pid 2>/dev/null
    wait $pid
    STATUS=$?
}

start_fuzzer
if [ -e "$CRASH" ]; then pass fuzz_compiler_writes_its_input
else fail fuzz_compiler_writes_its_input "no fuzz-compiler-crash.x after 10 s" "$(cat "$TMP/err")"; fi
signal_fuzzer INT
expect_status fuzz_compiler_interrupted_dies_of_sigint 130
if [ ! -e "$CRASH" ]; then pass fuzz_compiler_interrupted_leaves_no_file
else fail fuzz_compiler_interrupted_leaves_no_file "$(ls "$TMP/fz")"; fi

# A hang: the alarm is sent here at once, as if an input had run that long.
start_fuzzer
signal_fuzzer ALRM
expect_status fuzz_compiler_hang_status 1
expect_grep fuzz_compiler_hang_message "FAIL fuzz_compiler: an input did not finish (a hang); written to fuzz-compiler-crash.x" "$TMP/out"
if [ -e "$CRASH" ]; then pass fuzz_compiler_hang_keeps_the_input
else fail fuzz_compiler_hang_keeps_the_input "$(ls "$TMP/fz")"; fi
