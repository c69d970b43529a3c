#!/bin/sh
# Makes C source that holds the web page's parts (emu/page/) as strings, so
# that bin/emu carries them and a page it writes needs no other file.
#
#   sh emu/page/embed.sh NAME FILE [NAME FILE ...] > page.c
#
# Each FILE becomes `const char NAME[]`, one string literal per line. Only
# sed: backslashes and quotes are escaped, and '?' too, because C11 reads
# "??)" and its like as trigraphs.
echo '/* Made by emu/page/embed.sh from the files of emu/page/: edit those. */'
echo '#include "emu/page/page.h"'
while [ $# -ge 2 ]; do
    echo
    echo "const char $1[] ="
    sed -e 's/\\/\\\\/g' -e 's/"/\\"/g' -e 's/?/\\?/g' -e 's/^/"/' -e 's/$/\\n"/' "$2" || exit 1
    echo '"";'
    shift 2
done
