# bench/broadcast, the hardware against software broadcast of
# docs/results.md, run at N = 16 and 64 (the pairs at 16): every processor
# must halt with the word or sum its program computes; every cell of the
# doc's tables in those columns must be what the bench prints now, so that
# the doc cannot go stale silently; and the image that --hex writes must run
# in bin/emu, by the command in its header, as it ran in the bench.
. tests/lib.sh
BENCH=${BUILD:-build}/bench/broadcast
DOC=docs/results.md

run "$BENCH" --max-n 64 -o "$TMP/b.csv"
expect_status broadcast_small_runs_check_out 0
expect_same broadcast_stdout_is_the_csv "$TMP/b.csv" "$TMP/out"

# The tables of the section "Broadcast: hardware against software". A
# table's caption (the paragraph before it) says its duplex mode, or its
# columns do. Rows: "MOUT, every routing" (case mout, every routing, both
# duplex modes), "tree, `R`", "MOUT, `R`" (all-mout), "OUTs, `R`"
# (all-out), "`R`" (the pairs, by column), "`pair-...`, W = w" (the
# routings that deadlocked). A half-duplex table lists only the runs that
# differ from full duplex: every other routing of its cases must give the
# same figures in both modes. Figures are compared without their commas;
# the table of cases, which holds none, is left alone.
awk -F, -v doc="$DOC" '
function trim(s) { gsub(/^[ \t]+|[ \t]+$/, "", s); return s }
function bare(s) { gsub(/,/, "", s); return s }
function fail(what, got, want) {
    printf "FAIL results_broadcast_table_%d\n  %s: the doc says \"%s\", the bench \"%s\"\n",
           ntables, what, got, want
    bad[ntables] = 1
}
function check(what, got, key) {
    if (!(key in cellv)) { fail(what, got, "(no such run)"); return }
    if (bare(got) != bare(cellv[key])) fail(what, got, cellv[key])
    checked[ntables]++
}
NR == FNR {
    if (FNR > 1) {
        key = $1 SUBSEP $2 SUBSEP $3 SUBSEP $4 SUBSEP $5 SUBSEP $6
        cellv[key] = $13 == "normal" ? $11 " / " $7 : "deadlock at t=" $12 " (" $16 " read)"
        ended[key] = $13
        ran[$2] = 1
    }
    next
}
/^## / { insec = $0 == "## Broadcast: hardware against software"; next }
!insec { next }
!/^\|/ {
    intable = 0
    if ($0 == "") { if (para != "") caption = para; para = "" }
    else para = para " " $0
    next
}
{
    n = split($0, f, "|")
    for (i = 2; i < n; i++) f[i] = trim(f[i])
    if (!intable) {                            # a table of figures, or another
        intable = 1; row = 0
        figures = f[2] == "sent by" || f[2] == "routing" || (f[2] == "case" && f[3] ~ /^B=/)
        ntables += figures
        duplex = caption ~ /half duplex/ ? "half" : caption ~ /full duplex/ ? "full" : ""
        for (i = 3; i < n; i++) head[i] = f[i]
        next
    }
    if (++row == 1 || !figures) next           # the |---| line
    label = f[2]
    for (i = 3; i < n; i++) cell_at(label, head[i], f[i])
}
function cell_at(label, col, got,    c, r, N, b, d, w, k, list, m, p) {
    if (bare(col) ~ /^[0-9]+$/) {
        N = bare(col)
        if (!(N in ran)) return
        if (label == "MOUT, every routing") {
            for (r = 1; r <= nrout; r++)
                for (d = 0; d < 2; d++)
                    check(label " at " col, got, "mout" SUBSEP N SUBSEP R[r] SUBSEP D[d] SUBSEP 5 SUBSEP 1)
            return
        }
        c = label ~ /^tree, / ? "tree" : label ~ /^MOUT, / ? "all-mout" : label ~ /^OUTs, / ? "all-out" : "?"
        r = label; sub(/^[^`]*`/, "", r); sub(/`.*/, "", r)
        if (duplex == "half") listed[c, r] = 1
        check(label " at " col ", " duplex " duplex", got, c SUBSEP N SUBSEP r SUBSEP duplex SUBSEP 5 SUBSEP 1)
        return
    }
    b = col; sub(/^.*B=/, "", b); sub(/,.*/, "", b)
    if (label ~ /^`pair-/) {                   # the routings that deadlocked
        c = label; gsub(/`/, "", c); sub(/,.*/, "", c)
        w = label; sub(/.*= */, "", w)
        d = col ~ /half/ ? "half" : "full"
        list = ""
        for (r = 1; r <= nrout; r++)
            if (ended[c SUBSEP 16 SUBSEP R[r] SUBSEP d SUBSEP b SUBSEP w] != "normal")
                list = list (list == "" ? "" : ", ") "`" R[r] "`"
        if (bare(got) != bare(list == "" ? "none" : list)) fail(label ", " col, got, list == "" ? "none" : list)
        checked[ntables]++
        return
    }
    c = col ~ /^far/ ? "pair-far" : "pair-near"    # two multicasts, W = 1
    r = label; gsub(/`/, "", r)
    for (d = 0; d < 2; d++)
        if (col !~ /half|full/ || col ~ D[d])
            check(label ", " col, got, c SUBSEP 16 SUBSEP r SUBSEP D[d] SUBSEP b SUBSEP 1)
}
BEGIN {
    nrout = split("benes benes-full greedy valiant random dmodk adaptive", R, " ")
    D[0] = "half"; D[1] = "full"
}
END {
    # The half-duplex tables: the runs they leave out are as in full duplex.
    for (key in listed) { split(key, cr, SUBSEP); cases[cr[1]] = 1 }
    for (c in cases)
        for (r = 1; r <= nrout; r++)
            for (N in ran)
                if (!((c, R[r]) in listed) &&
                    cellv[c SUBSEP N SUBSEP R[r] SUBSEP "half" SUBSEP 5 SUBSEP 1] != \
                    cellv[c SUBSEP N SUBSEP R[r] SUBSEP "full" SUBSEP 5 SUBSEP 1]) {
                    printf "FAIL results_broadcast_half_duplex_as_full\n"
                    printf "  %s, %s, N = %s: half duplex differs from full, and the doc leaves it out\n", c, R[r], N
                    halfbad = 1
                }
    if (!halfbad) print "PASS results_broadcast_half_duplex_as_full"
    for (t = 1; t <= ntables; t++)
        if (!bad[t] && checked[t] > 0) print "PASS results_broadcast_table_" t
        else if (!bad[t]) print "FAIL results_broadcast_table_" t "\n  no cell of it was checked"
    if (ntables == 6) print "PASS results_broadcast_six_tables"
    else print "FAIL results_broadcast_six_tables\n  found " ntables " tables after the heading"
}' "$TMP/b.csv" "$DOC"

# --hex: the image of one run, and the command to run it, in its header.
csv_field() {   # CASE ROUTING DUPLEX BUFFER COLUMN: from the small run's CSV
    awk -F, -v c="$1" -v r="$2" -v d="$3" -v b="$4" -v col="$5" \
        '$1 == c && $2 == 16 && $3 == r && $4 == d && $5 == b && $6 == 1 { print $col }' "$TMP/b.csv"
}
hex_run() {     # NAME CASE ROUTING DUPLEX BUFFER STATUS
    name=$1
    run "$BENCH" --case "$2" --max-n 16 --routing "$3" --duplex "$4" --hex "$TMP/$name.hex"
    expect_status "${name}_written" 0
    cmd=$(sed -n '2s/^# bin\///p' "$TMP/$name.hex")
    # shellcheck disable=SC2086 # the command's words
    run "$BIN"/$cmd "$TMP/$name.hex"
    expect_status "${name}_status" "$6"
    want="collisions: $(csv_field "$2" "$3" "$4" "$5" 7)"
    expect_grep "${name}_collisions" "$want" "$TMP/out"
    want="timesteps: $(csv_field "$2" "$3" "$4" "$5" 12)"
    expect_grep "${name}_timesteps" "$want" "$TMP/out"
}
hex_run broadcast_hex_tree tree valiant full 5 0
hex_run broadcast_hex_pair_deadlock pair-near dmodk half 1 3
expect_grep broadcast_hex_pair_deadlock_is_network "a network deadlock" "$TMP/out"
