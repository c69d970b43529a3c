/* Instruction lists and their layout (asm.h).
 *
 * Layout is the classic branch relaxation, growing only: every pc-relative
 * instruction starts one byte long; each pass computes all addresses, and
 * any instruction whose offset no longer fits its length is lengthened.
 * Offsets are measured from the end of the instruction (the pc after it), so
 * lengthening an instruction never changes its own forward offset but
 * lengthens a backward one. As lengths only grow, magnitudes of offsets only
 * grow, so the passes stop (at most 7 growths per instruction) and at the
 * end each length is exactly the minimal one for its final offset. */
#include "compiler/asm.h"

#include <stdlib.h>
#include <string.h>

#include "cpu/isa.h"

/* Grows a malloc'ed array to hold one more element. */
static int grow(void **items, size_t *cap, size_t count, size_t size)
{
    if (count < *cap)
        return 0;
    size_t n = *cap ? 2 * *cap : 64;
    void *p = realloc(*items, n * size);
    if (!p)
        return -1;
    *items = p;
    *cap = n;
    return 0;
}

void asm_emit(AsmCode *c, AsmInsn insn)
{
    if (grow((void **)&c->insns, &c->cap, c->count, sizeof insn) != 0) {
        c->failed = 1;
        return;
    }
    insn.line = c->pos.line;
    insn.col = c->pos.col;
    c->insns[c->count++] = insn;
}

uint32_t asm_new_label(AsmCode *c)
{
    if (grow((void **)&c->labels, &c->lcap, c->nlabels, sizeof *c->labels) != 0) {
        c->failed = 1;
        return 0;
    }
    c->labels[c->nlabels] = 0;
    return (uint32_t)c->nlabels++;
}

void asm_place_label(AsmCode *c, uint32_t label)
{
    if (label < c->nlabels)
        c->labels[label] = (uint32_t)c->count;
}

void asm_add_call(AsmCode *c, Proc *callee)
{
    for (size_t i = 0; i < c->ncalls; i++)
        if (c->calls[i] == callee)
            return;
    if (grow((void **)&c->calls, &c->ccap, c->ncalls, sizeof *c->calls) != 0) {
        c->failed = 1;
        return;
    }
    c->calls[c->ncalls++] = callee;
}

void asm_free(AsmCode *c)
{
    free(c->insns);
    free(c->labels);
    free(c->calls);
    memset(c, 0, sizeof *c);
}

/* The operand of a non-pc-relative instruction. */
static uint32_t fixed_operand(const AsmInsn *in)
{
    if (in->kind == ASM_FRAME)
        return in->negate ? in->value - in->proc->frame : in->value + in->proc->frame;
    return in->value;
}

/* The state of one layout: every instruction of every list, flattened. */
typedef struct Layout {
    AsmCode *const *lists;
    size_t n;             /* lists */
    size_t total;         /* instructions */
    size_t *first;        /* index of each list's first instruction (n + 1) */
    uint8_t *len;         /* length of each instruction */
    uint32_t *addr;       /* address of each instruction (total + 1) */
} Layout;

/* Assigns addresses from the current lengths. */
static void place(Layout *l, uint32_t base)
{
    uint32_t pos = base;
    for (size_t i = 0; i < l->n; i++) {
        if (l->lists[i]->proc)
            l->lists[i]->proc->addr = pos;
        for (size_t k = l->first[i]; k < l->first[i + 1]; k++) {
            l->addr[k] = pos;
            pos += l->len[k];
        }
    }
    l->addr[l->total] = pos;
}

/* The target address of a pc-relative instruction k of list i. */
static uint32_t target_of(const Layout *l, size_t i, const AsmInsn *in)
{
    if (in->kind == ASM_PROC)
        return in->proc->addr;
    return l->addr[l->first[i] + l->lists[i]->labels[in->label]];
}

/* One relaxation pass; returns whether any length grew. */
static int relax(Layout *l)
{
    int grew = 0;
    for (size_t i = 0; i < l->n; i++) {
        const AsmCode *c = l->lists[i];
        for (size_t j = 0; j < c->count; j++) {
            const AsmInsn *in = &c->insns[j];
            if (in->kind != ASM_LABEL && in->kind != ASM_PROC)
                continue;
            size_t k = l->first[i] + j;
            uint32_t offset = target_of(l, i, in) - (l->addr[k] + l->len[k]);
            uint32_t need = isa_encoded_length((IsaOp)in->op, offset);
            if (need > l->len[k]) {
                l->len[k] = (uint8_t)need;
                grew = 1;
            }
        }
    }
    return grew;
}

/* Writes every instruction's bytes at out (addresses relative to base),
 * and its address and source into `lines` (if not NULL). */
static void encode_all(const Layout *l, uint32_t base, uint8_t *out, LineTable *lines)
{
    for (size_t i = 0; i < l->n; i++) {
        const AsmCode *c = l->lists[i];
        for (size_t j = 0; j < c->count; j++) {
            const AsmInsn *in = &c->insns[j];
            size_t k = l->first[i] + j;
            uint32_t operand = in->kind == ASM_LABEL || in->kind == ASM_PROC ?
                target_of(l, i, in) - (l->addr[k] + l->len[k]) : fixed_operand(in);
            isa_encode_length((IsaOp)in->op, operand, l->len[k], out + (l->addr[k] - base));
            if (lines)
                lines_add(lines, l->addr[k], in->line, in->col, c->proc ? c->proc->index : 0);
        }
    }
}

int asm_layout(AsmCode *const *lists, size_t n, uint32_t base, uint8_t **out, size_t *len,
               size_t *cap, LineTable *lines)
{
    Layout l = { .lists = lists, .n = n };
    l.first = malloc((n + 1) * sizeof *l.first);
    if (!l.first)
        return -1;
    for (size_t i = 0; i < n; i++) {
        l.first[i] = l.total;
        l.total += lists[i]->count;
    }
    l.first[n] = l.total;
    l.len = malloc(l.total + 1);
    l.addr = malloc((l.total + 1) * sizeof *l.addr);
    int rc = -1;
    if (!l.len || !l.addr)
        goto done;
    for (size_t i = 0; i < n; i++)
        for (size_t j = 0; j < lists[i]->count; j++) {
            const AsmInsn *in = &lists[i]->insns[j];
            l.len[l.first[i] + j] = in->kind == ASM_LABEL || in->kind == ASM_PROC ? 1 :
                (uint8_t)isa_encoded_length((IsaOp)in->op, fixed_operand(in));
        }
    do
        place(&l, base);
    while (relax(&l));
    size_t bytes = l.addr[l.total] - base;
    while (*len + bytes > *cap) {
        size_t ncap = *cap ? 2 * *cap : 4096;
        uint8_t *p = realloc(*out, ncap);
        if (!p)
            goto done;
        *out = p;
        *cap = ncap;
    }
    encode_all(&l, base, *out + *len, lines);
    *len += bytes;
    rc = 0;
done:
    free(l.first);
    free(l.len);
    free(l.addr);
    return rc;
}
