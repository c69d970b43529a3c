/* Unit tests of the ISA table and the shared encode/decode/format helpers. */
#include "cpu/isa.h"
#include "tests/check.h"

static void table_matches_spec(void)
{
    CHECK_STR(isa_primary[0x3].name, "LDC");
    CHECK_STR(isa_primary[0xA].name, "ADJ");
    CHECK_STR(isa_primary[0xD].name, "PFIX");
    CHECK_STR(isa_primary[0xF].name, "OPR");
    CHECK_STR(isa_opr[0x10].name, "IN");
    CHECK_STR(isa_opr[0x11].name, "OUT");
    CHECK_STR(isa_opr[0x18].name, "NPROC");
    CHECK_STR(isa_opr[0x19].name, "MOUT");
    CHECK_STR(isa_opr[0x1A].name, "SEND");
    CHECK_EQ(isa_opr[0x1A].pops, 2);
    CHECK_EQ(isa_opr[0x1A].pushes, 0);
    CHECK_EQ(ISA_OPR_LIMIT, 0x1B);
    CHECK(!isa_opr_defined(0x0F));
    CHECK(isa_opr_defined(0x1A));
    CHECK(!isa_opr_defined(0x1B));
    CHECK(!isa_opr_defined(0xFFFFFFFFu));
    for (uint32_t n = 0; n < ISA_OPR_LIMIT; n++)
        CHECK(isa_opr_defined(n) == (n != 0x0F));
}

/* Minimal encodings, including those printed in Figure 8. */
static void encode_minimal(void)
{
    uint8_t b[ISA_MAX_LENGTH];
    CHECK_EQ(isa_encode(OP_LDC, 22, b), 2);
    CHECK_EQ(b[0], 0xd1);
    CHECK_EQ(b[1], 0x36);
    CHECK_EQ(isa_encode(OP_ADJ, (uint32_t)-3, b), 2);
    CHECK_EQ(b[0], 0xef);
    CHECK_EQ(b[1], 0xad);
    CHECK_EQ(isa_encode(OP_OPR, OPR_OUT, b), 2);
    CHECK_EQ(b[0], 0xd1);
    CHECK_EQ(b[1], 0xf1);
    CHECK_EQ(isa_encode(OP_LDC, 0, b), 1);
    CHECK_EQ(b[0], 0x30);
    CHECK_EQ(isa_encode(OP_LDC, 15, b), 1);
    CHECK_EQ(isa_encode(OP_LDC, 16, b), 2);
    CHECK_EQ(isa_encode(OP_LDC, 255, b), 2);
    CHECK_EQ(isa_encode(OP_LDC, 256, b), 3);
    CHECK_EQ(isa_encode(OP_LDC, (uint32_t)-1, b), 2);      /* NFIX F; LDC F */
    CHECK_EQ(b[0], 0xef);
    CHECK_EQ(b[1], 0x3f);
    CHECK_EQ(isa_encode(OP_LDC, (uint32_t)-16, b), 2);
    CHECK_EQ(isa_encode(OP_LDC, (uint32_t)-256, b), 2);     /* NFIX 0; LDC 0 */
    CHECK_EQ(b[0], 0xe0);
    CHECK_EQ(isa_encode(OP_LDC, (uint32_t)-257, b), 3);
    CHECK_EQ(isa_encode(OP_LDC, 0x7FFFFFFFu, b), 8);
    CHECK_EQ(isa_encode(OP_LDC, 0x80000000u, b), 8);
    CHECK_EQ(b[0], 0xe8);                                   /* NFIX 8 */
    CHECK_EQ(isa_encoded_length(OP_LDC, 200000), 5);        /* d3 d0 dd d4 30 */
    CHECK_EQ(isa_encode(OP_LDC, 200000, b), 5);
    CHECK_EQ(b[0], 0xd3);
    CHECK_EQ(b[4], 0x30);
}

/* Every encoding decodes back to its operand, and no shorter sequence of
 * the allowed shape exists (checked by comparing with a brute-force count
 * over small magnitudes). */
static void encode_decode_round_trip(void)
{
    for (int64_t v = -70000; v <= 70000; v += 7) {
        uint8_t b[ISA_MAX_LENGTH];
        uint32_t n = isa_encode(OP_LDC, (uint32_t)v, b);
        IsaInsn insn;
        CHECK_EQ(isa_decode(b, n, 0, &insn), n);
        CHECK_EQ(insn.operand, (uint32_t)v);
        CHECK_EQ(insn.op, OP_LDC);
        CHECK(insn.complete);
        /* NFIX only ever starts a sequence. */
        for (uint32_t i = 1; i < n; i++)
            CHECK(ISA_OP(b[i]) != OP_NFIX);
        /* The fewest nibbles: v fits in n nibbles and not in n-1. A
         * negative operand of n nibbles lies in [-16^n, -1] (NFIX supplies
         * a top nibble of -16 .. -1). */
        int64_t lo = v < 0 ? -((int64_t)1 << (4 * n)) : 0;
        int64_t hi = (int64_t)1 << (4 * n);
        CHECK(v >= lo && v < hi);
        if (n > 1 && v >= 0)
            CHECK(v >= (int64_t)1 << (4 * (n - 1)));
        if (n > 2 && v < 0)
            CHECK(v < -((int64_t)1 << (4 * (n - 1))));
    }
}

/* Padded encodings (the compiler keeps a branch at a settled length) decode
 * to the same operand at every length from the minimal one to 8. */
static void padded_encodings(void)
{
    const int64_t values[] = { 0, 1, 15, 16, -1, -3, -16, -17, -256, -257, 4095, 200000,
                               -200000, INT32_MAX, INT32_MIN };
    for (size_t i = 0; i < sizeof values / sizeof values[0]; i++) {
        uint32_t v = (uint32_t)values[i];
        for (uint32_t len = isa_encoded_length(OP_BR, v); len <= ISA_MAX_LENGTH; len++) {
            uint8_t b[ISA_MAX_LENGTH];
            IsaInsn insn;
            isa_encode_length(OP_BR, v, len, b);
            CHECK_EQ(isa_decode(b, len, 0, &insn), len);
            CHECK_EQ(insn.operand, v);
            CHECK_EQ(insn.op, OP_BR);
            for (uint32_t j = 1; j < len; j++)
                CHECK(ISA_OP(b[j]) != OP_NFIX);
        }
    }
}

static void format_instructions(void)
{
    char buf[64];
    static const uint8_t ldap[] = { 0x53 };
    IsaInsn insn;
    isa_decode(ldap, 1, 0, &insn);
    insn.addr = 0x0b;
    isa_format(&insn, buf, sizeof buf);
    CHECK_STR(buf, "LDAP 3   ; -> 000f");
    static const uint8_t adj[] = { 0xef, 0xad };
    isa_decode(adj, 2, 0, &insn);
    isa_format(&insn, buf, sizeof buf);
    CHECK_STR(buf, "ADJ -3");
    static const uint8_t out[] = { 0xd1, 0xf1 };
    isa_decode(out, 2, 0, &insn);
    isa_format(&insn, buf, sizeof buf);
    CHECK_STR(buf, "OUT");
    static const uint8_t send[] = { 0xd1, 0xfa };
    isa_decode(send, 2, 0, &insn);
    isa_format(&insn, buf, sizeof buf);
    CHECK_STR(buf, "SEND");
    static const uint8_t past[] = { 0xd1, 0xfb };
    isa_decode(past, 2, 0, &insn);
    isa_format(&insn, buf, sizeof buf);
    CHECK_STR(buf, "OPR 27  ; illegal");
    static const uint8_t bad[] = { 0xff };
    isa_decode(bad, 1, 0, &insn);
    isa_format(&insn, buf, sizeof buf);
    CHECK_STR(buf, "OPR 15  ; illegal");
    static const uint8_t cut[] = { 0xd1, 0xd2 };
    CHECK_EQ(isa_decode(cut, 2, 0, &insn), 2);
    CHECK(!insn.complete);
}

int main(void)
{
    RUN(table_matches_spec);
    RUN(encode_minimal);
    RUN(encode_decode_round_trip);
    RUN(padded_encodings);
    RUN(format_instructions);
    return CHECK_EXIT();
}
