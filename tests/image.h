/* Building small hex images in tests without the compiler: a program is a
 * byte buffer filled with asm_op calls (minimal prefixes, by isa_encode),
 * and an image is one record per processor, entry word 0. */
#ifndef TESTS_IMAGE_H
#define TESTS_IMAGE_H

#include <stdlib.h>
#include <string.h>

#include "cpu/hex.h"
#include "cpu/isa.h"

typedef struct Program {
    uint8_t bytes[256];
    uint32_t n;
} Program;

/* Appends one instruction; returns the address of its first byte. */
static inline uint32_t asm_op(Program *p, IsaOp op, uint32_t operand)
{
    uint32_t at = p->n;
    p->n += isa_encode(op, operand, p->bytes + p->n);
    return at;
}

static inline uint32_t asm_opr(Program *p, IsaOpr opr)
{
    return asm_op(p, OP_OPR, opr);
}

/* Appends BR or BRT to `target`, backwards: the operand is relative to the
 * end of the branch, whose length depends on the operand, so the shortest
 * consistent encoding is the one taken. */
static inline void asm_branch_back(Program *p, IsaOp op, uint32_t target)
{
    for (uint32_t len = 1; len <= ISA_MAX_LENGTH; len++) {
        uint32_t off = target - (p->n + len);
        if (isa_encoded_length(op, off) == len) {
            asm_op(p, op, off);
            return;
        }
    }
}

/* An image of `count` records from programs[0..count-1] (entry word 0). */
static inline void image_build(HexImage *img, const Program *programs, uint32_t count)
{
    size_t total = 0;
    for (uint32_t i = 0; i < count; i++)
        total += 8 + programs[i].n;
    img->bytes = malloc(total);
    img->nbytes = total;
    img->records = malloc(count * sizeof *img->records);
    img->count = count;
    img->lines = NULL;
    size_t at = 0;
    for (uint32_t i = 0; i < count; i++) {
        uint32_t n = programs[i].n;
        uint8_t header[8] = { (uint8_t)n, (uint8_t)(n >> 8), 0, 0, 0, 0, 0, 0 };
        memcpy(img->bytes + at, header, 8);
        memcpy(img->bytes + at + 8, programs[i].bytes, n);
        img->records[i] = (HexRecord){ n, 0, img->bytes + at + 8 };
        at += 8 + n;
    }
}

#endif
