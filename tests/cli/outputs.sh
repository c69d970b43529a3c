# Nothing lost (docs/emulator.md, "Output files"): the files a run writes
# are whole or not there, a refused or failed run leaves every file as it
# was, two outputs naming one file are refused before the run, a signal
# ends a run with its report and complete files, every write is checked,
# and inputs that never end are not read into memory.
. tests/lib.sh

APPC=programs/appendix_c.x
LOOP=tests/data/hex/loop.hex
mkdir "$TMP/o"

# ---- two outputs naming one file: refused by name, nothing written --------------------
echo kept >"$TMP/o/F"
run "$EMU" --trace "$TMP/o/F" --html "$TMP/o/F" $APPC
expect_status same_file_status 1
expect_grep same_file_message "emu: --trace '$TMP/o/F' and --html '$TMP/o/F' are the same file" "$TMP/err"
expect_file_text same_file_kept "$TMP/o/F" kept
expect_empty same_file_nothing_run "$TMP/out"
run "$EMU" --trace "$TMP/o/F" --html "$TMP/o/../o/./F" $APPC
expect_status same_file_other_spelling_status 1
ln -s G "$TMP/o/L"                      # a link to a file not made yet
run "$EMU" --trace "$TMP/o/L" --html "$TMP/o/G" $APPC
expect_status same_file_through_link_status 1
if [ ! -e "$TMP/o/G" ]; then pass same_file_through_link_nothing_made
else fail same_file_through_link_nothing_made; fi
ln "$TMP/o/F" "$TMP/o/H"                # a hard link
run "$EMU" --trace "$TMP/o/F" --html "$TMP/o/H" $APPC
expect_status same_file_hard_link_status 1
run "$EMU" -q --trace /dev/null --html /dev/null $APPC
expect_status same_device_twice_is_fine 0

# ---- a refused run leaves an existing trace as it was --------------------------------
for why in page_too_large page_is_a_directory page_in_missing_directory; do
    echo kept >"$TMP/o/keep.csv"
    case $why in
    page_too_large) run "$EMU" --trace "$TMP/o/keep.csv" --html "$TMP/o/new.html" --procs 8192 $APPC ;;
    page_is_a_directory) run "$EMU" --trace "$TMP/o/keep.csv" --html "$TMP/o" $APPC ;;
    page_in_missing_directory) run "$EMU" --trace "$TMP/o/keep.csv" --html "$TMP/o/no/x.html" $APPC ;;
    esac
    expect_status refused_${why}_status 1
    expect_file_text refused_${why}_trace_kept "$TMP/o/keep.csv" kept
done
if [ ! -e "$TMP/o/new.html" ]; then pass refused_page_not_made; else fail refused_page_not_made; fi
# and nothing of a temporary file is left beside them
if [ -z "$(ls -A "$TMP/o" | grep '^\.')" ]; then pass refused_no_temporary_left
else fail refused_no_temporary_left "$(ls -A "$TMP/o")"; fi

# ---- a finished run replaces the files, keeping a link a link ------------------------
echo old >"$TMP/o/target.csv"
ln -s target.csv "$TMP/o/link.csv"
run "$EMU" -q --trace "$TMP/o/link.csv" $APPC
expect_status through_link_status 0
if [ -L "$TMP/o/link.csv" ] && head -n 1 "$TMP/o/target.csv" | grep -q '^timestep,event'; then
    pass through_link_replaces_target; else fail through_link_replaces_target; fi

# ---- every write is checked; the JSON's exit status is the process's ------------------
if [ -w /dev/full ]; then
    for what in help version disasm; do
        case $what in
        help) run sh -c "\"$EMU\" --help >/dev/full" ;;
        version) run sh -c "\"$EMU\" --version >/dev/full" ;;
        disasm) run sh -c "\"$EMU\" --disasm $APPC >/dev/full" ;;
        esac
        expect_status full_disk_${what}_status 1
        expect_grep full_disk_${what}_message "No space left on device" "$TMP/err"
    done
    run "$EMU" -q --json --trace /dev/full $APPC
    expect_status full_disk_trace_status 1
    expect_grep full_disk_trace_json_status '"exit_status": 1' "$TMP/out"
    expect_grep full_disk_trace_message "emu: --trace: cannot write '/dev/full'" "$TMP/err"
fi

# ---- signals: each ends the run as Ctrl-C does, with its own exit status -------------
# The loop runs until the signal comes; the trace and the page must be
# complete (the CSV ends with a whole line, the page with </html>). The four
# runs go side by side, so that the half second each is given passes once
# (Ctrl-C's test in emu.sh gives its run as long).
SIGNALS="TERM:143 HUP:129 QUIT:131 INT:130"
pids=""
for sig in $SIGNALS; do
    name=${sig%%:*}
    "$EMU" --json --trace "$TMP/o/s.$name.csv" --html "$TMP/o/s.$name.html" $LOOP \
        >"$TMP/out.$name" 2>"$TMP/err.$name" &
    pids="$pids $!"
done
sleep 0.5
set -- $pids
for sig in $SIGNALS; do
    kill -${sig%%:*} $1
    shift
done
# (an emulator that does not stop is killed, and its checks fail)
( sleep 20; kill -KILL $pids 2>/dev/null ) &
watchdog=$!
set -- $pids
for sig in $SIGNALS; do
    name=${sig%%:*}; want=${sig#*:}
    wait $1
    STATUS=$?
    shift
    expect_status signal_${name}_status $want
    expect_grep signal_${name}_report '"end": "interrupted"' "$TMP/out.$name"
    expect_grep signal_${name}_json_status "\"exit_status\": $want" "$TMP/out.$name"
    page=$TMP/o/s.$name.html
    if [ "$(tail -c 8 "$page")" = "</html>" ] || [ "$(tail -n 1 "$page")" = "</html>" ]; then
        pass signal_${name}_page_complete; else fail signal_${name}_page_complete "$(tail -c 100 "$page")"; fi
    csv=$TMP/o/s.$name.csv
    if [ "$(head -n 1 "$csv")" = "timestep,event,packet,src,dst,port,place,detail" ] &&
       [ "$(tail -c 1 "$csv" | od -An -c | tr -d ' ')" = '\n' ]; then
        pass signal_${name}_trace_complete; else fail signal_${name}_trace_complete; fi
    case $name in
    INT) expect_empty signal_INT_no_note "$TMP/err.$name" ;;
    *) expect_grep signal_${name}_note "emu: stopped by SIG$name at timestep" "$TMP/err.$name" ;;
    esac
done
kill $watchdog 2>/dev/null

# ---- inputs that never end are not read into memory ------------------------------------
# (The place named is line 1 of /dev/zero; of /dev/urandom, whatever line
# its random bytes reach before the first that is not text.)
for dev in zero urandom; do
    run timeout 10 "$EMU" /dev/$dev
    expect_status endless_emu_${dev}_status 1
    expect_match endless_emu_${dev}_message "^emu: /dev/$dev:[0-9]+:" "$TMP/err"
    run timeout 10 "$XC" -o "$TMP/o/z.hex" /dev/$dev
    expect_status endless_xc_${dev}_status 1
    expect_match endless_xc_${dev}_message "^/dev/$dev:[0-9]+:[0-9]+: error" "$TMP/err"
    if [ $dev = zero ]; then
        expect_grep endless_xc_zero_line_1 "/dev/zero:1:1: error" "$TMP/err"
    fi
done
# A NUL byte is no text, even in a comment: named at its place.
printf '# x\000yz\n0000' >"$TMP/o/nul.hex"
run "$EMU" "$TMP/o/nul.hex"
expect_grep nul_in_hex_comment "nul.hex:1:4: record 0 at byte offset 0: invalid character byte 0x00" "$TMP/err"
printf 'proc main() is | c\000\n  print 1\n' >"$TMP/o/nul.x"
run "$XC" "$TMP/o/nul.x"
expect_grep nul_in_comment "nul.x:1:19: error: invalid character (byte 0x00)" "$TMP/err"
# A source larger than the most that is read is refused before reading.
if truncate -s 300M "$TMP/o/big.x" 2>/dev/null; then
    run timeout 10 "$XC" "$TMP/o/big.x"
    expect_status large_source_status 1
    expect_grep large_source_message "big.x: larger than 256 MiB, the most that is read of a program" "$TMP/err"
fi

# ---- a machine larger than memory is refused before it starts -------------------------
start=$(date +%s)
run "$EMU" --max-mem 16G --procs 2097152 --vcs 8 --buffer 1024 $APPC
expect_status too_much_memory_status 1
expect_grep too_much_memory_message "emu: a machine of 2097152 processors with 8 virtual channels needs about" "$TMP/err"
expect_grep too_much_memory_names_option "more than the 16.0 GiB it may have (--max-mem" "$TMP/err"
if [ $(( $(date +%s) - start )) -le 2 ]; then pass too_much_memory_at_once
else fail too_much_memory_at_once "took $(( $(date +%s) - start )) s"; fi
# By default the limit is the host's memory: this machine needs about 36 GiB.
host_kib=$(awk '/^MemTotal:/ { print $2 }' /proc/meminfo 2>/dev/null)
if [ -n "$host_kib" ] && [ "$host_kib" -lt 36000000 ]; then
    run "$EMU" --procs 2097152 --vcs 8 --buffer 1024 $APPC
    expect_status too_much_memory_by_default_status 1
    expect_grep too_much_memory_by_default "(--max-mem; by default the host's memory)" "$TMP/err"
fi
run "$EMU" -q --max-mem 1G $APPC
expect_status max_mem_enough 0
for bad in 12Q 1000 "" 99999999999999999999G; do
    run "$EMU" --max-mem "$bad" $APPC
    expect_status "max_mem_bad_${bad:-empty}_status" 1
    expect_grep "max_mem_bad_${bad:-empty}_message" "emu: --max-mem: '$bad' is" "$TMP/err"
done

# ---- messages are not cut, and a name of a megabyte is shown cut -----------------------
awk 'BEGIN { printf "proc main() is\n  print "; for (i = 0; i < 100000; i++) printf "abcdefghij"; print "" }' >"$TMP/o/long.x"
run "$XC" "$TMP/o/long.x"
expect_status long_name_status 1
expect_grep long_name_cut "long.x:2:9: error: 'abcdefghijabcdefghijabcdefghijabcdefghij...' is not declared" "$TMP/err"
if [ "$(wc -c <"$TMP/err")" -lt 2000 ]; then pass long_name_message_short
else fail long_name_message_short "$(wc -c <"$TMP/err") bytes"; fi
