# --step's compact states keep their columns where they were from one
# timestep to the next, so that a class watching them step does not lose
# its place: within a state the processors' registers, sp and source line
# start at the same column on every line, and the packets' port, data and
# place too (but after a multicast's set, which moves the rest of its
# line, and a value too wide for 80 columns, which moves its own); from
# one state to the next a column stays or moves right (a value longer
# than any before), never left. Every program in programs/, its first 300
# timesteps.
. tests/lib.sh

# columns NAME FILE: checks the compact states in FILE; prints what is
# wrong, one line each, or nothing. A value wider than the 80 columns
# leave its column room for (multicast_sets.x's 184549376) moves the rest
# of its line only, and may make it go on in lines below: such a line is
# not checked, and a line is held back until the next shows whether it
# went on.
columns() {
    awk -v name="$1" '
        # same KIND AT: the column of KIND in this state is AT (0: none on the line)
        function same(kind, at) {
            if (at == 0) return
            if (kind in now && now[kind] != at && !(kind in said))
                { print name " t=" t ": " kind " at " now[kind] " and at " at ": " held; said[kind] = 1 }
            if (!(kind in now)) now[kind] = at
        }
        function check(line) {
            if (line ~ /[0-9][0-9][0-9][0-9][0-9][0-9][0-9][0-9][0-9]/) return
            if (line ~ /^p[0-9]+ +(running|wait|faulted)/) {
                same("breg", index(line, " breg ")); same("sp", index(line, " sp "))
                same("source line", index(line, "(line "))
            } else if (line ~ /^#[0-9]/ && line !~ /->\{/) {
                same("port", index(line, " port ")); same("data", index(line, " data "))
                if (match(line, /: +[a-z]/)) same("place", RSTART + RLENGTH - 1)
            }
        }
        function state_ends(    k) {
            for (k in now) {
                if ((k in before) && now[k] < before[k])
                    print name " t=" t ": " k " moved left, from " before[k] " to " now[k]
                before[k] = now[k]
            }
            split("", now); split("", said)
        }
        { wrapped = /^     [^ ]/ && held ~ /^p[0-9]/ }
        held != "" && !wrapped { check(held) }
        { held = "" }
        /^=== t=/ { state_ends(); t = $2; sub(/:.*/, "", t); sub(/^t=/, "", t); on = 1; next }
        /^(=== state|===$|end:)/ { on = 0; next }
        on && !wrapped { held = $0 }
        END { if (held != "") check(held); state_ends() }' "$2"
}

for prog in programs/*.x; do
    name=${prog##*/}
    name=${name%.x}
    { yes '' | head -n 300; echo q; } | "$EMU" --step "$prog" >"$TMP/$name.out" 2>/dev/null
    columns "$name" "$TMP/$name.out" >>"$TMP/moved"
done
if [ -s "$TMP/moved" ]; then fail step_columns_stay "$(head -n 12 "$TMP/moved")"
else pass step_columns_stay; fi

# Appendix C: a register going from 200000 to 22 (SETSP, then the data)
# or from 9 to 10 moves nothing; the columns of its first state are those
# of its last.
head -n 2 "$TMP/appendix_c.out" | tail -n 1 >"$TMP/first"
grep "^p0 .* breg " "$TMP/appendix_c.out" | tail -n 1 >"$TMP/last"
at() { awk -v w="$1" '{ print index($0, w) }' "$2"; }
if [ "$(at ' breg ' "$TMP/first") $(at ' sp ' "$TMP/first")" = \
     "$(at ' breg ' "$TMP/last") $(at ' sp ' "$TMP/last")" ]; then pass step_columns_from_the_start
else fail step_columns_from_the_start "$(cat "$TMP/first" "$TMP/last")"; fi
