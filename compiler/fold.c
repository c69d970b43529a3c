/* The binary operators' table, and constant folding, exactly as the machine
 * computes (spec/isa.md): words are 32 bits and wrap; < <= > >= compare
 * signed; / truncates towards zero with INT_MIN / -1 = INT_MIN and
 * INT_MIN % -1 = 0; << and >> (logical) give 0 for a shift of 32 or more,
 * the count read unsigned; a comparison is 1 or 0.
 * Everything is computed on uint32_t so that no C overflow can occur. */
#include "compiler/internal.h"

#include <limits.h>

/* The signed meaning of a word, without the implementation-defined
 * conversion of an out-of-range unsigned value. */
static int32_t as_signed(uint32_t x)
{
    return x <= INT32_MAX ? (int32_t)x : (int32_t)(x - 0x80000000u) + INT32_MIN;
}

/* BINARY_OPERATORS as a table indexed by BinOp. */
static const struct {
    TokKind token;        /* how the operator is written */
    int associative;      /* may be repeated: a + b + c */
} binops[] = {
#define BINOP_ROW(name, token, assoc) [BIN_##name] = { TK_##token, assoc },
    BINARY_OPERATORS(BINOP_ROW)
#undef BINOP_ROW
};

int binop_from_token(TokKind k, BinOp *op)
{
    for (size_t i = 0; i < sizeof binops / sizeof binops[0]; i++)
        if (binops[i].token == k) {
            *op = (BinOp)i;
            return 1;
        }
    return 0;
}

TokKind binop_token(BinOp op) { return binops[op].token; }
int binop_associative(BinOp op) { return binops[op].associative; }

int binop_comparison(BinOp op)
{
    return op == BIN_EQ || op == BIN_NE || op == BIN_LT || op == BIN_LE ||
           op == BIN_GT || op == BIN_GE;
}

/* Each case is the row of isa.md's OPR table that the code generator
 * emits for the operator, so a folded value is the value the program would
 * have computed at run time. */
FoldResult fold_binary(BinOp op, uint32_t a, uint32_t b, uint32_t *out)
{
    int32_t sa = as_signed(a), sb = as_signed(b);
    switch (op) {
    case BIN_ADD: *out = a + b; break;
    case BIN_SUB: *out = a - b; break;
    case BIN_MUL: *out = a * b; break;
    case BIN_AND: *out = a & b; break;
    case BIN_OR:  *out = a | b; break;
    case BIN_XOR: *out = a ^ b; break;
    case BIN_SHL: *out = b >= 32 ? 0 : a << b; break;
    case BIN_SHR: *out = b >= 32 ? 0 : a >> b; break;
    case BIN_EQ:  *out = a == b; break;
    case BIN_NE:  *out = a != b; break;
    case BIN_LT:  *out = sa < sb; break;
    case BIN_LE:  *out = sa <= sb; break;
    case BIN_GT:  *out = sa > sb; break;
    case BIN_GE:  *out = sa >= sb; break;
    case BIN_DIV: case BIN_REM:
        if (b == 0)
            return FOLD_DIV_ZERO;
        if (sa == INT32_MIN && sb == -1)        /* the one overflowing case */
            *out = op == BIN_DIV ? a : 0;
        else
            *out = (uint32_t)(op == BIN_DIV ? sa / sb : sa % sb);
        break;
    }
    return FOLD_OK;
}

/* Operands are folded left to right, as they would be evaluated; the first
 * one that is not constant (or divides by zero) ends the fold. */
FoldResult fold_expr(const Node *e, const uint32_t *net_index, uint32_t *out, SrcPos *where)
{
    FoldResult r;
    uint32_t x;
    if (e->kind == ND_NUM || e->kind == ND_ERROR) {  /* an error: quietly 0 */
        *out = e->kind == ND_NUM ? e->value : 0;
        return FOLD_OK;
    }
    if (e->kind == ND_NAME) {
        if (e->sym && e->sym->kind == SYM_CONST) {
            *out = e->sym->value;
            return FOLD_OK;
        }
        if (e->sym && e->sym->kind == SYM_NET_INDEX && net_index) {
            *out = *net_index;
            return FOLD_OK;
        }
        return FOLD_NOT_CONSTANT;
    }
    if (e->kind == ND_NEG || e->kind == ND_NOT) {
        if ((r = fold_expr(e->lhs, net_index, &x, where)) != FOLD_OK)
            return r;
        *out = e->kind == ND_NEG ? 0u - x : ~x;
        return FOLD_OK;
    }
    if (e->kind != ND_BINARY)           /* calls, elements, procid, ... */
        return FOLD_NOT_CONSTANT;
    if ((r = fold_expr(e->items[0], net_index, out, where)) != FOLD_OK)
        return r;
    for (uint32_t i = 1; i < e->count; i++) {
        if ((r = fold_expr(e->items[i], net_index, &x, where)) != FOLD_OK)
            return r;
        if ((r = fold_binary(e->op, *out, x, out)) == FOLD_DIV_ZERO)
            *where = e->pos;
        if (r != FOLD_OK)
            return r;
    }
    return FOLD_OK;
}
