/* The disassembler: the listing of spec/cli.md for a hex image, shared by
 * `emu --disasm` and the compiler's `xc -S`.
 *
 *     processor 0: 30 bytes, entry word 1
 *     0000: 40 0d 03 00  .word 200000
 *     0004: 30       LDC 0
 *     0010: ef ad    ADJ -3
 *     000b: 53       LDAP 3   ; -> 000f
 *
 * Each line: the hex address of the instruction's first byte, its bytes, the
 * mnemonic with the whole operand (prefixes folded in); BR, BRT and LDAP
 * show their target. Words before the entry are data. A program compiled
 * in this run also shows its source lines. */
#ifndef CPU_DISASM_H
#define CPU_DISASM_H

#include <stdint.h>
#include <stdio.h>

#include "cpu/hex.h"
#include "cpu/lines.h"

/* Formats one line for the instruction at bytes[pos] of an image of n bytes
 * into buf (without a newline); returns the instruction's length. */
uint32_t disasm_line(const uint8_t *bytes, size_t n, size_t pos, char *buf, size_t size);

/* Lists one processor record; with the image's source lines (or NULL),
 * each source line is shown before the instructions compiled from it, as
 * objdump -S does:
 *
 *     ; appendix_c.x:4:     { 2 ! 22; 0 ? in } &
 *     0013: d1 36    LDC 22
 *
 * and the start-up code under "; start-up code". */
void disasm_record(FILE *out, uint32_t proc, const HexRecord *rec, const LineTable *lines);

/* Lists every record of an image, separated by blank lines, with its source
 * lines when it has them. */
void disasm_image(FILE *out, const HexImage *img);

#endif
