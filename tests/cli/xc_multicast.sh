# Multicast programs compiled by bin/xc and run on bin/emu (spec/multicast.md,
# the language's list sends and `all`): what each processor receives, that a
# destination named twice or the sender itself gets one copy, that `all`
# reaches the program's processors but not the idle ones, and that a list of
# one is OUT's send but for the multicasts statistic.
. tests/lib.sh

printed() { grep -E '^p[0-9]+: -?[0-9]+$' "$1"; }

# compile_run NAME FILE.x OPTION...: compiles FILE.x with bin/xc and runs
# it with bin/emu; a failure to compile or a run that does not end normally
# is a failure of NAME.
compile_run() {
    name=$1; x=$2; shift 2
    run "$XC" -o "$TMP/m.hex" "$x"
    if [ "$STATUS" -ne 0 ]; then fail "$name" "does not compile" "$(head -c 600 "$TMP/err")"; return 1; fi
    run "$EMU" "$@" "$TMP/m.hex"
    if [ "$STATUS" -ne 0 ]; then fail "$name" "exit status $STATUS" "$(tail -n 5 "$TMP/out")"; return 1; fi
    return 0
}

# Processor 0 sends 42 to 1, 2 and 3 and broadcasts 7 on port 2; each
# receiver prints what it reads (the lines sorted: they come in the order
# the packets arrive).
cat >"$TMP/receive.x" <<'X'
proc main() is
  var x;
  network {
    { [1, 2, 3] ! 42; all : 2 ! 7 } &
    { 0 ? x; print x; 2 ? x; print x } &
    { 0 ? x; print x; 2 ? x; print x } &
    { 0 ? x; print x; 2 ? x; print x }
  }
X
printf '%s\n' 'p1: 42' 'p1: 7' 'p2: 42' 'p2: 7' 'p3: 42' 'p3: 7' >"$TMP/receive.want"
if compile_run multicast_receivers "$TMP/receive.x" --routes; then
    printed "$TMP/out" | sort >"$TMP/got"
    expect_same multicast_receivers "$TMP/receive.want" "$TMP/got"
    expect_grep multicast_receivers_list_route "p0->{1,2,3} port 0" "$TMP/out"
    expect_grep multicast_receivers_all_route "p0->all port 2" "$TMP/out"
    expect_grep multicast_receivers_counts "packets: 2 sent, 6 delivered, 6 read" "$TMP/out"
    expect_grep multicast_receivers_multicasts "multicasts: 2, making 4 copies" "$TMP/out"
fi

# A destination named twice, and the sender in its own list: one copy each.
# The list's three entries need a machine of at least three processors.
cat >"$TMP/twice.x" <<'X'
proc main() is
  var x;
  network {
    { [1, 0, 1] ! 5; 0 ? x; print x } &
    { 0 ? x; print x }
  }
X
if compile_run multicast_named_twice "$TMP/twice.x" --routes --procs 4; then
    printed "$TMP/out" | sort >"$TMP/got"
    printf '%s\n' 'p0: 5' 'p1: 5' >"$TMP/want"
    expect_same multicast_named_twice "$TMP/want" "$TMP/got"
    expect_grep multicast_named_twice_set "p0->{0,1} port 0" "$TMP/out"
    expect_grep multicast_named_twice_one_copy_each "packets: 1 sent, 2 delivered, 2 read" "$TMP/out"
fi

# ... and on a machine of two processors it faults (MOUT checks n <= NPROC).
run "$EMU" "$TMP/m.hex"
expect_status multicast_longer_than_machine_faults 2
expect_grep multicast_longer_than_machine_message "3 destinations, more than the 2 processors the machine has" "$TMP/out"

# all in a program of 3 records on a machine of 4: processor 3 gets nothing.
cat >"$TMP/all3.x" <<'X'
proc main() is
  var x;
  network { all : 1 ! 9 & { 1 ? x; print x } & { 1 ? x; print x } }
X
if compile_run multicast_all_program_only "$TMP/all3.x" --routes; then
    expect_grep multicast_all_program_only "p0->{1,2} port 1" "$TMP/out"
    expect_grep multicast_all_program_only_counts "packets: 1 sent, 2 delivered, 2 read" "$TMP/out"
fi

# A list of one is OUT's send: the same route, delivery and statistics, but
# for multicasts (and the timesteps its list takes to build).
cat >"$TMP/one.x" <<'X'
proc main() is
  var x;
  network { [1] : 3 ! 5 & { 3 ? x; print x } }
X
cat >"$TMP/out.x" <<'X'
proc main() is
  var x;
  network { 1 : 3 ! 5 & { 3 ? x; print x } }
X
# the JSON object and the route line without what building the list changes
normalise() {
    sed -e 's/^t=[0-9]* //' -e 's/"timesteps": [0-9]*, //' -e 's/"instructions": [0-9]*, //' \
        -e 's/"stalls_in": [0-9]*, //' -e 's/"multicasts": [0-9]*, //' "$1"
}
if compile_run multicast_list_of_one "$TMP/one.x" --routes --json; then
    cp "$TMP/out" "$TMP/one.out"
    expect_grep multicast_list_of_one_counted '"multicasts": 1, "copies": 0' "$TMP/one.out"
    if compile_run multicast_list_of_one "$TMP/out.x" --routes --json; then
        expect_grep multicast_list_of_one_out_not_counted '"multicasts": 0, "copies": 0' "$TMP/out"
        normalise "$TMP/one.out" >"$TMP/one.norm"
        normalise "$TMP/out" >"$TMP/out.norm"
        expect_same multicast_list_of_one_is_out "$TMP/out.norm" "$TMP/one.norm"
    fi
fi
