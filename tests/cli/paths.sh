# Every file that the docs, the hex files the compiler writes and the tools'
# help name is in the repository, so that a reader who follows a path finds
# the file: the targets of the links of README.md and docs/*.md (from the
# doc's folder), and the paths written out in them, in a hex header and in
# `--help` and `--version` (from the repository's root). A path written out
# is a word with a folder and an extension (`docs/processor.md`,
# `programs/appendix_c.x`); one under `/` (`/tmp/...`) is not the
# repository's.
. tests/lib.sh

# link_targets DOC: the relative targets of DOC's links, without #anchors.
link_targets() {
    grep -oE '\]\([^)]+\)' "$1" | sed 's/^](//; s/)$//; s/#.*//' |
        grep -vE '^(https?:|mailto:|$)'
}

# written_paths FILE: the paths written out in FILE, outside link targets.
written_paths() {
    sed 's/](\([^)]*\))/]/g' "$1" |
        grep -oE '(^|[^A-Za-z0-9_./-])[A-Za-z0-9_][A-Za-z0-9_.-]*(/[A-Za-z0-9_.-]+)+\.(md|c|h|def|x|hex|sh|csv|expected)([^A-Za-z0-9_]|$)' |
        sed -E 's/^[^A-Za-z0-9_]//; s/[^A-Za-z0-9_]$//'
}

# check_paths NAME FILE FOLDER: the paths FILE names, its link targets taken
# from FOLDER, must exist.
check_paths() {
    name=$1; file=$2; folder=$3
    missing=""
    for target in $(link_targets "$file"); do
        [ -e "$folder/$target" ] || missing="$missing $target"
    done
    for path in $(written_paths "$file"); do
        [ -e "$path" ] || missing="$missing $path"
    done
    if [ -z "$missing" ]; then pass "$name"
    else fail "$name" "$file names what is not in the repository:$missing"; fi
}

for doc in README.md docs/*.md; do
    check_paths "paths_$(printf '%s' "$doc" | tr -c 'a-zA-Z0-9' '_')" "$doc" "$(dirname "$doc")"
done

"$XC" -o "$TMP/ac.hex" programs/appendix_c.x
grep '^#' "$TMP/ac.hex" >"$TMP/header"
check_paths paths_hex_header "$TMP/header" .

"$XC" --help >"$TMP/xc_help"; "$XC" --version >>"$TMP/xc_help"
check_paths paths_xc_help "$TMP/xc_help" .
"$EMU" --help >"$TMP/emu_help"; "$EMU" --version >>"$TMP/emu_help"
check_paths paths_emu_help "$TMP/emu_help" .

# The check itself finds what is missing, and only that.
printf 'See spec/isa.md and [the machine](nowhere.md), not /tmp/x.md or [this](bad.md#top).\n' >"$TMP/bad.md"
check_paths self "$TMP/bad.md" "$TMP" >"$TMP/self"
if grep -qxF "  $TMP/bad.md names what is not in the repository: nowhere.md spec/isa.md" \
   "$TMP/self"; then pass paths_check_finds_missing
else fail paths_check_finds_missing "$(cat "$TMP/self")"; fi
