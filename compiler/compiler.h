/* The compiler of the parallel language (spec/language.md) as a library:
 * what bin/xc and the emulator (`emu prog.x`, compiled in memory) call.
 *
 * A compilation reads the whole source, reports every error it can find
 * gcc-style (file:line:column: error: ..., the line, a caret), and on
 * success yields one processor record per programmed processor, exactly as
 * cpu/hex.h's loader would have read them from the hex file. */
#ifndef COMPILER_COMPILER_H
#define COMPILER_COMPILER_H

#include <stddef.h>
#include <stdint.h>
#include <stdio.h>

#include "cpu/hex.h"

enum {
    COMPILE_MEM_DEFAULT = 200000,   /* --mem when none is given */
    COMPILE_MEM_MIN = 256,          /* the range --mem accepts */
    COMPILE_MEM_MAX = 1 << 28
};

/* A `-D NAME=VALUE` of xc's or emu's command line (docs/language.md,
 * "Setting a val from the command line"): the program's global `val NAME`
 * is VALUE instead of what its declaration says. */
typedef struct CompileDefine {
    const char *arg;      /* "NAME=VALUE" as given, for messages */
    size_t len;           /* NAME is arg's first len bytes */
    uint32_t value;       /* the word VALUE means */
} CompileDefine;

/* Reads a -D's "NAME=VALUE" into *def, which points into arg: 0, or -1
 * with a one-line message in err that names the -D. NAME is a name of the
 * language, not a keyword; VALUE an integer from -2^31 to 2^32 - 1,
 * decimal or '#' and hex digits, with an optional '-'. */
int compile_define_parse(const char *arg, CompileDefine *def, char *err, size_t size);

/* Compiles `text` (len bytes) read from `filename` for processors of
 * `mem_words` words. On success fills *img (records for processor 0, 1, ...;
 * free with hex_free from cpu/hex.h) and returns 0. On error writes every
 * message, gcc-style, to `errors` and returns the number of errors (> 0). */
int compile_program(const char *filename, const char *text, size_t len,
                    uint32_t mem_words, HexImage *img, FILE *errors);

/* The same with the global vals of defs[0 .. ndefs - 1] set; when several
 * name one val, the last counts (as a C compiler's -D). A define whose
 * NAME is no global val of the program is an error, and when there is any
 * error each val set gets a note saying so, at its declaration. */
int compile_program_with(const char *filename, const char *text, size_t len,
                         uint32_t mem_words, const CompileDefine *defs, size_t ndefs,
                         HexImage *img, FILE *errors);

/* Writes img as a hex file: a comment line naming the source, the --mem
 * and the -D used, and a comment line before each processor record.
 * Returns 0 or -1. */
int compile_write_hex(FILE *out, const HexImage *img, const char *source_name,
                      uint32_t mem_words, const CompileDefine *defs, size_t ndefs);

/* Writes the assembly listing of `xc -S` (the same format as `emu
 * --disasm`, cpu/disasm.h): per processor a heading, the data word and one
 * line per instruction. Returns 0 or -1 (a write error). */
int compile_write_listing(FILE *out, const HexImage *img);

/* Reads and compiles a file; a file that cannot be read is one error,
 * written to `errors` after the name of the `tool` that reads it, as that
 * tool's other messages are ("xc: prog.x: cannot open: ..."). Returns as
 * compile_program does. */
int compile_file(const char *path, uint32_t mem_words, HexImage *img, FILE *errors,
                 const char *tool);

/* compile_file with defines, as compile_program_with. */
int compile_file_with(const char *path, uint32_t mem_words, const CompileDefine *defs,
                      size_t ndefs, HexImage *img, FILE *errors, const char *tool);

#endif
