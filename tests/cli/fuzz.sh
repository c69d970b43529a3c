# make fuzz's open-ended fuzzers leave a file only for a failure: the
# compiler's fuzzer, which writes each input to fuzz-compiler-crash.x
# before compiling it (so that an input that crashes it stays there),
# removes the file when interrupted, and dies of the signal.
. tests/lib.sh
FUZZ_COMPILER=$PWD/${BUILD:-build}/fuzz/fuzz_compiler
# (it reads its seeds from programs/ and tests/programs/ in the directory it
# runs in, and writes its file there)
mkdir -p "$TMP/fz/tests"
ln -s "$PWD/programs" "$TMP/fz/programs"
ln -s "$PWD/tests/programs" "$TMP/fz/tests/programs"
(cd "$TMP/fz" && exec "$FUZZ_COMPILER" --forever) >"$TMP/out" 2>"$TMP/err" &
pid=$!
# (until it has written an input: then it is in its loop)
tries=0
while [ ! -e "$TMP/fz/fuzz-compiler-crash.x" ] && [ $tries -lt 100 ]; do
    sleep 0.1
    tries=$((tries + 1))
done
if [ -e "$TMP/fz/fuzz-compiler-crash.x" ]; then pass fuzz_compiler_writes_its_input
else fail fuzz_compiler_writes_its_input "no fuzz-compiler-crash.x after 10 s" "$(cat "$TMP/err")"; fi
kill -INT $pid
# (a fuzzer that went on would hang the test: it gets 10 s, then SIGKILL)
tries=0
while kill -0 $pid 2>/dev/null && [ $tries -lt 100 ]; do
    sleep 0.1
    tries=$((tries + 1))
done
kill -KILL $pid 2>/dev/null
wait $pid
STATUS=$?
expect_status fuzz_compiler_interrupted_dies_of_sigint 130
if [ ! -e "$TMP/fz/fuzz-compiler-crash.x" ]; then pass fuzz_compiler_interrupted_leaves_no_file
else fail fuzz_compiler_interrupted_leaves_no_file "$(ls "$TMP/fz")"; fi
