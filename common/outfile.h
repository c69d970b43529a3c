/* Output files that are whole or not there: every file the tools write (a
 * trace, a web page, a hex image, a sweep's tables and plots) is written to
 * a temporary file in the same directory and renamed over its name only
 * once it is complete, so a run that fails, is refused or is stopped
 * leaves an existing file exactly as it was, and nothing half written.
 *
 * A name that is not a regular file (a device such as /dev/null or
 * /dev/full, a pipe, the terminal, the file stdout already writes) is
 * written in place: renaming over it would replace the device or cut off
 * the reader. A symbolic link keeps being a link: the file it points to is
 * replaced. Nothing is ever removed but the temporary file made here. */
#ifndef COMMON_OUTFILE_H
#define COMMON_OUTFILE_H

#include <stddef.h>
#include <stdio.h>

typedef struct OutFile {
    FILE *f;            /* write here; NULL when not open */
    char *target;       /* the file to replace (a link's target), or NULL */
    char *temp;         /* the temporary file, or NULL when written in place */
} OutFile;

/* Opens `path` for writing. Returns 0, or -1 with a message in err naming
 * the path and the reason. */
int outfile_open(OutFile *o, const char *path, char *err, size_t errlen);

/* Finishes the file: flushes, checks every write, closes, and renames the
 * temporary file over the target. Returns 0, or -1 with a message in err
 * (and then the target is as it was). */
int outfile_commit(OutFile *o, char *err, size_t errlen);

/* Gives up the file: closes it and removes the temporary file, leaving the
 * target as it was. Safe on a file never opened or already finished. */
void outfile_abort(OutFile *o);

/* Whether two output paths name the same file, however spelled: through
 * links (hard or symbolic), `.` and `..`, whether the file exists yet or
 * not. A device or pipe named twice is not counted: writing /dev/null
 * twice loses nothing. */
int outfile_same(const char *a, const char *b);

/* Whether `path` is (through links) the same existing file as `other`. */
int outfile_is_file(const char *path, const char *other);

#endif
