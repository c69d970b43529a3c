/* Instruction lists and their layout into bytes.
 *
 * The code generator appends instructions whose operands may not be known
 * yet: a branch to a label, the address of a procedure (LDAP), or a number
 * that depends on a procedure's frame size (ADJ -F, or a store into a
 * callee's frame). asm_layout places a sequence of such lists one after the
 * other, resolves every operand and encodes each instruction with the fewest
 * prefixes (spec/language.md): pc-relative operands start at one byte and are
 * only ever lengthened, pass after pass, until no length changes. */
#ifndef COMPILER_ASM_H
#define COMPILER_ASM_H

#include <stddef.h>
#include <stdint.h>

#include "compiler/internal.h"
#include "cpu/lines.h"

typedef enum AsmOperand {
    ASM_IMM,     /* value */
    ASM_LABEL,   /* pc-relative to label `label` of the same list */
    ASM_PROC,    /* pc-relative to the first instruction of `proc` */
    ASM_FRAME    /* value - F(proc) (negate) or value + F(proc) */
} AsmOperand;

typedef struct AsmInsn {
    uint8_t op;          /* IsaOp */
    uint8_t kind;        /* AsmOperand */
    uint8_t negate;      /* ASM_FRAME: subtract the frame size */
    uint32_t value;      /* ASM_IMM, ASM_FRAME: the (added) number */
    uint32_t label;      /* ASM_LABEL */
    Proc *proc;          /* ASM_PROC, ASM_FRAME */
    uint32_t line, col;  /* the source it was compiled from (set by asm_emit) */
} AsmInsn;

/* One procedure's (or the start-up code's) instructions. */
typedef struct AsmCode {
    AsmInsn *insns;
    size_t count, cap;
    uint32_t *labels;    /* label -> index of the instruction it precedes */
    size_t nlabels, lcap;
    Proc **calls;        /* procedures it calls, each once */
    size_t ncalls, ccap;
    Proc *proc;          /* whose code it is (NULL for the start-up code) */
    SrcPos pos;          /* the source of the instructions emitted now (line
                            0 for the start-up code) */
    int failed;          /* out of memory */
} AsmCode;

/* Appends an instruction, compiled from the source at c->pos. */
void asm_emit(AsmCode *c, AsmInsn insn);
uint32_t asm_new_label(AsmCode *c);
void asm_place_label(AsmCode *c, uint32_t label);
void asm_add_call(AsmCode *c, Proc *callee);
void asm_free(AsmCode *c);

/* Lays out `n` lists in order after `base` bytes (the data word), each
 * list's procedure starting at its first instruction, and appends the bytes
 * to *out (a malloc'ed buffer of *len bytes, grown as needed). Each
 * instruction's address and source go into `lines` (if not NULL), as the
 * entries of the record being made. Returns 0, or -1 when out of memory. */
int asm_layout(AsmCode *const *lists, size_t n, uint32_t base, uint8_t **out, size_t *len,
               size_t *cap, LineTable *lines);

#endif
