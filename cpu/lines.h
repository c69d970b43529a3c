/* Source lines of an image: which line of which procedure of the .x source
 * each instruction of each processor record was compiled from, so that a
 * fault, a wait, a state or a listing can name the place in the program the
 * student wrote ("jacobi.x:23:14, in proc relax") rather than only a byte
 * address.
 *
 * The compiler makes the table beside the image it compiles (HexImage.lines,
 * cpu/hex.h); a hex file carries none. Per record it is a list of entries
 * sorted by address, each saying where the instructions from its address to
 * the next entry's come from; the last entry ends the code. Records whose
 * lists are the same (the branches of a `network i for n` mostly are) share
 * one list, as a machine of a million processors may run one program. */
#ifndef CPU_LINES_H
#define CPU_LINES_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

/* Where the code from `addr` on comes from. */
typedef struct LineEntry {
    uint32_t addr;        /* byte address of its first instruction */
    uint32_t line, col;   /* 1-based source position; line 0: the start-up
                             code, which no source line holds */
    uint32_t proc;        /* index of the enclosing procedure in
                             LineTable.procs; LINES_NO_CODE after the code */
} LineEntry;

enum { LINES_NO_CODE = UINT32_MAX };

typedef struct LineTable {
    char *file;           /* the source's name, as messages show it */
    char *text;           /* the source, for listings */
    size_t len;
    size_t *line_starts;  /* offset of each line in text: line n at [n - 1] */
    uint32_t nlines;
    char **procs;         /* "proc main", "func r", ...: by source order */
    uint32_t nprocs;
    LineEntry *entries;   /* every list, one after the other */
    size_t nentries, cap;
    size_t *list_start;   /* list i is entries[list_start[i] .. list_start[i + 1]) */
    uint32_t nlists, lists_cap;
    uint32_t *list_of;    /* per record: its list */
    uint32_t count, count_cap;  /* records */
    size_t open;          /* where the list being added starts */
    bool failed;          /* out of memory while it was made */
} LineTable;

/* A table for the source `text` (len bytes) of `file`, with room for the
 * names of `nprocs` procedures (set them with lines_set_proc). NULL when
 * out of memory. */
LineTable *lines_new(const char *file, const char *text, size_t len, uint32_t nprocs);
void lines_free(LineTable *t);

/* The characters of a name shown, here and in the compiler's messages; a
 * longer one is cut there with "...". */
enum { LINES_NAME_SHOWN = 40 };

/* Names procedure `index`: kind "proc" or "func", and its name. */
void lines_set_proc(LineTable *t, uint32_t index, const char *kind, const char *name,
                    size_t len);

/* Adds an entry to the list of the record being made (addresses must not
 * decrease; an entry that says what the one before it says is dropped). */
void lines_add(LineTable *t, uint32_t addr, uint32_t line, uint32_t col, uint32_t proc);

/* Ends the record's list: its code ends at `end`. The list is shared with
 * the previous record's when they are the same. */
void lines_end_record(LineTable *t, uint32_t end);

/* The entry for byte address `addr` of record `rec`; false when the address
 * is not in that record's code (or there is no table). */
bool lines_find(const LineTable *t, uint32_t rec, uint32_t addr, LineEntry *out);

/* Describes where the instruction at `addr` of record `rec` comes from:
 * "prog.x:3:14, in proc main", or "start-up code". Returns false, with buf
 * empty, when the table does not say. */
bool lines_describe(const LineTable *t, uint32_t rec, uint32_t addr, char *buf, size_t size);

/* Source line n (1-based) without its newline: its start and *len; NULL
 * when there is no such line. */
const char *lines_text(const LineTable *t, uint32_t n, size_t *len);

#endif
