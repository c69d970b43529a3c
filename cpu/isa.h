/* The processor's instruction set: encoding, operation codes and the helpers
 * that every user of the ISA shares -- decoding a byte sequence into
 * instructions (interpreter, disassembler), encoding an operand with the
 * fewest prefixes (compiler) and formatting an instruction for listings.
 * The operations themselves are declared once, in isa.def.
 *
 * One instruction byte (spec/isa.md):
 *
 *      7       4 3       0
 *     +---------+---------+
 *     |   op    |   imm   |     op: ISA_OP(b), one of the 16 IsaOp values
 *     +---------+---------+     imm: ISA_IMM(b), a 4-bit immediate
 *
 * For every byte, oreg := oreg | imm; then PFIX shifts oreg left by 4, NFIX
 * replaces it with its sign-extended nibble shifted left by 4, and any other
 * op executes with operand oreg and clears it. So the operand of an
 * instruction is the concatenation of the immediates of its prefixes and of
 * its last byte, most significant nibble first:
 *
 *     PFIX 1; LDC 6      d1 36      LDC 0x16 = 22
 *     NFIX F; ADJ D      ef ad      ADJ (-16|0xF)<<4 | 0xD = -3
 *     PFIX 1; OPR 1      d1 f1      OPR 0x11 = OUT */
#ifndef CPU_ISA_H
#define CPU_ISA_H

#include <stddef.h>
#include <stdint.h>

#define ISA_OP(byte)        ((unsigned)(byte) >> 4)
#define ISA_IMM(byte)       ((unsigned)(byte) & 0xFu)
#define ISA_BYTE(op, imm)   ((uint8_t)(((unsigned)(op) << 4) | ((unsigned)(imm) & 0xFu)))
#define ISA_MAX_LENGTH      8   /* a 32-bit operand needs at most 7 prefixes */

/* The primary operations, OP_LDWSP .. OP_OPR, numbered by their code. */
typedef enum IsaOp {
#define ISA_PRIMARY(code, name, operand, pops, pushes, effect) OP_##name = code,
#include "cpu/isa.def"
#undef ISA_PRIMARY
} IsaOp;

/* The OPR operations, OPR_ADD .. OPR_SEND, numbered by their operand. */
typedef enum IsaOpr {
#define ISA_OPR(code, name, pops, pushes, effect) OPR_##name = code,
#include "cpu/isa.def"
#undef ISA_OPR
} IsaOpr;

enum { ISA_OPR_LIMIT = 0x1B };  /* OPR operands are below this */

/* How a primary operation's operand is shown (isa.def's operand column). */
typedef enum IsaOperandKind {
    ISA_OPERAND_VALUE, ISA_OPERAND_PCREL, ISA_OPERAND_PREFIX,
    ISA_OPERAND_OPR, ISA_OPERAND_NONE
} IsaOperandKind;

/* What the table says about one operation. */
typedef struct IsaInfo {
    const char *name;       /* mnemonic, e.g. "LDC", "OUT"; NULL if undefined */
    IsaOperandKind operand; /* primary operations only */
    int pops, pushes;       /* operand-stack effect, as the compiler sees it */
    const char *effect;     /* one line of semantics */
} IsaInfo;

extern const IsaInfo isa_primary[16];
extern const IsaInfo isa_opr[ISA_OPR_LIMIT];

/* Bit n set for every defined OPR operation n (all are below 31). */
enum {
    ISA_OPR_DEFINED_MASK = 0
#define ISA_OPR(code, name, pops, pushes, effect) | (1 << (code))
#include "cpu/isa.def"
#undef ISA_OPR
};

/* Whether `n` selects a defined OPR operation (0x0F and >= 0x1B do not). */
static inline int isa_opr_defined(uint32_t n)
{
    return n < ISA_OPR_LIMIT && (((uint32_t)ISA_OPR_DEFINED_MASK >> n) & 1u);
}

/* One instruction of a byte image: its prefixes and its final byte. */
typedef struct IsaInsn {
    uint32_t addr;     /* byte address of its first byte (first prefix) */
    uint32_t length;   /* bytes, prefixes included */
    IsaOp op;          /* the final byte's operation; a prefix if truncated */
    uint32_t operand;  /* the whole operand, prefixes folded in */
    int complete;      /* 0 when the bytes end inside a prefix sequence */
} IsaInsn;

/* Applies one byte to the operand register as the processor does; returns
 * the new oreg for a prefix, or the complete operand for any other op. */
static inline uint32_t isa_fold(uint32_t oreg, uint8_t byte)
{
    oreg |= ISA_IMM(byte);
    switch (ISA_OP(byte)) {
    case OP_PFIX: return oreg << 4;
    case OP_NFIX: return ((~0u << 4) | ISA_IMM(byte)) << 4;
    default:      return oreg;
    }
}

/* Decodes the instruction whose first byte is bytes[pos] (pos < n). Returns
 * its length; an instruction cut off by the end of the bytes is returned
 * with complete = 0 and the prefixes that were there. */
uint32_t isa_decode(const uint8_t *bytes, size_t n, size_t pos, IsaInsn *insn);

/* Encodes `op` with `operand` using the fewest bytes: NFIX first for a
 * negative operand, PFIX only for a non-negative one. Returns the length
 * (1 .. ISA_MAX_LENGTH) and writes the bytes to out. */
uint32_t isa_encode(IsaOp op, uint32_t operand, uint8_t out[ISA_MAX_LENGTH]);

/* Encodes `op` with `operand` in exactly `len` bytes, len at least the
 * length isa_encode would use: the same nibbles after leading prefixes that
 * change nothing (PFIX 0; NFIX F then PFIX F for a negative operand). The
 * compiler uses it to keep a branch at the length its layout settled on. */
void isa_encode_length(IsaOp op, uint32_t operand, uint32_t len, uint8_t *out);

/* The length isa_encode would produce, without writing anything. */
uint32_t isa_encoded_length(IsaOp op, uint32_t operand);

/* Writes the instruction as a listing shows it: "LDC 22", "ADJ -3", "OUT",
 * "LDAP 3   ; -> 000f" (pc-relative operations show their target). */
void isa_format(const IsaInsn *insn, char *buf, size_t size);

#endif
