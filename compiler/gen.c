/* The code generator: one image per processor (spec/language.md "Code the
 * compiler must generate"; the design is in docs/language.md).
 *
 * Each image is the data word mem[0] = M - G, the start-up code at word 1,
 * `main` holding only this processor's branch of each network, then every
 * procedure reachable from it, in source order. Procedures other than main
 * do not depend on the processor, so each is generated once and laid out in
 * every image that needs it.
 *
 * The operand stack is the two registers areg and breg. The generator
 * tracks its depth with the pops/pushes columns of cpu/isa.def at every
 * instruction, checks that it stays within 0..2, and that it is 0 at the end
 * of every statement. Expressions are evaluated with the checker's `need`
 * (1: the expression fits in one register; 2: it needs an empty stack): an
 * operand that needs 2 while another value is waiting goes through a
 * temporary in the frame (STWSP t ... LDWSP t). Calls need an empty stack:
 * the callee uses both registers. */
#include "compiler/asm.h"
#include "common/plural.h"

#include <stdlib.h>
#include <string.h>

#include "cpu/isa.h"

typedef struct Gen {
    Program *prog;
    Diag *d;
    AsmCode *code;        /* the list being generated */
    Proc *proc;           /* whose */
    int depth;            /* operand-stack depth: values in areg, breg */
    uint32_t temps;       /* temporaries in use */
    uint32_t max_temps;   /* most in use at once: frame words beyond frame_fixed */
    int has_index;        /* the network index is known ... */
    uint32_t index;       /* ... and is this */
    const Node *index_name; /* ... and is named so */
    uint32_t processor;   /* the processor whose main is being generated */
    SrcPos stmt;          /* the statement being generated, for messages */
    int broken;           /* an internal error was reported */
} Gen;

static void gen_stmt(Gen *g, Node *s);
static void gen_expr(Gen *g, Node *e);

/* ---- emitting ---- */

/* A broken invariant of the generator: reported as an error at the
 * statement being generated, so that no image is written. */
static void internal_error(Gen *g, const char *what)
{
    if (!g->broken)
        diag_error(g->d, g->stmt, "internal compiler error: %s", what);
    g->broken = 1;
}

/* Applies an operation's stack effect (isa.def) to the tracked depth. */
static void track(Gen *g, int pops, int pushes)
{
    g->depth -= pops;
    if (g->depth < 0)
        internal_error(g, "operand stack underflow");
    g->depth += pushes;
    if (g->depth > 2)
        internal_error(g, "operand stack deeper than areg and breg");
}

static void emit(Gen *g, IsaOp op, uint32_t operand)
{
    track(g, isa_primary[op].pops, isa_primary[op].pushes);
    asm_emit(g->code, (AsmInsn){ .op = (uint8_t)op, .kind = ASM_IMM, .value = operand });
}

static void emit_opr(Gen *g, IsaOpr opr)
{
    track(g, isa_opr[opr].pops, isa_opr[opr].pushes);
    asm_emit(g->code, (AsmInsn){ .op = OP_OPR, .kind = ASM_IMM, .value = opr });
}

/* A branch (BR, BRT) to a label of the current list. */
static void emit_branch(Gen *g, IsaOp op, uint32_t label)
{
    track(g, isa_primary[op].pops, isa_primary[op].pushes);
    asm_emit(g->code, (AsmInsn){ .op = (uint8_t)op, .kind = ASM_LABEL, .label = label });
}

/* An instruction whose operand is `value` plus or minus proc's frame. */
static void emit_frame(Gen *g, IsaOp op, uint32_t value, int negate, Proc *proc)
{
    track(g, isa_primary[op].pops, isa_primary[op].pushes);
    asm_emit(g->code, (AsmInsn){ .op = (uint8_t)op, .kind = ASM_FRAME, .value = value,
                                 .negate = (uint8_t)negate, .proc = proc });
}

/* LDAP proc; CALL. */
static void emit_call(Gen *g, Proc *callee)
{
    track(g, isa_primary[OP_LDAP].pops, isa_primary[OP_LDAP].pushes);
    asm_emit(g->code, (AsmInsn){ .op = OP_LDAP, .kind = ASM_PROC, .proc = callee });
    emit_opr(g, OPR_CALL);
    asm_add_call(g->code, callee);
}

/* ---- temporaries: frame words after the locals, used like a stack ---- */

static uint32_t temp_alloc(Gen *g)
{
    uint32_t slot = g->proc->frame_fixed + g->temps++;
    if (g->temps > g->max_temps)
        g->max_temps = g->temps;
    return slot;
}

static void temp_free(Gen *g) { g->temps--; }

/* ---- expressions ---- */

/* Whether e is known here: a constant, or made of constants and the
 * network index while the index is known. */
static int known(Gen *g, const Node *e, uint32_t *value)
{
    SrcPos where;
    if (e->info.constant) {
        *value = e->value;
        return 1;
    }
    return e->info.net_const && g->has_index &&
           fold_expr(e, &g->index, value, &where) == FOLD_OK;
}

/* Checks that e may be evaluated at the current depth. */
static void need_room(Gen *g, const Node *e)
{
    if (g->depth + e->info.need > 2)
        internal_error(g, "an expression needs more registers than are free");
}

/* Loads a variable, a parameter, the network index, or the address of an
 * array (an argument for an array parameter). */
static void gen_name(Gen *g, const Node *e)
{
    const Symbol *s = e->sym;
    switch (s->kind) {
    case SYM_GLOBAL_VAR:                        /* mem[global base + offset] */
        emit(g, OP_LDWSP, 1);
        emit(g, OP_LDWI, s->offset);
        return;
    case SYM_LOCAL_VAR: case SYM_VAL_PARAM: case SYM_ARRAY_PARAM:
        emit(g, OP_LDWSP, s->offset);
        return;
    case SYM_GLOBAL_ARRAY:
        emit(g, OP_LDWSP, 1);
        if (s->offset)
            emit(g, OP_ADDC, s->offset);
        return;
    case SYM_LOCAL_ARRAY:
        emit(g, OP_LDAWSP, s->offset);
        return;
    case SYM_NET_INDEX:
        emit(g, OP_LDC, g->index);
        return;
    case SYM_CONST: case SYM_PROC:
        internal_error(g, "a name that is not a value");
        return;
    }
}

/* For a[i] with i not known: leaves in areg an address from which the
 * element is at the returned offset (LDWI/STWI operand). Needs both
 * registers: i, then the base, added. */
static uint32_t gen_element_address(Gen *g, Node *e)
{
    const Symbol *s = e->sym;
    gen_expr(g, e->lhs);
    if (s->kind == SYM_GLOBAL_ARRAY)
        emit(g, OP_LDWSP, 1);                   /* the global base */
    else if (s->kind == SYM_LOCAL_ARRAY)
        emit(g, OP_LDAWSP, s->offset);          /* sp + offset */
    else
        emit(g, OP_LDWSP, s->offset);           /* an array parameter's address */
    emit_opr(g, OPR_ADD);
    return s->kind == SYM_GLOBAL_ARRAY ? s->offset : 0;
}

/* a[i] as a value. With i known (k) it is one load: LDWSP 1; LDWI off+k for
 * a global, LDWSP off+k for a local, LDWSP p; LDWI k for a parameter. */
static void gen_element(Gen *g, Node *e)
{
    const Symbol *s = e->sym;
    uint32_t k;
    if (!known(g, e->lhs, &k)) {
        emit(g, OP_LDWI, gen_element_address(g, e));
    } else if (s->kind == SYM_GLOBAL_ARRAY) {
        emit(g, OP_LDWSP, 1);
        emit(g, OP_LDWI, s->offset + k);
    } else if (s->kind == SYM_LOCAL_ARRAY) {
        emit(g, OP_LDWSP, s->offset + k);
    } else {
        emit(g, OP_LDWSP, s->offset);
        emit(g, OP_LDWI, k);
    }
}

/* Stores areg (depth 1) into a variable or an element a[k] with k known. */
static void gen_store_simple(Gen *g, const Node *t, uint32_t k)
{
    const Symbol *s = t->sym;
    switch (s->kind) {
    case SYM_GLOBAL_VAR: case SYM_GLOBAL_ARRAY:
        emit(g, OP_LDWSP, 1);
        emit(g, OP_STWI, s->offset + k);
        return;
    case SYM_LOCAL_VAR: case SYM_LOCAL_ARRAY:
        emit(g, OP_STWSP, s->offset + k);
        return;
    case SYM_ARRAY_PARAM:
        emit(g, OP_LDWSP, s->offset);
        emit(g, OP_STWI, k);
        return;
    case SYM_CONST: case SYM_VAL_PARAM: case SYM_PROC: case SYM_NET_INDEX:
        internal_error(g, "a store into something that is not a variable");
        return;
    }
}

/* Whether target t is an element whose index is not known here. */
static int computed_element(Gen *g, const Node *t, uint32_t *k)
{
    *k = 0;
    return t->kind == ND_INDEX && !known(g, t->lhs, k);
}

/* target := the value that `produce` leaves in areg. An element with a
 * computed index has its address worked out first and kept in a temporary
 * (STWI needs the value in breg and the address in areg). */
static void gen_store(Gen *g, const Node *t, void (*produce)(Gen *, Node *), Node *arg)
{
    uint32_t k;
    if (!computed_element(g, t, &k)) {
        produce(g, arg);
        gen_store_simple(g, t, k);
        return;
    }
    uint32_t offset = gen_element_address(g, (Node *)t);
    uint32_t temp = temp_alloc(g);
    emit(g, OP_STWSP, temp);
    produce(g, arg);
    emit(g, OP_LDWSP, temp);
    emit(g, OP_STWI, offset);
    temp_free(g);
}

/* A call, at an empty stack. Argument j goes to the callee's frame word
 * 2 + j, which lies at sp - F(callee) + 2 + j before the call; the callee's
 * frame is only made (ADJ -F) after the CALL, so its parameters are already
 * in place. An argument that is followed by one containing a call is kept
 * in a temporary until the last such call is over, as that call's frame
 * would overwrite it; then it is copied. A func's result comes back in
 * areg. */
static void gen_call(Gen *g, Node *e)
{
    Proc *callee = e->sym->proc;
    uint32_t last_call = 0, slots[2] = { 0 }, *temps = slots;
    for (uint32_t j = 0; j < e->count; j++)
        if (!e->items[j]->info.pure)
            last_call = j;
    if (last_call > 2 && !(temps = malloc(last_call * sizeof *temps))) {
        g->code->failed = 1;
        return;
    }
    if (g->depth != 0)
        internal_error(g, "a call with values on the operand stack");
    for (uint32_t j = 0; j < e->count; j++) {
        gen_expr(g, e->items[j]);       /* a value, or an array's address */
        if (j < last_call)
            emit(g, OP_STWSP, temps[j] = temp_alloc(g));
        else
            emit_frame(g, OP_STWSP, 2 + j, 1, callee);
    }
    for (uint32_t j = 0; j < last_call; j++) {
        emit(g, OP_LDWSP, temps[j]);
        emit_frame(g, OP_STWSP, 2 + j, 1, callee);
    }
    for (uint32_t j = 0; j < last_call; j++)
        temp_free(g);
    if (temps != slots)
        free(temps);
    emit_call(g, callee);
    if (callee->is_func)
        track(g, 0, 1);                 /* its result, in areg */
}

/* Which register each operand of a binary operation must be in. */
typedef enum Order {
    ORDER_ANY,        /* commutative */
    ORDER_NORMAL,     /* breg = left, areg = right */
    ORDER_SWAPPED     /* breg = right, areg = left */
} Order;

static Order order_of(BinOp op)
{
    switch (op) {
    case BIN_SUB: case BIN_DIV: case BIN_REM: case BIN_SHL: case BIN_SHR:
    case BIN_LT: case BIN_GE:
        return ORDER_NORMAL;
    case BIN_GT: case BIN_LE:
        return ORDER_SWAPPED;
    case BIN_ADD: case BIN_MUL: case BIN_AND: case BIN_OR: case BIN_XOR:
    case BIN_EQ: case BIN_NE:
        return ORDER_ANY;
    }
    return ORDER_ANY;
}

/* The instructions of a binary operator on breg and areg (left and right
 * as order_of says): > is LSS with the operands swapped; <= and >= are the
 * opposite of > and <; ~= is the opposite of =. */
static void emit_binop(Gen *g, BinOp op)
{
    switch (op) {
    case BIN_ADD: emit_opr(g, OPR_ADD); return;
    case BIN_SUB: emit_opr(g, OPR_SUB); return;
    case BIN_MUL: emit_opr(g, OPR_MUL); return;
    case BIN_DIV: emit_opr(g, OPR_DIV); return;
    case BIN_REM: emit_opr(g, OPR_REM); return;
    case BIN_AND: emit_opr(g, OPR_AND); return;
    case BIN_OR:  emit_opr(g, OPR_OR); return;
    case BIN_XOR: emit_opr(g, OPR_XOR); return;
    case BIN_SHL: emit_opr(g, OPR_SHL); return;
    case BIN_SHR: emit_opr(g, OPR_SHR); return;
    case BIN_EQ:  emit_opr(g, OPR_EQ); return;
    case BIN_LT: case BIN_GT:
        emit_opr(g, OPR_LSS);
        return;
    case BIN_NE:
        emit_opr(g, OPR_EQ);
        emit(g, OP_EQC, 0);
        return;
    case BIN_LE: case BIN_GE:
        emit_opr(g, OPR_LSS);
        emit(g, OP_EQC, 0);
        return;
    }
}

/* Evaluates `left` then `right` (from an empty stack) and leaves them where
 * `order` wants them. Values are only evaluated out of order when that
 * cannot be seen: `left` stable (nothing can change it, and evaluating it
 * has no effect), or both pure and small. */
static void gen_pair(Gen *g, Node *left, Node *right, Order order)
{
    int l1 = left->info.need == 1, r1 = right->info.need == 1;
    int reorder = l1 && (left->info.stable || (r1 && left->info.pure && right->info.pure));
    if (order != ORDER_SWAPPED && r1) {            /* breg = left, areg = right */
        gen_expr(g, left);
        gen_expr(g, right);
    } else if (order != ORDER_NORMAL && reorder) { /* breg = right, areg = left */
        gen_expr(g, right);
        gen_expr(g, left);
    } else if (order != ORDER_NORMAL) {            /* the same, by a temporary */
        gen_expr(g, left);
        uint32_t t = temp_alloc(g);
        emit(g, OP_STWSP, t);
        gen_expr(g, right);
        emit(g, OP_LDWSP, t);
        temp_free(g);
    } else if (reorder) {                          /* breg = left, areg = right */
        gen_expr(g, right);
        uint32_t t = temp_alloc(g);
        emit(g, OP_STWSP, t);
        gen_expr(g, left);
        emit(g, OP_LDWSP, t);
        temp_free(g);
    } else {
        gen_expr(g, left);
        uint32_t t1 = temp_alloc(g);
        emit(g, OP_STWSP, t1);
        gen_expr(g, right);
        uint32_t t2 = temp_alloc(g);
        emit(g, OP_STWSP, t2);
        emit(g, OP_LDWSP, t1);
        emit(g, OP_LDWSP, t2);
        temp_free(g);
        temp_free(g);
    }
}

/* An operator with a known operand k as an immediate: x + k is ADDC k,
 * x - k is ADDC -k, x = k is EQC k, x ~= k is EQC k; EQC 0. Returns 0 when
 * op has no such form. */
static void emit_immediate(Gen *g, BinOp op, uint32_t k)
{
    emit(g, op == BIN_EQ || op == BIN_NE ? OP_EQC : OP_ADDC, op == BIN_SUB ? 0u - k : k);
    if (op == BIN_NE)
        emit(g, OP_EQC, 0);
}

/* Whether op has an immediate form with e as its left or right operand
 * and e is known (k). */
static int immediate(Gen *g, BinOp op, const Node *e, uint32_t *k, int left)
{
    int ok = op == BIN_ADD || op == BIN_EQ || op == BIN_NE || (op == BIN_SUB && !left);
    return ok && known(g, e, k);
}

/* a op b op c ... (op is e->op, or its negation for a jump): two operands,
 * or more for the associative operators, which are combined from the left,
 * each through a temporary if it needs both registers. */
static void gen_binary(Gen *g, Node *e, BinOp op)
{
    Node **it = e->items;
    uint32_t k;
    if (e->count == 2 && immediate(g, op, it[0], &k, 1)) {
        gen_expr(g, it[1]);
        emit_immediate(g, op, k);
        return;
    }
    if (e->count == 2 && !immediate(g, op, it[1], &k, 0)) {
        gen_pair(g, it[0], it[1], order_of(op));
        emit_binop(g, op);
        return;
    }
    gen_expr(g, it[0]);
    for (uint32_t i = 1; i < e->count; i++) {
        if (immediate(g, op, it[i], &k, 0)) {
            emit_immediate(g, op, k);
        } else if (g->depth + it[i]->info.need <= 2) {
            gen_expr(g, it[i]);
            emit_binop(g, op);
        } else {                        /* commutative: the order is free */
            uint32_t t = temp_alloc(g);
            emit(g, OP_STWSP, t);
            gen_expr(g, it[i]);
            emit(g, OP_LDWSP, t);
            emit_binop(g, op);
            temp_free(g);
        }
    }
}

/* Leaves the value of e in areg, one deeper on the operand stack. */
static void gen_expr_kind(Gen *g, Node *e)
{
    uint32_t v;
    need_room(g, e);
    if (known(g, e, &v)) {
        emit(g, OP_LDC, v);
        return;
    }
    switch (e->kind) {
    case ND_NAME:     gen_name(g, e); return;
    case ND_INDEX:    gen_element(g, e); return;
    case ND_CALL:     gen_call(g, e); return;
    case ND_BINARY:   gen_binary(g, e, e->op); return;
    case ND_PROCID:   emit_opr(g, OPR_ID); return;
    case ND_NPROCS:   emit_opr(g, OPR_NPROC); return;
    case ND_TIMESTEP: emit_opr(g, OPR_TIME); return;
    case ND_NOT:
        gen_expr(g, e->lhs);
        emit_opr(g, OPR_NOT);
        return;
    case ND_NEG:                        /* -x = ~x + 1 in two's complement */
        gen_expr(g, e->lhs);
        emit_opr(g, OPR_NOT);
        emit(g, OP_ADDC, 1);
        return;
    case ND_NUM:                        /* known, above */
        return;
    case ND_SKIP: case ND_STOP: case ND_RETURN: case ND_IF: case ND_WHILE: case ND_BLOCK:
    case ND_ASSIGN: case ND_CALL_STMT: case ND_SEND: case ND_MULTICAST: case ND_MESSAGE:
    case ND_RECEIVE: case ND_PRINT: case ND_NETWORK: case ND_NETWORK_FOR:
    case ND_VAL: case ND_VAR: case ND_ARRAY: case ND_PARAM_VAL: case ND_PARAM_ARRAY:
    case ND_WORDS: case ND_SLICE: case ND_ERROR:
        internal_error(g, "not an expression");
        return;
    }
}

/* An expression's instructions come from its position (an operator's,
 * for a binary one), those of its operands from theirs. */
static void gen_expr(Gen *g, Node *e)
{
    SrcPos outer = g->code->pos;
    g->code->pos = e->pos;
    gen_expr_kind(g, e);
    g->code->pos = outer;
}

/* Sets *neg to the comparison that is true when `op` is false; returns 0
 * when op is no comparison. */
static int negation(BinOp op, BinOp *neg)
{
    switch (op) {
    case BIN_EQ: *neg = BIN_NE; return 1;
    case BIN_NE: *neg = BIN_EQ; return 1;
    case BIN_LT: *neg = BIN_GE; return 1;
    case BIN_GE: *neg = BIN_LT; return 1;
    case BIN_GT: *neg = BIN_LE; return 1;
    case BIN_LE: *neg = BIN_GT; return 1;
    case BIN_ADD: case BIN_SUB: case BIN_MUL: case BIN_DIV: case BIN_REM:
    case BIN_AND: case BIN_OR: case BIN_XOR: case BIN_SHL: case BIN_SHR:
        return 0;
    }
    return 0;
}

/* Jumps to `label` when e is true (when_true) or false. A comparison is
 * negated rather than tested with EQC 0: "a ~= b" false is "a = b". */
static void gen_jump(Gen *g, Node *e, int when_true, uint32_t label)
{
    uint32_t v;
    BinOp neg;
    if (!when_true && e->kind == ND_BINARY && e->count == 2 && negation(e->op, &neg) &&
        !known(g, e, &v)) {
        need_room(g, e);
        gen_binary(g, e, neg);
    } else {
        gen_expr(g, e);
        if (!when_true)
            emit(g, OP_EQC, 0);
    }
    emit_branch(g, OP_BRT, label);
}

/* ---- statements ---- */

static void gen_in(Gen *g, Node *port)
{
    gen_expr(g, port);
    emit_opr(g, OPR_IN);
}

/* A node standing for a known value, for the address of a send. */
static Node known_node(uint32_t value)
{
    return (Node){ .kind = ND_NUM, .value = value,
                   .info = { .constant = 1, .net_const = 1, .need = 1, .pure = 1, .stable = 1 } };
}

/* Where a value known from the network index comes from, for its error:
 * " (in processor 1's branch, where i is 1)", or "" for a constant. */
static const char *index_note(const Gen *g, const Node *e, char *buf, size_t size)
{
    buf[0] = '\0';
    if (!e->info.constant && g->has_index && g->index_name)
        snprintf(buf, size, " (in processor %u's branch, where '" NAME_FMT "' is %u)",
                 (unsigned)g->processor, NAME_ARG(g->index_name->name, g->index_name->len),
                 (unsigned)g->index);
    return buf;
}

/* Reports a destination or port known here that OUT could not address:
 * one made from the network index (the checker reports constants). */
static void check_known_address(Gen *g, const Node *e, uint32_t limit, const char *what)
{
    uint32_t v;
    char note[160];
    if (known(g, e, &v) && v >= limit)
        diag_error(g->d, check_expr_start(e), "%s %d is out of range: it must be from 0 "
                   "to %u%s", what, (int)v, (unsigned)limit - 1,
                   index_note(g, e, note, sizeof note));
}

/* The nodes of a send's network address d | (k << 24). */
typedef struct SendAddress {
    Node shift, kc, shl, both;
    Node *shl_items[2], *or_items[2];
} SendAddress;

/* The network address of a send to d [: k], as an expression of its own
 * (folded when d and k are known, and d itself without k), made in *a, so
 * that gen_pair can place it beside the value, or gen_expr load it. */
static Node *send_address(Gen *g, Node *d, Node *k, SendAddress *a)
{
    uint32_t dv, kv = 0;
    int d_known = known(g, d, &dv), k_known = !k || known(g, k, &kv);
    check_known_address(g, d, MAX_DEST, "destination processor");
    if (!k)
        return d;
    check_known_address(g, k, MAX_PORT, "port");
    /* The address's nodes are made here, not parsed: they take the place
     * of the destination (of the port, for its shift), so that the listing
     * and the emulator's source lines put their code on the send's line. */
    if (d_known && k_known) {
        a->both = known_node(dv | kv << 24);
        a->both.pos = d->pos;
        return &a->both;
    }
    a->shift = known_node(24);
    a->shift.pos = k->pos;
    a->kc = known_node(kv << 24);
    a->kc.pos = k->pos;
    a->shl_items[0] = k;
    a->shl_items[1] = &a->shift;
    a->shl = (Node){ .kind = ND_BINARY, .op = BIN_SHL, .items = a->shl_items, .count = 2,
                     .pos = k->pos,
                     .info = { .need = 2, .pure = k->info.pure, .stable = k->info.stable } };
    a->or_items[0] = d;
    a->or_items[1] = k_known ? &a->kc : &a->shl;
    const ExprInfo *ki = &a->or_items[1]->info;
    a->both = (Node){ .kind = ND_BINARY, .op = BIN_OR, .items = a->or_items, .count = 2,
                      .pos = d->pos, .info = { .need = 2, .pure = d->info.pure && ki->pure,
                                               .stable = d->info.stable && ki->stable } };
    return &a->both;
}

/* d [: k] ! e: the value, then the address d | (k << 24), then OUT. */
static void gen_send(Gen *g, Node *s)
{
    SendAddress a;
    gen_pair(g, s->rhs, send_address(g, s->lhs, s->third, &a), ORDER_NORMAL);
    emit_opr(g, OPR_OUT);
}

/* Reports a number of words of a message known here that SEND could not
 * send: one made from the network index (the checker reports constants). */
static void check_known_length(Gen *g, const Node *e)
{
    uint32_t v;
    char note[160];
    if (known(g, e, &v) && (v == 0 || v > MAX_MESSAGE))
        diag_error(g->d, check_expr_start(e), "a message must have from 1 to 65,536 words, "
                   "not %d%s", (int)v, index_note(g, e, note, sizeof note));
}

/* Leaves in areg the address of a[i], the first word of the slice a[i for
 * n]: one instruction or two when i is known (LDAWSP o+i for a local
 * array), else gen_element_address's. */
static void gen_slice_address(Gen *g, Node *slice)
{
    const Symbol *s = slice->sym;
    uint32_t k, offset;
    if (!known(g, slice->lhs, &k)) {
        offset = gen_element_address(g, slice);
    } else if (s->kind == SYM_LOCAL_ARRAY) {
        emit(g, OP_LDAWSP, s->offset + k);
        return;
    } else if (s->kind == SYM_GLOBAL_ARRAY) {
        emit(g, OP_LDWSP, 1);
        offset = s->offset + k;
    } else {
        emit(g, OP_LDWSP, s->offset);
        offset = k;
    }
    if (offset)
        emit(g, OP_ADDC, offset);
}

/* d [: k] ! [e1, ..., en] or d [: k] ! a[i for n] (spec/messages.md).
 * SEND's descriptor is built in two words of the frame taken like
 * temporaries, and a list's words in the n words after it, so the frame
 * grows by the largest message (and what its expressions need):
 *
 *     desc + 0        n                   n
 *     desc + 1        sp + desc + 2       the address of a[i]
 *     desc + 2 + j    e(j+1), j < n
 *
 * The words are worked out first, left to right (or i, then n), then the
 * network address d | k << 24, which waits in breg while LDAWSP loads the
 * descriptor's address into areg for SEND. */
static void gen_message(Gen *g, Node *s)
{
    Node *w = s->rhs;
    uint32_t n = w->kind == ND_WORDS ? w->count : 0, desc = temp_alloc(g);
    for (uint32_t j = 1; j < 2 + n; j++)            /* taken as a stack: consecutive */
        temp_alloc(g);
    if (w->kind == ND_WORDS) {
        for (uint32_t j = 0; j < n; j++) {
            gen_expr(g, w->items[j]);
            emit(g, OP_STWSP, desc + 2 + j);
        }
        emit(g, OP_LDC, n);
        emit(g, OP_STWSP, desc);
        emit(g, OP_LDAWSP, desc + 2);
        emit(g, OP_STWSP, desc + 1);
    } else {
        check_known_length(g, w->rhs);
        gen_slice_address(g, w);
        emit(g, OP_STWSP, desc + 1);
        gen_expr(g, w->rhs);
        emit(g, OP_STWSP, desc);
    }
    SendAddress a;
    gen_expr(g, send_address(g, s->lhs, s->third, &a));
    emit(g, OP_LDAWSP, desc);
    emit_opr(g, OPR_SEND);
    for (uint32_t j = 0; j < 2 + n; j++)
        temp_free(g);
}

/* The most words of k ? a[i for n] read by a straight run of INs; a
 * longer or computed n is read by a loop. */
enum { RECEIVE_UNROLLED = 16 };

/* Loads the port of a receive: k itself when known, else the temporary
 * `temp` that holds it. */
static void gen_port(Gen *g, Node *k, uint32_t temp)
{
    uint32_t v;
    if (known(g, k, &v))
        emit(g, OP_LDC, v);
    else
        emit(g, OP_LDWSP, temp);
}

/* k ? a[i for n] with n known and at most RECEIVE_UNROLLED: n times
 * k; IN; a store into a[i + j], through the address of a[i] kept in a
 * temporary when i is not known. */
static void gen_receive_unrolled(Gen *g, Node *slice, Node *k, uint32_t n)
{
    uint32_t i = 0, offset = 0, base = 0, port = 0, v;
    int computed = !known(g, slice->lhs, &i);
    if (computed) {
        offset = gen_element_address(g, slice);
        emit(g, OP_STWSP, base = temp_alloc(g));
    }
    if (!known(g, k, &v)) {
        gen_expr(g, k);
        emit(g, OP_STWSP, port = temp_alloc(g));
    }
    for (uint32_t j = 0; j < n; j++) {
        gen_port(g, k, port);
        emit_opr(g, OPR_IN);
        if (computed) {
            emit(g, OP_LDWSP, base);
            emit(g, OP_STWI, offset + j);
        } else {
            gen_store_simple(g, slice, i + j);
        }
    }
    if (computed)
        temp_free(g);
    if (!known(g, k, &v))
        temp_free(g);
}

/* k ? a[i for n]: a loop over a pointer p to the next element and a count
 * c of the words left, in temporaries (with k's value, unless known):
 *
 *           &a[i]; STWSP p; n; STWSP c; [k; STWSP t;] BR test
 *     body: k; IN; LDWSP p; STWI 0; LDWSP p; ADDC 1; STWSP p;
 *           LDWSP c; ADDC -1; STWSP c
 *     test: LDWSP c; BRT body
 *
 * A computed n is a count of words, unsigned: 0 reads nothing. */
static void gen_receive_loop(Gen *g, Node *slice, Node *k)
{
    uint32_t v, pointer = temp_alloc(g), count = temp_alloc(g), port = 0;
    uint32_t body = asm_new_label(g->code), test = asm_new_label(g->code);
    gen_slice_address(g, slice);
    emit(g, OP_STWSP, pointer);
    gen_expr(g, slice->rhs);
    emit(g, OP_STWSP, count);
    if (!known(g, k, &v)) {
        gen_expr(g, k);
        emit(g, OP_STWSP, port = temp_alloc(g));
    }
    emit_branch(g, OP_BR, test);
    asm_place_label(g->code, body);
    gen_port(g, k, port);
    emit_opr(g, OPR_IN);
    emit(g, OP_LDWSP, pointer);
    emit(g, OP_STWI, 0);
    emit(g, OP_LDWSP, pointer);
    emit(g, OP_ADDC, 1);
    emit(g, OP_STWSP, pointer);
    emit(g, OP_LDWSP, count);
    emit(g, OP_ADDC, (uint32_t)-1);
    emit(g, OP_STWSP, count);
    asm_place_label(g->code, test);
    emit(g, OP_LDWSP, count);
    emit_branch(g, OP_BRT, body);
    if (!known(g, k, &v))
        temp_free(g);
    temp_free(g);
    temp_free(g);
}

/* k ? a[i for n] (spec/messages.md): n INs from port k into a[i] ..
 * a[i+n-1], in order, with i, n and k each worked out once, in that order. */
static void gen_receive_slice(Gen *g, Node *s)
{
    Node *slice = s->rhs;
    uint32_t n;
    check_known_length(g, slice->rhs);
    if (known(g, slice->rhs, &n) && n <= RECEIVE_UNROLLED)
        gen_receive_unrolled(g, slice, s->lhs, n);
    else
        gen_receive_loop(g, slice, s->lhs);
}

/* [d1, ..., dn] [: k] ! e, or all [: k] ! e (count 0), spec/multicast.md.
 * MOUT's list is built in words of the frame taken like temporaries, so
 * the frame grows by the largest list (and what its expressions need):
 *
 *     list + 0     n | k << 24         0 | k << 24 for all
 *     list + i     d_i, 1 <= i <= n    R, the number of processor records
 *
 * then MOUT with areg = the list's address and breg = the value. The value
 * is worked out first, the destinations in order, the port last. A stable
 * value (nothing in the list can change it and it has no effect) is worked
 * out after the list instead; any other waits in breg while the list is
 * built when every word of it fits in areg alone, or else in a temporary. */
static void gen_multicast(Gen *g, Node *s)
{
    Node *k = s->third, *value = s->rhs;
    uint32_t n = s->count, words = n ? n + 1 : 2, kv = 0;
    int k_known = !k || known(g, k, &kv);
    for (uint32_t i = 0; i < n; i++)
        check_known_address(g, s->items[i], MAX_DEST, "destination processor");
    if (k)
        check_known_address(g, k, MAX_PORT, "port");
    uint32_t list = temp_alloc(g), temp = 0;
    for (uint32_t i = 1; i < words; i++)            /* taken as a stack: consecutive */
        temp_alloc(g);
    int late = value->info.stable, waits = !late && k_known;
    for (uint32_t i = 0; i < n && waits; i++)
        waits = s->items[i]->info.need == 1;
    int kept = !late && !waits;
    if (!late)
        gen_expr(g, value);
    if (kept)
        emit(g, OP_STWSP, temp = temp_alloc(g));
    for (uint32_t i = 0; i < n; i++) {
        gen_expr(g, s->items[i]);
        emit(g, OP_STWSP, list + 1 + i);
    }
    if (n == 0) {
        emit(g, OP_LDC, g->prog->nimages);
        emit(g, OP_STWSP, list + 1);
    }
    if (k_known) {
        emit(g, OP_LDC, n | kv << 24);
    } else {
        gen_expr(g, k);
        emit(g, OP_LDC, 24);
        emit_opr(g, OPR_SHL);
        if (n)
            emit(g, OP_ADDC, n);            /* the same as OR: k << 24 has no low bits */
    }
    emit(g, OP_STWSP, list);
    if (late)
        gen_expr(g, value);
    if (kept)
        emit(g, OP_LDWSP, temp);
    emit(g, OP_LDAWSP, list);
    emit_opr(g, OPR_MOUT);
    for (uint32_t i = 0; i < words + (uint32_t)kept; i++)
        temp_free(g);
}

/* if e then s [else s]: a known condition keeps only the branch taken. */
static void gen_if(Gen *g, Node *s)
{
    uint32_t v;
    if (known(g, s->lhs, &v)) {
        if (v)
            gen_stmt(g, s->rhs);
        else if (s->third)
            gen_stmt(g, s->third);
        return;
    }
    uint32_t other = asm_new_label(g->code);
    gen_jump(g, s->lhs, 0, other);
    gen_stmt(g, s->rhs);
    if (s->third) {
        uint32_t end = asm_new_label(g->code);
        emit_branch(g, OP_BR, end);
        asm_place_label(g->code, other);
        gen_stmt(g, s->third);
        asm_place_label(g->code, end);
    } else {
        asm_place_label(g->code, other);
    }
}

/* while e do s: the test at the bottom, entered by a branch, so that each
 * iteration takes one conditional branch. */
static void gen_while(Gen *g, Node *s)
{
    uint32_t v;
    uint32_t body = asm_new_label(g->code), test = asm_new_label(g->code);
    if (known(g, s->lhs, &v)) {
        if (v) {
            asm_place_label(g->code, body);
            gen_stmt(g, s->rhs);
            emit_branch(g, OP_BR, body);
        }
        return;
    }
    emit_branch(g, OP_BR, test);
    asm_place_label(g->code, body);
    gen_stmt(g, s->rhs);
    asm_place_label(g->code, test);
    gen_jump(g, s->lhs, 1, body);
}

/* This processor's part of a network: its branch, or nothing. */
static void gen_network(Gen *g, Node *s)
{
    if (s->kind == ND_NETWORK && g->processor < s->count) {
        gen_stmt(g, s->items[g->processor]);
    } else if (s->kind == ND_NETWORK_FOR && g->processor < s->value) {
        g->has_index = 1;
        g->index = g->processor;
        g->index_name = s->third;
        gen_stmt(g, s->rhs);
        g->has_index = 0;
    }
}

static void gen_stmt_kind(Gen *g, Node *s)
{
    switch (s->kind) {
    case ND_SKIP:        return;
    case ND_STOP:        emit(g, OP_LDC, 1); emit_opr(g, OPR_HALT); return;
    case ND_IF:          gen_if(g, s); return;
    case ND_WHILE:       gen_while(g, s); return;
    case ND_ASSIGN:      gen_store(g, s->lhs, gen_expr, s->rhs); return;
    case ND_CALL_STMT:   gen_call(g, s->lhs); return;
    case ND_SEND:        gen_send(g, s); return;
    case ND_MULTICAST:   gen_multicast(g, s); return;
    case ND_MESSAGE:     gen_message(g, s); return;
    case ND_RECEIVE:
        if (s->rhs->kind == ND_SLICE)
            gen_receive_slice(g, s);
        else
            gen_store(g, s->rhs, gen_in, s->lhs);
        return;
    case ND_PRINT:       gen_expr(g, s->lhs); emit_opr(g, OPR_PRINT); return;
    case ND_NETWORK: case ND_NETWORK_FOR:
        gen_network(g, s);
        return;
    case ND_BLOCK:
        for (uint32_t i = 0; i < s->count; i++)
            gen_stmt(g, s->items[i]);
        return;
    case ND_RETURN:
        gen_expr(g, s->lhs);
        emit_frame(g, OP_ADJ, 0, 0, g->proc);
        emit_opr(g, OPR_RET);
        track(g, 1, 0);                 /* the result leaves in areg */
        return;
    case ND_ERROR:
    case ND_NUM: case ND_NAME: case ND_INDEX: case ND_CALL: case ND_NEG: case ND_NOT:
    case ND_BINARY: case ND_PROCID: case ND_NPROCS: case ND_TIMESTEP:
    case ND_VAL: case ND_VAR: case ND_ARRAY: case ND_PARAM_VAL: case ND_PARAM_ARRAY:
    case ND_WORDS: case ND_SLICE:
        internal_error(g, "not a statement");
        return;
    }
}

/* A statement starts and ends with an empty operand stack. Its own
 * instructions come from its position; a send's, a message's and a
 * receive's from where the statement starts (their position is the
 * destination's or the port's, which may be an operator inside
 * parentheses). */
static void gen_stmt(Gen *g, Node *s)
{
    SrcPos outer = g->stmt, outer_code = g->code->pos;
    int at_start = s->kind == ND_SEND || s->kind == ND_MESSAGE || s->kind == ND_RECEIVE;
    g->stmt = s->pos;
    g->code->pos = at_start ? check_expr_start(s->lhs) : s->pos;
    if (g->depth != 0)
        internal_error(g, "operand stack not empty at the start of a statement");
    gen_stmt_kind(g, s);
    if (g->depth != 0)
        internal_error(g, "operand stack not empty at the end of a statement");
    g->stmt = outer;
    g->code->pos = outer_code;
}

/* ---- procedures and images ---- */

/* A procedure: LDWSP 1; ADJ -F; STWSP 1 (the frame, with the global base
 * at sp+1), its body, and for a proc ADJ F; RET. F is known only at the
 * end, when the temporaries are counted, so ADJ refers to it. */
static AsmCode *gen_procedure(Gen *g, Proc *p)
{
    AsmCode *code = calloc(1, sizeof *code);
    if (!code)
        return NULL;
    *g = (Gen){ .prog = g->prog, .d = g->d, .code = code, .proc = p,
                .processor = g->processor, .broken = g->broken };
    code->proc = p;
    code->pos = p->pos;                 /* the frame's code: the procedure's name */
    emit(g, OP_LDWSP, 1);
    emit_frame(g, OP_ADJ, 0, 1, p);
    emit(g, OP_STWSP, 1);
    gen_stmt(g, p->body);
    if (!p->is_func) {
        emit_frame(g, OP_ADJ, 0, 0, p);
        emit_opr(g, OPR_RET);
    }
    p->frame = p->frame_fixed + g->max_temps;
    return code;
}

/* The start-up code (spec/language.md): sp := mem[0]; a frame of two words
 * whose sp+1 holds the global base (the old sp); call main; halt with 0. */
static AsmCode *gen_startup(Gen *g, Proc *main)
{
    AsmCode *code = calloc(1, sizeof *code);
    if (!code)
        return NULL;
    g->code = code;
    g->depth = 0;
    emit(g, OP_LDC, 0);
    emit(g, OP_LDWI, 0);
    emit_opr(g, OPR_SETSP);
    emit(g, OP_ADJ, (uint32_t)-2);
    emit(g, OP_LDAWSP, 2);
    emit(g, OP_STWSP, 1);
    emit_call(g, main);
    emit(g, OP_LDC, 0);
    emit_opr(g, OPR_HALT);
    return code;
}

/* Marks every procedure reachable from `code` with `stamp`, generating
 * each the first time any image needs it (a worklist, not recursion: call
 * chains can be as long as the program). Returns -1 when out of memory. */
static int reach(Gen *g, const AsmCode *code, uint32_t stamp)
{
    PtrVec work = { 0 };
    int rc = 0;
    for (const AsmCode *c = code; c && rc == 0;
         c = work.count ? work.items[--work.count] : NULL) {
        for (size_t i = 0; i < c->ncalls && rc == 0; i++) {
            Proc *p = c->calls[i];
            if (p->stamp == stamp)
                continue;
            p->stamp = stamp;
            if (!p->code && !(p->code = gen_procedure(g, p)))
                rc = -1;
            else if (((AsmCode *)p->code)->failed || vec_push(&work, p->code) != 0)
                rc = -1;
        }
    }
    vec_free(&work);
    return rc;
}

static void put32(uint8_t *p, uint32_t v)
{
    p[0] = (uint8_t)v;
    p[1] = (uint8_t)(v >> 8);
    p[2] = (uint8_t)(v >> 16);
    p[3] = (uint8_t)(v >> 24);
}

/* Appends n bytes of zeros to the image buffer; returns -1 when out of memory. */
static int reserve(uint8_t **bytes, size_t *len, size_t *cap, size_t n)
{
    while (*len + n > *cap) {
        size_t ncap = *cap ? 2 * *cap : 4096;
        uint8_t *b = realloc(*bytes, ncap);
        if (!b)
            return -1;
        *bytes = b;
        *cap = ncap;
    }
    memset(*bytes + *len, 0, n);
    *len += n;
    return 0;
}

/* The buffer of records being made. */
typedef struct Images {
    uint8_t *bytes;
    size_t len, cap;
    size_t *offsets;      /* where each record starts */
    AsmCode **lists;      /* the lists of one image: start-up, main, the rest */
    LineTable *lines;     /* each record's source lines */
} Images;

/* Appends processor p's record: header, mem[0], code. Returns 0 or -1. */
static int gen_image(Gen *g, Images *im, AsmCode *startup, uint32_t p, uint32_t mem_words)
{
    Program *prog = g->prog;
    g->processor = p;
    AsmCode *main_code = gen_procedure(g, prog->main);
    int rc = -1;
    if (!main_code || main_code->failed || reach(g, main_code, p + 1) != 0)
        goto done;
    size_t n = 0;
    im->lists[n++] = startup;
    im->lists[n++] = main_code;
    for (uint32_t i = 0; i < prog->nprocs; i++)
        if (prog->procs[i] != prog->main && prog->procs[i]->stamp == p + 1)
            im->lists[n++] = prog->procs[i]->code;
    size_t start = im->offsets[p] = im->len;
    uint32_t sp0 = mem_words - prog->global_words;
    if (reserve(&im->bytes, &im->len, &im->cap, 12) != 0 ||
        asm_layout(im->lists, n, 4, &im->bytes, &im->len, &im->cap, im->lines) != 0)
        goto done;
    uint32_t length = (uint32_t)(im->len - start - 8);
    lines_end_record(im->lines, length);
    put32(im->bytes + start, length);
    put32(im->bytes + start + 4, 1);            /* entry: word 1 */
    put32(im->bytes + start + 8, sp0);          /* mem[0] = M - G */
    if ((uint64_t)(length + 3) / 4 + MIN_STACK_WORDS > sp0)
        diag_error(g->d, prog->main->pos, "the program (%u %s on processor %u) and its "
                   "globals (%u %s) leave fewer than 64 words of stack in --mem %u",
                   (unsigned)((length + 3) / 4), plural((length + 3) / 4, "word", "words"),
                   (unsigned)p, (unsigned)prog->global_words,
                   plural(prog->global_words, "word", "words"), (unsigned)mem_words);
    rc = 0;
done:
    if (main_code)
        asm_free(main_code);
    free(main_code);
    return rc;
}

/* Frees the images' buffers and every procedure's code. */
static void images_free(Images *im, Program *prog, AsmCode *startup)
{
    for (uint32_t i = 0; i < prog->nprocs; i++) {
        if (prog->procs[i]->code)
            asm_free(prog->procs[i]->code);
        free(prog->procs[i]->code);
        prog->procs[i]->code = NULL;
    }
    if (startup)
        asm_free(startup);
    free(startup);
    free(im->offsets);
    free(im->lists);
    lines_free(im->lines);
}

/* A table for the source lines of every record, with the procedures'
 * names; NULL when out of memory. */
static LineTable *new_lines(const Program *prog, const Diag *d)
{
    LineTable *t = lines_new(d->file, d->text, d->len, prog->nprocs);
    for (uint32_t i = 0; t && i < prog->nprocs; i++) {
        const Proc *p = prog->procs[i];
        lines_set_proc(t, p->index, p->is_func ? "func" : "proc", p->name, p->len);
    }
    return t;
}

int gen_program(Program *prog, Diag *d, uint32_t mem_words, HexImage *img)
{
    Gen g = { .prog = prog, .d = d };
    Images im = { 0 };
    int errors = d->errors, rc = -1;
    memset(img, 0, sizeof *img);
    AsmCode *startup = gen_startup(&g, prog->main);
    im.offsets = malloc(prog->nimages * sizeof *im.offsets);
    im.lists = malloc((prog->nprocs + 2) * sizeof *im.lists);
    im.lines = new_lines(prog, d);
    if (!startup || !im.offsets || !im.lists || !im.lines)
        goto done;
    for (uint32_t p = 0; p < prog->nimages && d->errors == errors; p++)
        if (gen_image(&g, &im, startup, p, mem_words) != 0)
            goto done;
    if (d->errors != errors || im.lines->failed)
        goto done;
    img->records = malloc(prog->nimages * sizeof *img->records);
    if (!img->records)
        goto done;
    for (uint32_t p = 0; p < prog->nimages; p++) {
        const uint8_t *r = im.bytes + im.offsets[p];
        img->records[p] = (HexRecord){ .length = r[0] | r[1] << 8 | r[2] << 16 |
                                                 (uint32_t)r[3] << 24,
                                       .entry = 1, .image = r + 8 };
    }
    img->bytes = im.bytes;
    img->nbytes = im.len;
    img->count = prog->nimages;
    img->lines = im.lines;
    im.bytes = NULL;
    im.lines = NULL;
    rc = 0;
done:
    free(im.bytes);
    images_free(&im, prog, startup);
    return rc;
}
