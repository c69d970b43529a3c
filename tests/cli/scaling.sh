# The example programs (programs/*.x) at sizes other than their own, set by
# -D alone, as bench/sweep --define sets them (docs/programs.md, Sizes).
#
# - At each size its header allows, with the --ports (and, where it says
#   so, --duplex full) it asks for, a program ends normally and prints
#   exactly what want() works out here, in awk, apart from the emulator and
#   the program: reduce_tree and prefix_sum once printed the sums of 32
#   processors at -D n=64, and exited 0.
# - A size it cannot run (not a power of two, too small, more workers than
#   tasks, other sets than its own) is refused by the compiler, at the
#   program's check, a val that divides by zero: status 1, and the line of
#   the check with the note naming the -D.
# - The larger sizes docs/programs.md names as network deadlocks under the
#   default options stay network deadlocks.
. tests/lib.sh

# want PROG N [NAME=VALUE...]: the lines "pI: value" that programs/PROG.x
# prints with -D n=N (and -D NAME=VALUE), each value a 32-bit word as the
# machine has it. awk's numbers are doubles, exact below 2^53, which every
# sum here is.
want() {
    prog=$1 n=$2
    shift 2
    awk -v prog="$prog" -v n="$n" "$@" '
        function w32(x) {              # x as a signed 32-bit word
            x = x % 4294967296
            if (x < 0) x += 4294967296
            return x >= 2147483648 ? x - 4294967296 : x
        }
        function out(p, v) { printf "p%d: %.0f\n", p, w32(v) }
        BEGIN {
            if (prog == "reduce_tree") out(0, n * (n + 1) / 2)
            else if (prog == "prefix_sum") for (i = 0; i < n; i++) out(i, (i + 1) * (i + 1))
            else if (prog == "broadcast" || prog == "broadcast_tree") {
                s = 0                  # p(i) = 7 - 3i + 2i^2 + i^3, summed
                for (i = 0; i < n; i++) s = w32(s + 7 - 3 * i + 2 * i * i + w32(i * i * i))
                out(0, s)
            } else if (prog == "all_to_all")
                for (i = 0; i < n; i++) {
                    s = 0              # column i: 100j + i from each j
                    for (j = 0; j < n; j++) s += (j + 1) * (100 * j + i)
                    out(i, s)
                }
            else if (prog == "matvec")
                for (i = 0; i < n; i++) {
                    s = 0
                    for (j = 0; j < n; j++) s += ((i * j + 3 * i + 5 * j) % 11 - 5) * (j - 5)
                    out(i, s)
                }
            else if (prog == "transpose")
                for (j = 0; j < n; j++) {
                    s = 0              # column j: k * n + j from row k
                    for (k = 0; k < n; k++) s += (k + 1) * (k * n + j)
                    out(0, s)
                }
            else if (prog == "primes") {
                if (limit == "") limit = 10000
                c = 0                  # a sieve, where the program divides
                for (m = 2; m < limit; m++) if (!(m in composite)) {
                    c++
                    for (k = m * m; k < limit; k += m) composite[k]
                }
                out(0, c)
            } else if (prog == "farm") {
                if (tasks == "") tasks = 90
                total = 0; most = -1
                for (t = 1; t <= tasks; t++) {
                    x = t; steps = 0
                    while (x != 1) { x = (x % 2 == 0) ? x / 2 : 3 * x + 1; steps++ }
                    total += steps
                    if (steps > most) { most = steps; most_m = t }
                }
                out(0, total); out(0, most); out(0, most_m)
            } else if (prog == "odd_even_sort") {
                for (i = 0; i < n; i++) v[i] = (37 * i + 11) % 101 - 50
                for (i = 1; i < n; i++) {      # insertion sort
                    x = v[i]
                    for (j = i - 1; j >= 0 && v[j] > x; j--) v[j + 1] = v[j]
                    v[j + 1] = x
                }
                for (i = 0; i < n; i++) out(i, v[i])
            } else if (prog == "token_ring")
                for (lap = 1; lap <= 3; lap++) out(0, lap * n * (n + 1) / 2)
            else if (prog == "getrow") {
                if (m == "") m = 4
                for (i = 1; i < n; i++) {
                    s = 0              # row i: m(i - 1) + 1 .. mi
                    for (k = 0; k < m; k++) s += (k + 1) * (m * (i - 1) + k + 1)
                    out(i, s)
                }
            } else if (prog == "pipeline") {
                if (L == "") L = 16
                s = 0                  # word k, plus each stage 1 .. n - 1
                for (k = 1; k <= L; k++) s += k + n * (n - 1) / 2
                out(n - 1, s)
            } else if (prog == "contention")
                for (p = 0; p < 2; p++) {
                    s = 0
                    for (k = 1; k <= L; k++) s += 100 * p + k
                    out(7, s)
                }
        }'
}

# scaled PROG N [-D NAME=VALUE...] [OPTIONS...]: programs/PROG.x run with
# -D n=N (no -D n for N = -) and the rest ends normally and prints want's
# lines. The test is named after the run.
scaled() {
    prog=$1 n=$2
    shift 2
    name=$prog
    defs=
    [ "$n" = - ] || { name=${name}_n$n; defs="-D n=$n"; }
    vars=
    set -- "$@" .
    while [ "$1" != . ]; do
        case $1 in
        -D) name=${name}_${2%%=*}_${2#*=}; defs="$defs -D $2"; vars="$vars -v $2"; shift ;;
        --*) o=${1#--}_$2
             while case $o in *-*) ;; *) false ;; esac; do o=${o%%-*}${o#*-}; done
             name=${name}_$o; set -- "$@" "$1" "$2"; shift ;;
        esac
        shift
    done
    shift
    # shellcheck disable=SC2086
    run "$EMU" -q "$@" $defs "programs/$prog.x"
    # shellcheck disable=SC2086
    want "$prog" "$n" $vars >"$TMP/want"
    # (the printed lines against want's by one awk: a grep and a cmp were
    # two processes a run)
    if [ "$STATUS" -eq 0 ] && awk 'FNR == NR { w = w $0 "\n"; next }
                                   /^p[0-9]+: -?[0-9]+$/ { g = g $0 "\n" }
                                   END { exit w != g }' "$TMP/want" "$TMP/out"; then pass "$name"
    else grep -E '^p[0-9]+: -?[0-9]+$' "$TMP/out" >"$TMP/got"
         fail "$name" "exit status $STATUS" "$(head -c 300 "$TMP/err")" \
              "$(diff "$TMP/want" "$TMP/got" | head -n 10)"; fi
}

# large: whether the runs of 512 processors and more are made. Not in the
# sanitizer build (make check), which checks every invariant of the network
# at every timestep: there they took minutes, and the sanitizers watch the
# code's paths, which the smaller sizes take too.
large() { case ${BUILD:-build} in *check*) return 1 ;; esac; }

# The default sizes first: want() agrees with the committed expected output
# (which tests/unit/test_expected.c works out in C), so that it is checked too.
for prog in reduce_tree prefix_sum broadcast broadcast_tree all_to_all matvec transpose \
            primes farm odd_even_sort token_ring getrow pipeline; do
    want "$prog" "$(sed -n 's/^val n = \([0-9]*\);.*/\1/p' "programs/$prog.x")" >"$TMP/want"
    expect_same "want_${prog}_default_is_expected" "tests/programs/examples/$prog.expected" "$TMP/want"
done
want contention - -v L=24 >"$TMP/want"
expect_same want_contention_default_is_expected tests/programs/examples/contention.expected "$TMP/want"

# Trees of log2 n rounds, their rounds worked out from n.
scaled reduce_tree 2
scaled reduce_tree 64
large && scaled reduce_tree 1024
scaled prefix_sum 1
scaled prefix_sum 24                    # not a power of two: 5 rounds
scaled prefix_sum 256
scaled broadcast 16
scaled broadcast 128
large && scaled broadcast 1024                   # the sum wraps round 32 bits
large && scaled broadcast 8192 --ports 17        # ports 4 .. 3 + log2 n
scaled broadcast_tree 16
scaled broadcast_tree 256
large && scaled broadcast_tree 4096 --duplex full
# A port per processor, or per round: n ports from 17 on.
scaled all_to_all 8
scaled all_to_all 32 --ports 32
scaled all_to_all 64 --ports 64 --duplex full
scaled matvec 4
scaled matvec 12
scaled matvec 64 --ports 64
scaled transpose 4
scaled transpose 12
scaled transpose 32 --ports 32
scaled primes 7
scaled primes 64 --ports 64
scaled primes 4 -D limit=1000
scaled farm 2
scaled farm 9
scaled farm 64 --ports 64
scaled farm 16 -D tasks=20
# One port whatever n, and messages sized by another val.
scaled odd_even_sort 5
scaled odd_even_sort 64
scaled odd_even_sort 100
scaled token_ring 2
scaled token_ring 64
scaled token_ring 100
scaled getrow 2
scaled getrow 16
scaled getrow 5 -D m=3
scaled pipeline 2
scaled pipeline 64
scaled pipeline 3 -D L=100
scaled contention - -D L=1
scaled contention - -D L=100

# refused NAME PROG CHECK DEFINES...: compiling PROG with DEFINES stops at
# its val CHECK, with status 1, and the note names the first -D.
refused() {
    name=$1 prog=$2 check=$3
    shift 3
    run "$EMU" -q "$@" "programs/$prog.x"
    expect_status "${name}_status" 1
    expect_grep "${name}_at_the_check" "error: division by zero in a val" "$TMP/err"
    expect_grep "${name}_names_the_check" "| val $check = 1 / " "$TMP/err"
    expect_grep "${name}_names_the_define" "here, set by $1 $2" "$TMP/err"
}
refused reduce_tree_n48 reduce_tree n_is_a_power_of_two -D n=48
refused broadcast_n24 broadcast n_is_a_power_of_two -D n=24
refused broadcast_tree_n12 broadcast_tree n_is_a_power_of_two -D n=12
refused all_to_all_n12 all_to_all n_is_a_power_of_two -D n=12
refused token_ring_n1 token_ring n_is_at_least_2 -D n=1
refused pipeline_n1 pipeline n_is_at_least_2 -D n=1
refused farm_n1 farm n_is_at_least_2 -D n=1
refused farm_n92 farm tasks_at_least_workers -D n=92
refused farm_tasks3 farm tasks_at_least_workers -D tasks=3
refused multicast_sets_n16 multicast_sets n_is_32 -D n=16
refused multicast_sets_n64 multicast_sets n_is_32 -D n=64

# network_deadlock NAME OPTIONS... PROG: the run, under the default routing
# and half duplex, ends in a network deadlock (exit status 3).
network_deadlock() {
    name=$1
    shift
    run "$EMU" --json "$@"
    expect_status "${name}_status" 3
    expect_grep "${name}_is_network_deadlock" '"network_deadlock": true' "$TMP/out"
}
large && network_deadlock prefix_sum_n512_deadlocks -D n=512 programs/prefix_sum.x
large && network_deadlock broadcast_tree_n4096_deadlocks -D n=4096 programs/broadcast_tree.x
network_deadlock all_to_all_n64_deadlocks --ports 64 -D n=64 programs/all_to_all.x
