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

/* Compiles `text` (len bytes) read from `filename` for processors of
 * `mem_words` words. On success fills *img (records for processor 0, 1, ...;
 * free with hex_free from cpu/hex.h) and returns 0. On error writes every
 * message, gcc-style, to `errors` and returns the number of errors (> 0). */
int compile_program(const char *filename, const char *text, size_t len,
                    uint32_t mem_words, HexImage *img, FILE *errors);

/* Writes img as a hex file: a comment line naming the source and the --mem
 * used, and a comment line before each processor record. Returns 0 or -1. */
int compile_write_hex(FILE *out, const HexImage *img, const char *source_name,
                      uint32_t mem_words);

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

#endif
