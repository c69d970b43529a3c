/* Differential fuzzer of the code generator: random valid programs are
 * compiled and run on the machine double (tests/unit/machine_double.h), and
 * what each processor prints must equal what an independent interpreter of
 * the same program, written here from spec/language.md and spec/isa.md,
 * says it prints.
 *
 * The programs mix every kind of expression (operators of every kind,
 * constants, locals, globals, array elements with computed indices, calls
 * of funcs with side effects on a global, recursion, procid, nprocs, the
 * network index) with assignments, ifs, bounded loops, calls with array
 * arguments, sends to the processor itself, multicasts whose lists name
 * the processor itself one or more times, messages of several words to
 * the processor itself (lists of words and slices of arrays, read back in
 * one or two parts, some longer than the receives the compiler unrolls),
 * networks, and at the end a broadcast to the program's other processors
 * (all), which each adds up.
 * Evaluation order is observable through the side effects, so the
 * compiler's reordering and its temporaries are checked too. Divisors are made odd, array indices
 * masked to the array, and recursion bounded, so every program is defined.
 *
 *   fuzz_codegen --iterations N   N programs from fixed seeds (make test/check)
 *   fuzz_codegen --forever        until interrupted (make fuzz)
 *   fuzz_codegen --show N         prints program N of the fixed seeds
 * A failing program is written to fuzz-codegen-fail.x with what it printed
 * and what it should have. */
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

#include "compiler/compiler.h"
#include "tests/unit/machine_double.h"
#include "tests/fuzz/fuzz.h"


/* ---- the programs ---- */

typedef enum EKind {          /* expressions */
    E_NUM, E_LOCAL, E_GLOBAL, E_COUNTER, E_CONST, E_PROCID, E_NPROCS, E_INDEX,
    E_LARRAY, E_GARRAY, E_MARRAY, E_F1, E_BUMP, E_REC, E_PICK, E_NEG, E_NOT, E_BIN
} EKind;

typedef enum SKind {          /* statements, and the parts of a message */
    S_ASSIGN_LOCAL = E_BIN + 1, S_ASSIGN_GLOBAL, S_ASSIGN_LARRAY, S_ASSIGN_GARRAY,
    S_PRINT, S_IF, S_LOOP, S_PUT, S_SELF_SEND, S_MULTICAST, S_MESSAGE, S_BLOCK,
    P_WORDS,                  /* [a[0], ..., a[n-1]] */
    P_SLICE                   /* la, ga or gm (value 0, 1, 2) [a[0] for a[1]], n words */
} SKind;

typedef enum Op { ADD, SUB, MUL, DIV, REM, AND, OR, XOR, SHL, SHR, EQ, NE, LT, LE, GT, GE,
                  NOPS } Op;

static const char *const op_text[NOPS] = { "+", "-", "*", "/", "%", "and", "or", "xor",
                                           "<<", ">>", "=", "~=", "<", "<=", ">", ">=" };

/* A node of a generated program: an expression or a statement. */
typedef struct E {
    int kind;             /* an EKind or an SKind */
    uint32_t value;       /* E_NUM; which variable, constant, array or port */
    int form;             /* E_NUM: decimal, hex or character */
    Op op;
    struct E *a[6];       /* operands, arguments, sub-statements; a multicast's
                             value, destinations (1..4) and computed port (5);
                             a message's words (0), destination (1), computed
                             port (2) and the one or two slices that read it
                             (3, 4) */
    int n;
} E;

/* Nodes come from a pool reset for each program; the locals l0..l2 appear
 * in expressions, l3 only counts loops. Messages longer than 4 words go
 * to and from gm, of MSIZE words. */
enum { POOL = 20000, NLOCALS = 3, NCONSTS = 2, MSIZE = 32, MLONGEST = 24 };

static E pool[POOL];
static int used;
static uint32_t consts[NCONSTS];
static int max_list;          /* most entries a list may have: the machine's size */

static E *node(int k)
{
    if (used == POOL)
        used = POOL - 1;         /* never reached with the sizes below */
    E *e = &pool[used++];
    memset(e, 0, sizeof *e);
    e->kind = k;
    return e;
}

static E *num(uint32_t v)
{
    E *e = node(E_NUM);
    e->value = v;
    return e;
}

static E *bin(Op op, E *x, E *y)
{
    E *e = node(E_BIN);
    e->op = op;
    e->a[0] = x;
    e->a[1] = y;
    e->n = 2;
    return e;
}

static E *expr(int depth, int in_network);

/* A number: mostly small, sometimes one at an edge of 32-bit arithmetic
 * (sign, shift counts, prefix lengths), sometimes any. */
static uint32_t interesting(void)
{
    static const uint32_t v[] = { 0, 1, 2, 7, 15, 16, 31, 32, 33, 255, 256, 4095, 65536,
                                  0x7FFFFFFF, 0x80000000, 0xFFFFFFFF, 0xFFFFFFF0, 1000000 };
    return fuzz_below(3) ? fuzz_below(40) : fuzz_below(2) ? v[fuzz_below(sizeof v / sizeof v[0])] : (uint32_t)fuzz_next();
}

/* A leaf: something that needs no parentheses. */
static E *leaf(int in_network)
{
    E *e;
    switch (fuzz_below(in_network ? 10 : 9)) {
    case 0: case 1:
        e = num(interesting());
        e->form = e->value < 128 && e->value >= 32 && e->value != '\\' && e->value != '\'' &&
                  fuzz_below(4) == 0 ? 2 : fuzz_below(3) == 0;
        return e;
    case 2: case 3: e = node(E_LOCAL); e->value = fuzz_below(NLOCALS); return e;
    case 4: e = node(E_GLOBAL); e->value = fuzz_below(2); return e;
    case 5: return node(E_COUNTER);
    case 6: e = node(E_CONST); e->value = fuzz_below(NCONSTS); return e;
    case 7: return node(E_PROCID);
    case 8: return node(E_NPROCS);
    default: return node(E_INDEX);
    }
}

/* An index or an argument masked into range: (e) and mask. */
static E *masked(int depth, int in_network, uint32_t mask)
{
    return bin(AND, expr(depth, in_network), num(mask));
}

/* An element: a leaf, an array element, a call, or an expression in
 * parentheses. */
static E *element(int depth, int in_network)
{
    E *e;
    if (depth <= 0)
        return leaf(in_network);
    switch (fuzz_below(10)) {
    case 0: case 1: {
        static const int kinds[] = { E_LARRAY, E_GARRAY, E_MARRAY };
        e = node(kinds[fuzz_below(3)]);
        uint32_t size = e->kind == E_MARRAY ? MSIZE : 8;
        e->a[0] = fuzz_below(3) ? masked(depth - 1, in_network, size - 1) : num(fuzz_below(size));
        return e;
    }
    case 2:
        e = node(E_F1);
        e->a[0] = expr(depth - 1, in_network);
        e->a[1] = expr(depth - 1, in_network);
        return e;
    case 3:
        e = node(E_BUMP);
        e->a[0] = expr(depth - 1, in_network);
        return e;
    case 4:
        e = node(E_REC);
        e->a[0] = masked(depth - 1, in_network, 15);
        return e;
    case 5:
        e = node(E_PICK);
        e->value = fuzz_below(2);               /* la or ga */
        e->a[0] = expr(depth - 1, in_network);
        return e;
    case 6: case 7:
        return expr(depth - 1, in_network);   /* printed in parentheses */
    default:
        return leaf(in_network);
    }
}

/* An expression: -e, ~e, or elements joined by one operator. */
static E *expr(int depth, int in_network)
{
    uint32_t r = fuzz_below(10);
    if (r == 0 || r == 1) {
        E *e = node(r == 0 ? E_NEG : E_NOT);
        e->a[0] = element(depth, in_network);
        return e;
    }
    if (r < 5)
        return element(depth, in_network);
    Op op = (Op)fuzz_below(NOPS);
    E *e = node(E_BIN);
    e->op = op;
    int assoc = op == ADD || op == MUL || op == AND || op == OR || op == XOR;
    e->n = assoc ? 2 + (int)fuzz_below(3) : 2;
    for (int i = 0; i < e->n; i++)
        e->a[i] = element(depth - 1, in_network);
    if (op == DIV || op == REM)               /* an odd divisor is never 0 */
        e->a[1] = bin(OR, e->a[1], num(1));
    return e;
}

static E *statement(int depth, int in_network, int in_loop);

/* (e and 0) + k: k, after e is worked out for its side effects. */
static E *masked_away(int depth, int in_network, E *k)
{
    return bin(ADD, bin(AND, expr(depth, in_network), num(0)), k);
}

/* A destination that is this processor: procid, the network index, or
 * procid after an expression with side effects. */
static E *self_destination(int depth, int in_network)
{
    switch (fuzz_below(in_network ? 3 : 2)) {
    case 0:  return node(E_PROCID);
    case 1:  return masked_away(depth, in_network, node(E_PROCID));
    default: return node(E_INDEX);
    }
}

/* { [d1, ..., dn] [: k] ! e; k ? l }: a multicast whose list names this
 * processor alone, once or more, so that exactly one copy comes back. The
 * port is a constant or is computed after an expression with side effects. */
static E *multicast_to_self(int depth, int in_network)
{
    E *s = node(S_MULTICAST);
    s->value = fuzz_below(5);                   /* port 0..3, or 4: no port (0) */
    s->form = (int)fuzz_below(NLOCALS);         /* the local that receives */
    s->a[0] = expr(depth, in_network);
    s->n = 1 + (int)fuzz_below((uint32_t)max_list);
    for (int i = 0; i < s->n; i++)
        s->a[1 + i] = self_destination(depth - 1, in_network);
    if (s->value < 4 && fuzz_below(2))
        s->a[5] = masked_away(depth - 1, in_network, num(s->value));
    return s;
}

/* name[i for n], a slice of `len` words that fits its array: la or ga
 * (from i <= 3) for up to 4 words, gm (from i <= 7) for any. Its start
 * and its length are constants or are worked out with side effects; a
 * start may read the count gc, which a length may bump, so that their
 * order shows. */
static E *slice(int depth, int in_network, int len)
{
    E *s = node(P_SLICE);
    s->n = len;
    s->value = len > 4 ? 2 : fuzz_below(3);
    uint32_t mask = s->value == 2 ? 7 : 3, r = fuzz_below(4);
    s->a[0] = r == 0 ? num(fuzz_below(mask + 1)) : r == 1 ? masked(depth, in_network, mask)
            : bin(AND, bin(ADD, node(E_COUNTER), expr(depth, in_network)), num(mask));
    r = fuzz_below(4);
    if (r < 2) {
        s->a[1] = num((uint32_t)len);
    } else if (r == 2) {
        s->a[1] = masked_away(depth, in_network, num((uint32_t)len));
    } else {                                    /* (bump(e) and 0) + len */
        E *bumped = node(E_BUMP);
        bumped->a[0] = expr(depth, in_network);
        s->a[1] = bin(ADD, bin(AND, bumped, num(0)), num((uint32_t)len));
    }
    return s;
}

/* { d [: k] ! [e1, ..., en]; k ? x[i for m]; k ? y[j for n - m] }, or the
 * same with d [: k] ! a[i for n]: a message to this processor, read back
 * whole or in two parts into slices of the arrays. The port is a constant
 * or is computed after an expression with side effects. */
static E *message_to_self(int depth, int in_network)
{
    E *s = node(S_MESSAGE);
    s->value = fuzz_below(5);                   /* port 0..3, or 4: no port (0) */
    if (fuzz_below(2)) {
        E *w = s->a[0] = node(P_WORDS);
        w->n = 1 + (int)fuzz_below(6);
        for (int i = 0; i < w->n; i++)
            w->a[i] = expr(depth, in_network);
        s->n = w->n;
    } else {
        s->n = 1 + (int)fuzz_below(fuzz_below(4) ? 4 : MLONGEST);
        s->a[0] = slice(depth - 1, in_network, s->n);
    }
    s->a[1] = self_destination(depth - 1, in_network);
    if (s->value < 4 && fuzz_below(2))
        s->a[2] = masked_away(depth - 1, in_network, num(s->value));
    int first = s->n > 1 && fuzz_below(2) ? 1 + (int)fuzz_below((uint32_t)s->n - 1) : s->n;
    s->a[3] = slice(depth - 1, in_network, first);
    s->a[4] = first < s->n ? slice(depth - 1, in_network, s->n - first) : NULL;
    return s;
}

/* { s; s; ... } */
static E *block(int count, int depth, int in_network, int in_loop)
{
    E *b = node(S_BLOCK);
    b->n = count < 4 ? count : 4;
    for (int i = 0; i < b->n; i++)
        b->a[i] = statement(depth, in_network, in_loop);
    return b;
}

static E *statement(int depth, int in_network, int in_loop)
{
    E *s;
    int d = 1 + (int)fuzz_below(3);
    switch (fuzz_below(depth > 0 ? 14 : 10)) {
    case 0: case 1:
        s = node(S_ASSIGN_LOCAL);
        s->value = fuzz_below(NLOCALS);
        s->a[0] = expr(d, in_network);
        return s;
    case 2:
        s = node(S_ASSIGN_GLOBAL);
        s->value = fuzz_below(2);
        s->a[0] = expr(d, in_network);
        return s;
    case 3:
        s = node(fuzz_below(2) ? S_ASSIGN_LARRAY : S_ASSIGN_GARRAY);
        s->a[0] = masked(d - 1, in_network, 7);
        s->a[1] = expr(d, in_network);
        return s;
    case 4: case 5:
        s = node(S_PRINT);
        s->a[0] = expr(d, in_network);
        return s;
    case 6:
        s = node(S_PUT);
        s->value = fuzz_below(2);
        s->a[0] = expr(d - 1, in_network);
        s->a[1] = expr(d - 1, in_network);
        return s;
    case 7:
        s = node(S_SELF_SEND);
        s->value = fuzz_below(5);               /* port 0..3, or 4: no port (0) */
        s->n = (int)fuzz_below(NLOCALS);        /* the local that receives */
        s->a[0] = expr(d, in_network);
        return s;
    case 8:
        return multicast_to_self(d, in_network);
    case 9:
        return message_to_self(d, in_network);
    case 10: case 11:
        s = node(S_IF);
        s->a[0] = expr(d, in_network);
        s->a[1] = statement(depth - 1, in_network, in_loop);
        s->a[2] = fuzz_below(2) ? statement(depth - 1, in_network, in_loop) : NULL;
        if (s->a[2] && s->a[1]->kind == S_IF) {    /* no dangling else */
            E *b = node(S_BLOCK);
            b->a[0] = s->a[1];
            b->n = 1;
            s->a[1] = b;
        }
        return s;
    case 12:
        if (!in_loop) {
            s = node(S_LOOP);
            s->value = fuzz_below(5);           /* iterations */
            s->a[0] = block(1 + (int)fuzz_below(3), depth - 1, in_network, 1);
            return s;
        }
        /* fall through */
    default:
        return block(1 + (int)fuzz_below(3), depth - 1, in_network, in_loop);
    }
}

/* The program: statements before, a network for, a network of branches,
 * statements after, and perhaps a broadcast that every processor adds up:
 * all : 4 ! bcast (port 4 is used by nothing else), or all : bport ! bcast
 * with bport = (e and 0) + 4. */
typedef struct Program {
    E *before, *body, *after;
    E *branches[4];
    int nbranches;        /* 0: no network of branches */
    uint32_t count;       /* network i for count (0: none) */
    uint32_t records;     /* processor records: the larger, or 1 */
    E *c1;                /* val c1's expression */
    E *bcast, *bport;     /* the broadcast's value and computed port, or NULL */
} Program;

static void make_program(Program *p)
{
    used = 0;
    consts[0] = interesting();
    Op op = (Op)fuzz_below(NOPS);
    p->c1 = bin(op, num(interesting()), op == DIV || op == REM ?
                bin(OR, num(interesting()), num(1)) : num(interesting()));
    p->count = fuzz_below(3) ? 1 + fuzz_below(4) : 0;
    p->nbranches = fuzz_below(3) ? 0 : 1 + (int)fuzz_below(4);
    p->records = p->count > (uint32_t)p->nbranches ? p->count : (uint32_t)p->nbranches;
    p->records = p->records ? p->records : 1;
    max_list = p->records > 2 ? 4 : 2;          /* MOUT faults past the machine's size */
    p->before = block(1 + (int)fuzz_below(4), 2, 0, 0);
    p->body = p->count ? block(1 + (int)fuzz_below(4), 2, 1, 0) : NULL;
    for (int i = 0; i < p->nbranches; i++)
        p->branches[i] = statement(2, 0, 0);
    p->after = block(1 + (int)fuzz_below(3), 2, 0, 0);
    p->bcast = fuzz_below(2) ? expr(2, 0) : NULL;
    p->bport = p->bcast && fuzz_below(2) ? masked_away(1, 0, num(4)) : NULL;
}

/* ---- the interpreter ---- */

typedef struct State {
    uint32_t l[NLOCALS + 1], la[8], g[2], gc, ga[8], gm[MSIZE];
    uint32_t procid, nprocs, index;
    uint32_t ports[5][64];   /* what this processor sent itself, per port */
    int head[5], tail[5];
    uint32_t out[4096];
    int nout;
    uint32_t bval;           /* the value it broadcasts */
} State;

static int32_t sgn(uint32_t x)
{
    return x < 0x80000000u ? (int32_t)x : (int32_t)(x - 0x80000000u) - 0x7FFFFFFF - 1;
}

/* One operator on two words, from the OPR table of spec/isa.md (written
 * again here, not taken from the compiler's fold.c). */
static uint32_t apply(Op op, uint32_t a, uint32_t b)
{
    switch (op) {
    case ADD: return a + b;
    case SUB: return a - b;
    case MUL: return a * b;
    case DIV: return sgn(a) == INT32_MIN && sgn(b) == -1 ? a : (uint32_t)(sgn(a) / sgn(b));
    case REM: return sgn(a) == INT32_MIN && sgn(b) == -1 ? 0 : (uint32_t)(sgn(a) % sgn(b));
    case AND: return a & b;
    case OR:  return a | b;
    case XOR: return a ^ b;
    case SHL: return b >= 32 ? 0 : a << b;
    case SHR: return b >= 32 ? 0 : a >> b;
    case EQ:  return a == b;
    case NE:  return a != b;
    case LT:  return sgn(a) < sgn(b);
    case LE:  return sgn(a) <= sgn(b);
    case GT:  return sgn(a) > sgn(b);
    case GE:  return sgn(a) >= sgn(b);
    case NOPS: break;
    }
    return 0;
}

/* The program's func rec: 1 + n + (n - 1) + ... + 1 for n > 0. */
static uint32_t rec(uint32_t n)
{
    return sgn(n) <= 0 ? 1 : n + rec(n - 1);
}

/* Evaluates e, operands left to right, as the language defines. */
static uint32_t eval(const E *e, State *s)
{
    uint32_t x, y;
    switch ((EKind)e->kind) {
    case E_NUM:     return e->value;
    case E_LOCAL:   return s->l[e->value];
    case E_GLOBAL:  return s->g[e->value];
    case E_COUNTER: return s->gc;
    case E_CONST:   return consts[e->value];
    case E_PROCID:  return s->procid;
    case E_NPROCS:  return s->nprocs;
    case E_INDEX:   return s->index;
    case E_LARRAY:  return s->la[eval(e->a[0], s) & 7];
    case E_GARRAY:  return s->ga[eval(e->a[0], s) & 7];
    case E_MARRAY:  return s->gm[eval(e->a[0], s) & (MSIZE - 1)];
    case E_F1:      x = eval(e->a[0], s); y = eval(e->a[1], s); return (x ^ y) + 7;
    case E_BUMP:    x = eval(e->a[0], s); s->gc++; return s->gc * 1000 + x;
    case E_REC:     return rec(eval(e->a[0], s));
    case E_PICK:    x = eval(e->a[0], s); return (e->value ? s->ga : s->la)[x & 7];
    case E_NEG:     return 0u - eval(e->a[0], s);
    case E_NOT:     return ~eval(e->a[0], s);
    case E_BIN:
        x = eval(e->a[0], s);
        for (int i = 1; i < e->n; i++)
            x = apply(e->op, x, eval(e->a[i], s));
        return x;
    }
    return 0;
}

/* The array a slice names (P_SLICE's value). */
static uint32_t *slice_array(State *s, const E *slice)
{
    return slice->value == 0 ? s->la : slice->value == 1 ? s->ga : s->gm;
}

/* A message to this processor and its receives: the words (left to right,
 * or the slice's start, then its length), the destination, the port, the
 * words read from the array; then each receive's start and length, and
 * its words stored, as the message comes back to the port at once. */
static void exec_message(const E *st, State *s)
{
    uint32_t words[MLONGEST], first = 0;
    const E *w = st->a[0];
    if (w->kind == P_WORDS) {
        for (int i = 0; i < w->n; i++)
            words[i] = eval(w->a[i], s);
    } else {
        first = eval(w->a[0], s);
        (void)eval(w->a[1], s);
    }
    (void)eval(st->a[1], s);
    if (st->a[2])
        (void)eval(st->a[2], s);
    if (w->kind == P_SLICE)
        for (int i = 0; i < st->n; i++)
            words[i] = slice_array(s, w)[first + (uint32_t)i];
    int at = 0;
    for (int part = 3; part <= 4 && st->a[part]; part++) {
        const E *r = st->a[part];
        uint32_t start = eval(r->a[0], s);
        (void)eval(r->a[1], s);
        for (int j = 0; j < r->n; j++)
            slice_array(s, r)[start + (uint32_t)j] = words[at++];
    }
}

/* Runs a statement; a self-send followed by its receive is an assignment,
 * as the packet comes back to the same port before anything else can. */
static void exec(const E *st, State *s)
{
    uint32_t x, y;
    switch ((SKind)st->kind) {
    case S_ASSIGN_LOCAL:  s->l[st->value] = eval(st->a[0], s); return;
    case S_ASSIGN_GLOBAL: s->g[st->value] = eval(st->a[0], s); return;
    case S_ASSIGN_LARRAY: x = eval(st->a[0], s) & 7; s->la[x] = eval(st->a[1], s); return;
    case S_ASSIGN_GARRAY: x = eval(st->a[0], s) & 7; s->ga[x] = eval(st->a[1], s); return;
    case S_PRINT:
        x = eval(st->a[0], s);
        if (s->nout < 4096)
            s->out[s->nout++] = x;
        return;
    case S_PUT:
        x = eval(st->a[0], s);
        y = eval(st->a[1], s);
        (st->value ? s->ga : s->la)[x & 7] = y;
        return;
    case S_SELF_SEND: {
        int port = st->value == 4 ? 0 : (int)st->value;
        s->l[st->n] = eval(st->a[0], s);    /* sent, then received back at once */
        (void)port;
        return;
    }
    case S_MULTICAST:                       /* the value, the list, the port */
        x = eval(st->a[0], s);
        for (int i = 0; i < st->n; i++)
            (void)eval(st->a[1 + i], s);
        if (st->a[5])
            (void)eval(st->a[5], s);
        s->l[st->form] = x;                 /* one copy, received back at once */
        return;
    case S_MESSAGE:
        exec_message(st, s);
        return;
    case S_IF:
        if (eval(st->a[0], s))
            exec(st->a[1], s);
        else if (st->a[2])
            exec(st->a[2], s);
        return;
    case S_LOOP:
        for (s->l[NLOCALS] = 0; s->l[NLOCALS] < st->value; s->l[NLOCALS]++)
            exec(st->a[0], s);
        return;
    case S_BLOCK:
        for (int i = 0; i < st->n; i++)
            exec(st->a[i], s);
        return;
    case P_WORDS: case P_SLICE:             /* parts of a message, not statements */
        return;
    }
}

/* What processor `proc` of a machine of `nprocs` prints. */
/* What the program's hash(a, n) prints: the arrays' words in order, which
 * the words of messages and the stores to elements decide. */
static void put_hash(State *s, const uint32_t *a, int n)
{
    uint32_t h = 0;
    for (int k = 0; k < n; k++)
        h = h * 31 + a[k];
    if (s->nout < 4096)
        s->out[s->nout++] = h;
}

static void interpret(const Program *p, uint32_t proc, uint32_t nprocs, State *s)
{
    memset(s, 0, sizeof *s);
    s->procid = proc;
    s->nprocs = nprocs;
    exec(p->before, s);
    if (p->count && proc < p->count) {
        s->index = proc;
        exec(p->body, s);
    }
    if ((int)proc < p->nbranches)
        exec(p->branches[proc], s);
    exec(p->after, s);
    put_hash(s, s->la, 8);
    put_hash(s, s->ga, 8);
    put_hash(s, s->gm, MSIZE);
    if (p->bcast) {
        s->bval = eval(p->bcast, s);
        if (p->bport)
            (void)eval(p->bport, s);
    }
}

/* What processor `proc` prints last: the sum of the others' broadcasts. */
static void receive_broadcasts(const Program *p, uint32_t proc, const uint32_t *bvals,
                               State *s)
{
    uint32_t sum = 0;
    for (uint32_t q = 0; q < p->records; q++)
        sum += q == proc ? 0 : bvals[q];
    if (p->bcast && s->nout < 4096)
        s->out[s->nout++] = sum;
}

/* ---- the program as text ---- */

typedef struct Text {
    char *buf;
    size_t n, cap;
} Text;

static void put(Text *t, const char *fmt, ...) __attribute__((format(printf, 2, 3)));

static void put(Text *t, const char *fmt, ...)
{
    va_list ap;
    for (;;) {
        va_start(ap, fmt);
        int k = vsnprintf(t->buf + t->n, t->cap - t->n, fmt, ap);
        va_end(ap);
        if ((size_t)k < t->cap - t->n) {
            t->n += (size_t)k;
            return;
        }
        t->cap = 2 * t->cap + (size_t)k;
        t->buf = realloc(t->buf, t->cap);
    }
}

static void print_expr(Text *t, const E *e);

/* An element: composite expressions go in parentheses. */
static void print_element(Text *t, const E *e)
{
    if (e->kind == E_NEG || e->kind == E_NOT || e->kind == E_BIN) {
        put(t, "(");
        print_expr(t, e);
        put(t, ")");
    } else {
        print_expr(t, e);
    }
}

static void print_expr(Text *t, const E *e)
{
    static const char *const local[] = { "l0", "l1", "l2", "l3" };
    switch ((EKind)e->kind) {
    case E_NUM:
        if (e->form == 2)
            put(t, "'%c'", (char)e->value);
        else
            put(t, e->form ? "#%X" : "%u", (unsigned)e->value);
        return;
    case E_LOCAL:   put(t, "%s", local[e->value]); return;
    case E_GLOBAL:  put(t, "g%u", (unsigned)e->value); return;
    case E_COUNTER: put(t, "gc"); return;
    case E_CONST:   put(t, "c%u", (unsigned)e->value); return;
    case E_PROCID:  put(t, "procid"); return;
    case E_NPROCS:  put(t, "nprocs"); return;
    case E_INDEX:   put(t, "i"); return;
    case E_LARRAY: case E_GARRAY: case E_MARRAY:
        put(t, e->kind == E_LARRAY ? "la[" : e->kind == E_GARRAY ? "ga[" : "gm[");
        print_expr(t, e->a[0]);
        put(t, "]");
        return;
    case E_F1: case E_BUMP: case E_REC: case E_PICK:
        put(t, e->kind == E_F1 ? "f1(" : e->kind == E_BUMP ? "bump(" : e->kind == E_REC ?
            "rec(" : e->value ? "pick(ga, " : "pick(la, ");
        print_expr(t, e->a[0]);
        if (e->kind == E_F1) {
            put(t, ", ");
            print_expr(t, e->a[1]);
        }
        put(t, ")");
        return;
    case E_NEG: case E_NOT:
        put(t, e->kind == E_NEG ? "-" : "~");
        print_element(t, e->a[0]);
        return;
    case E_BIN:
        for (int i = 0; i < e->n; i++) {
            if (i)
                put(t, " %s ", op_text[e->op]);
            print_element(t, e->a[i]);
        }
        return;
    }
}

/* name[i for n] */
static void print_slice(Text *t, const E *s)
{
    static const char *const name[] = { "la", "ga", "gm" };
    put(t, "%s[", name[s->value]);
    print_expr(t, s->a[0]);
    put(t, " for ");
    print_expr(t, s->a[1]);
    put(t, "]");
}

/* { procid [: k] ! [..] or a[i for n]; k ? x[i for m] [; k ? y[j for n - m]] } */
static void print_message(Text *t, const E *s)
{
    const E *w = s->a[0];
    unsigned port = s->value == 4 ? 0u : (unsigned)s->value;
    put(t, "{ ");
    print_element(t, s->a[1]);
    if (s->a[2]) {
        put(t, " : ");
        print_element(t, s->a[2]);
    } else if (s->value < 4) {
        put(t, " : %u", port);
    }
    put(t, " ! ");
    if (w->kind == P_SLICE) {
        print_slice(t, w);
    } else {
        put(t, "[");
        for (int i = 0; i < w->n; i++) {
            put(t, i ? ", " : "");
            print_expr(t, w->a[i]);
        }
        put(t, "]");
    }
    for (int part = 3; part <= 4 && s->a[part]; part++) {
        put(t, "; %u ? ", port);
        print_slice(t, s->a[part]);
    }
    put(t, " }");
}

/* A statement, indented; a loop is printed with its counter l3. */
static void print_stmt(Text *t, const E *s, int indent)
{
    static const char *const local[] = { "l0", "l1", "l2", "l3" };
    put(t, "%*s", indent, "");
    switch ((SKind)s->kind) {
    case S_ASSIGN_LOCAL:  put(t, "%s := ", local[s->value]); print_expr(t, s->a[0]); break;
    case S_ASSIGN_GLOBAL: put(t, "g%u := ", (unsigned)s->value); print_expr(t, s->a[0]); break;
    case S_ASSIGN_LARRAY: case S_ASSIGN_GARRAY:
        put(t, s->kind == S_ASSIGN_LARRAY ? "la[" : "ga[");
        print_expr(t, s->a[0]);
        put(t, "] := ");
        print_expr(t, s->a[1]);
        break;
    case S_PRINT: put(t, "print "); print_expr(t, s->a[0]); break;
    case S_PUT:
        put(t, "put(%s, ", s->value ? "ga" : "la");
        print_expr(t, s->a[0]);
        put(t, ", ");
        print_expr(t, s->a[1]);
        put(t, ")");
        break;
    case S_SELF_SEND:
        if (s->value == 4)
            put(t, "{ procid ! ");
        else
            put(t, "{ procid : %u ! ", (unsigned)s->value);
        print_expr(t, s->a[0]);
        put(t, "; %u ? %s }", s->value == 4 ? 0u : (unsigned)s->value, local[s->n]);
        break;
    case S_MULTICAST:
        put(t, "{ [");
        for (int i = 0; i < s->n; i++) {
            put(t, i ? ", " : "");
            print_expr(t, s->a[1 + i]);
        }
        put(t, "]");
        if (s->a[5]) {
            put(t, " : ");
            print_element(t, s->a[5]);
        } else if (s->value < 4) {
            put(t, " : %u", (unsigned)s->value);
        }
        put(t, " ! ");
        print_expr(t, s->a[0]);
        put(t, "; %u ? %s }", s->value == 4 ? 0u : (unsigned)s->value, local[s->form]);
        break;
    case S_MESSAGE:
        print_message(t, s);
        break;
    case S_IF:
        put(t, "if ");
        print_expr(t, s->a[0]);
        put(t, " then\n");
        print_stmt(t, s->a[1], indent + 2);
        if (s->a[2]) {
            put(t, "\n%*selse\n", indent, "");
            print_stmt(t, s->a[2], indent + 2);
        }
        break;
    case S_LOOP:
        put(t, "{ l3 := 0; while l3 < %u do {\n", (unsigned)s->value);
        print_stmt(t, s->a[0], indent + 2);
        put(t, ";\n%*s  l3 := l3 + 1 } }", indent, "");
        break;
    case S_BLOCK:
        put(t, "{\n");
        for (int i = 0; i < s->n; i++) {
            print_stmt(t, s->a[i], indent + 2);
            put(t, i + 1 < s->n ? ";\n" : "\n");
        }
        put(t, "%*s}", indent, "");
        break;
    case P_WORDS: case P_SLICE:             /* printed by print_message */
        break;
    }
}

/* The whole program: the same declarations and procedures every time,
 * whose meaning the interpreter knows, and a generated main. */
static void print_program(Text *t, const Program *p)
{
    put(t, "val c0 = %u;\nval c1 = ", (unsigned)consts[0]);
    print_expr(t, p->c1);
    put(t, ";\nvar g0;\nvar g1;\nvar gc;\narray ga[8];\narray gm[%d];\n\n", MSIZE);
    put(t, "func f1(val a, val b) is return (a xor b) + 7\n"
        "func bump(val x) is { gc := gc + 1; return (gc * 1000) + x }\n"
        "func rec(val n) is if n <= 0 then return 1 else return n + rec(n - 1)\n"
        "func pick(array a, val i) is return a[i and 7]\n"
        "proc put(array a, val i, val v) is a[i and 7] := v\n"
        "func hash(array a, val n) is\n  var k; var h;\n"
        "{ k := 0; h := 0; while k < n do { h := (h * 31) + a[k]; k := k + 1 }; return h }\n\n"
        "proc main() is\n  var l0; var l1; var l2; var l3;\n  array la[8];\n{\n"
        "  l0 := 0; l1 := 0; l2 := 0; l3 := 0;\n"
        "  { la[0] := 0; la[1] := 0; la[2] := 0; la[3] := 0; la[4] := 0; la[5] := 0;"
        " la[6] := 0; la[7] := 0 };\n");
    print_stmt(t, p->before, 2);
    if (p->count) {
        put(t, ";\n  network i for %u do\n", (unsigned)p->count);
        print_stmt(t, p->body, 4);
    }
    if (p->nbranches) {
        put(t, ";\n  network {\n");
        for (int i = 0; i < p->nbranches; i++) {
            print_stmt(t, p->branches[i], 4);
            put(t, i + 1 < p->nbranches ? " &\n" : "\n");
        }
        put(t, "  }");
    }
    put(t, ";\n");
    print_stmt(t, p->after, 2);
    put(t, ";\n  print hash(la, 8); print hash(ga, 8); print hash(gm, %d)", MSIZE);
    if (p->bcast) {
        put(t, ";\n  all : ");
        if (p->bport)
            print_element(t, p->bport);
        else
            put(t, "4");
        put(t, " ! ");
        print_expr(t, p->bcast);
        put(t, ";\n  l1 := 0; l3 := 1;\n  while l3 < %u do { 4 ? l0; l1 := l1 + l0; "
            "l3 := l3 + 1 };\n  print l1", (unsigned)p->records);
    }
    put(t, "\n}\n");
}

/* ---- the check ---- */

/* The values that processor p printed, from the machine's "pN: v" lines. */
static int printed_by(const char *out, uint32_t p, uint32_t *values, int max)
{
    int n = 0;
    for (const char *l = out; *l && n < max; l = strchr(l, '\n') + 1) {
        unsigned proc;
        int v;
        if (sscanf(l, "p%u: %d", &proc, &v) == 2 && proc == p)
            values[n++] = (uint32_t)v;
    }
    return n;
}

static void report(const Text *t, const char *why, const char *detail)
{
    FILE *f = fopen("fuzz-codegen-fail.x", "w");
    if (f) {
        fwrite(t->buf, 1, t->n, f);
        fprintf(f, "| %s\n", why);
        for (const char *l = detail; *l; l = strchr(l, '\n') + 1)
            fprintf(f, "| %.*s\n", (int)(strchr(l, '\n') - l), l);
        fclose(f);
    }
}

/* Generates, compiles, runs and interprets one program; returns 0 if the
 * machine printed what the interpreter did. */
static int check_one(Text *t, char *why, size_t size)
{
    Program p;
    static State s;
    static MdRun run;
    make_program(&p);
    consts[1] = eval(p.c1, &s);
    t->n = 0;
    print_program(t, &p);
    char *msgs = NULL;
    size_t msize = 0;
    HexImage img;
    FILE *f = open_memstream(&msgs, &msize);
    int errors = compile_program("fuzz.x", t->buf, t->n, COMPILE_MEM_DEFAULT, &img, f);
    fclose(f);
    uint32_t records = p.records;
    int rc = 0;
    if (errors) {
        snprintf(why, size, "does not compile:\n%.2000s", msgs);
        rc = -1;
    } else if (img.count != records) {
        snprintf(why, size, "%u records, expected %u\n", img.count, records);
        rc = -1;
    }
    free(msgs);
    if (rc)
        return rc;
    md_run(&img, COMPILE_MEM_DEFAULT, 5000000, &run);
    hex_free(&img);
    if (run.faulted || !run.finished) {
        snprintf(why, size, "%s\n", run.faulted ? run.fault : "did not finish");
        return -1;
    }
    uint32_t nprocs = 2;
    while (nprocs < records)
        nprocs *= 2;
    static uint32_t bvals[4];
    for (uint32_t q = 0; q < records; q++) {
        interpret(&p, q, nprocs, &s);
        bvals[q] = s.bval;
    }
    for (uint32_t q = 0; q < records; q++) {
        static uint32_t got[4096];
        interpret(&p, q, nprocs, &s);
        receive_broadcasts(&p, q, bvals, &s);
        int n = printed_by(run.out, q, got, 4096);
        if (n != s.nout || memcmp(got, s.out, (size_t)n * sizeof *got) != 0) {
            size_t len = (size_t)snprintf(why, size, "processor %u printed:\n%s\nexpected:",
                                          (unsigned)q, run.out);
            for (int k = 0; k < s.nout && len + 16 < size; k++)
                len += (size_t)snprintf(why + len, size - len, " %d", sgn(s.out[k]));
            snprintf(why + len, size - len, "\n");
            return -1;
        }
    }
    return 0;
}

int main(int argc, char **argv)
{
    long iterations = 2000;
    int forever = 0;
    uint64_t seed = 777;
    if (argc >= 2 && strcmp(argv[1], "--forever") == 0) {
        forever = 1;
        seed = (uint64_t)time(NULL);
    } else if (argc >= 3 && strcmp(argv[1], "--iterations") == 0) {
        iterations = atol(argv[2]);
    }
    Text t = { malloc(4096), 0, 4096 };
    static char why[16384];
    if (argc >= 3 && strcmp(argv[1], "--show") == 0) {
        fuzz_rng = seed + (uint64_t)atol(argv[2]);
        int rc = check_one(&t, why, sizeof why);
        fwrite(t.buf, 1, t.n, stdout);
        printf("| %s\n", rc ? why : "runs as it should");
        free(t.buf);
        return rc != 0;
    }
    for (long i = 0; forever || i < iterations; i++) {
        fuzz_rng = seed + (uint64_t)i;
        if (check_one(&t, why, sizeof why) != 0) {
            report(&t, "this program went wrong:", why);
            printf("FAIL fuzz_codegen: program %ld (seed %llu) %s(written to "
                   "fuzz-codegen-fail.x)\n", i, (unsigned long long)(seed + i), why);
            free(t.buf);
            return 1;
        }
        if (forever && i % 1000 == 0)
            fprintf(stderr, "fuzz_codegen: %ld programs\n", i);
    }
    printf("PASS fuzz_codegen (%ld programs from seed %llu)\n", iterations,
           (unsigned long long)seed);
    free(t.buf);
    return 0;
}
