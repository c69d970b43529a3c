/* The tables generated from isa.def and the shared encode/decode/format
 * helpers of isa.h. */
#include "cpu/isa.h"

#include <stdio.h>

const IsaInfo isa_primary[16] = {
#define ISA_PRIMARY(code, name, operand, pops, pushes, effect) \
    [code] = { #name, ISA_OPERAND_##operand, pops, pushes, effect },
#include "cpu/isa.def"
#undef ISA_PRIMARY
};

const IsaInfo isa_opr[ISA_OPR_LIMIT] = {
#define ISA_OPR(code, name, pops, pushes, effect) \
    [code] = { #name, ISA_OPERAND_NONE, pops, pushes, effect },
#include "cpu/isa.def"
#undef ISA_OPR
};

uint32_t isa_decode(const uint8_t *bytes, size_t n, size_t pos, IsaInsn *insn)
{
    uint32_t oreg = 0;
    size_t at = pos;
    insn->addr = (uint32_t)pos;
    for (;;) {
        uint8_t b = bytes[at++];
        oreg = isa_fold(oreg, b);
        insn->op = (IsaOp)ISA_OP(b);
        if (insn->op != OP_PFIX && insn->op != OP_NFIX) {
            insn->complete = 1;
            break;
        }
        if (at >= n) {          /* the bytes end inside a prefix sequence */
            insn->complete = 0;
            break;
        }
    }
    insn->operand = oreg;
    insn->length = (uint32_t)(at - pos);
    return insn->length;
}

/* Number of nibbles needed: for v >= 0 the fewest n with v < 16^n; for
 * v < 0 the fewest n >= 2 whose top nibble, sign-extended (what NFIX
 * supplies: a value in [-16, -1]), gives v, i.e. v >> 4(n-1) >= -16 with an
 * arithmetic shift. Since ~(v >> s) == (~v) >> s, that is (~v) >> 4(n-1)
 * <= 15, which needs only unsigned arithmetic. */
static uint32_t nibbles(uint32_t operand)
{
    uint32_t n;
    if ((int32_t)operand >= 0) {
        n = 1;
        while (n < 8 && (operand >> (4 * n)) != 0)
            n++;
    } else {
        n = 2;
        while (n < 8 && (~operand >> (4 * (n - 1))) > 15u)
            n++;
    }
    return n;
}

uint32_t isa_encoded_length(IsaOp op, uint32_t operand)
{
    (void)op;
    return nibbles(operand);
}

void isa_encode_length(IsaOp op, uint32_t operand, uint32_t len, uint8_t *out)
{
    int negative = (int32_t)operand < 0;
    for (uint32_t i = 0; i < len; i++) {
        uint32_t shift = 4 * (len - 1 - i);
        /* Above bit 31, a longer sequence repeats the sign: PFIX 0 for a
         * non-negative operand, NFIX F then PFIX F for a negative one. */
        unsigned nib = shift >= 32 ? (negative ? 0xFu : 0u) : (operand >> shift) & 0xFu;
        IsaOp this_op = i + 1 == len ? op : (i == 0 && negative ? OP_NFIX : OP_PFIX);
        out[i] = ISA_BYTE(this_op, nib);
    }
}

uint32_t isa_encode(IsaOp op, uint32_t operand, uint8_t out[ISA_MAX_LENGTH])
{
    uint32_t n = nibbles(operand);
    isa_encode_length(op, operand, n, out);
    return n;
}

void isa_format(const IsaInsn *insn, char *buf, size_t size)
{
    const IsaInfo *info = &isa_primary[insn->op];
    char text[40];
    if (!insn->complete) {
        snprintf(buf, size, "%s %d  ; prefix without an instruction",
                 info->name, (int)insn->operand);
        return;
    }
    switch (info->operand) {
    case ISA_OPERAND_OPR:
        if (isa_opr_defined(insn->operand))
            snprintf(buf, size, "%s", isa_opr[insn->operand].name);
        else
            snprintf(buf, size, "OPR %u  ; illegal", insn->operand);
        return;
    case ISA_OPERAND_PCREL:
        snprintf(text, sizeof text, "%s %d", info->name, (int32_t)insn->operand);
        snprintf(buf, size, "%-8s ; -> %04x", text,
                 (unsigned)(insn->addr + insn->length + insn->operand));
        return;
    case ISA_OPERAND_NONE:
        snprintf(buf, size, "%s %d  ; illegal", info->name, (int32_t)insn->operand);
        return;
    case ISA_OPERAND_VALUE:
    case ISA_OPERAND_PREFIX:
        snprintf(buf, size, "%s %d", info->name, (int32_t)insn->operand);
        return;
    }
}
