/* The checker: resolves every name, enforces the rules of spec/language.md
 * that the grammar cannot express, folds `val` constants and lays out the
 * globals and each procedure's frame.
 *
 * Names live in two tables: the globals and procedures, and the current
 * procedure's parameters and locals (which may shadow globals); the index of
 * a `network i for n` statement is looked up first while its body is checked.
 * Globals must be declared before use; procedures may be called anywhere, so
 * all of their names are entered before any body is checked.
 *
 * Layout (docs/language.md): the globals take words M-G .. M-1 in declaration
 * order, each `var` one word and each array its size; a frame holds the
 * return-address slot (sp+0), the global base (sp+1), one word per parameter
 * (sp+2 ..), then the `var`s and arrays in declaration order. `val`s take no
 * space. The code generator adds its temporaries after them.
 *
 * Every expression gets an ExprInfo: whether it is constant (and its value),
 * how many operand-stack registers its code needs and whether its evaluation
 * can be reordered. The code generator relies on these. */
#include "compiler/internal.h"
#include "compiler/compiler.h"

#include <stdlib.h>
#include <string.h>

/* An open-addressing hash table of symbols by name. */
typedef struct SymTable {
    Symbol **slots;
    size_t cap, count;
} SymTable;

typedef struct Checker {
    Program *prog;
    Diag *d;
    Arena *a;
    uint32_t mem;         /* --mem: words per processor */
    SymTable globals;     /* globals and procedures */
    SymTable locals;      /* the current procedure's parameters and locals */
    Proc *proc;           /* the procedure being checked */
    Symbol *net_index;    /* the index of the network being checked, if any */
    const CompileDefine *defs;   /* the -D given, and the val each set (or NULL) */
    size_t ndefs;
    Symbol **defined;
    const char *constant; /* whose constant is being checked ("a val"), or NULL */
    int failed;           /* out of memory */
} Checker;

static void check_stmt(Checker *c, Node *s, int top);

/* ---- symbol tables ---- */

static size_t hash_name(const char *s, uint32_t len)
{
    uint64_t h = 14695981039346656037ull;        /* FNV-1a */
    for (uint32_t i = 0; i < len; i++)
        h = (h ^ (unsigned char)s[i]) * 1099511628211ull;
    return (size_t)h;
}

static Symbol *sym_find(const SymTable *t, const char *name, uint32_t len)
{
    if (!t->cap)
        return NULL;
    for (size_t i = hash_name(name, len) & (t->cap - 1);; i = (i + 1) & (t->cap - 1)) {
        Symbol *s = t->slots[i];
        if (!s)
            return NULL;
        if (s->len == len && memcmp(s->name, name, len) == 0)
            return s;
    }
}

static int sym_insert(SymTable *t, Symbol *sym)
{
    if (2 * (t->count + 1) > t->cap) {           /* keep it at most half full */
        size_t cap = t->cap ? 2 * t->cap : 64;
        Symbol **slots = calloc(cap, sizeof *slots);
        if (!slots)
            return -1;
        for (size_t i = 0; i < t->cap; i++) {
            Symbol *s = t->slots[i];
            if (!s)
                continue;
            size_t j = hash_name(s->name, s->len) & (cap - 1);
            while (slots[j])
                j = (j + 1) & (cap - 1);
            slots[j] = s;
        }
        free(t->slots);
        t->slots = slots;
        t->cap = cap;
    }
    size_t j = hash_name(sym->name, sym->len) & (t->cap - 1);
    while (t->slots[j])
        j = (j + 1) & (t->cap - 1);
    t->slots[j] = sym;
    t->count++;
    return 0;
}

static void sym_clear(SymTable *t)
{
    free(t->slots);
    *t = (SymTable){ 0 };
}

/* How a message names what a symbol is. */
static const char *sym_what(SymKind k)
{
    switch (k) {
    case SYM_CONST:        return "a val constant";
    case SYM_GLOBAL_VAR:   return "a variable";
    case SYM_LOCAL_VAR:    return "a variable";
    case SYM_GLOBAL_ARRAY: return "an array";
    case SYM_LOCAL_ARRAY:  return "an array";
    case SYM_VAL_PARAM:    return "a val parameter";
    case SYM_ARRAY_PARAM:  return "an array parameter";
    case SYM_PROC:         return "a procedure";
    case SYM_NET_INDEX:    return "the network's index";
    }
    return "?";
}

static int is_array_sym(SymKind k)
{
    return k == SYM_GLOBAL_ARRAY || k == SYM_LOCAL_ARRAY || k == SYM_ARRAY_PARAM;
}

/* Declares a name in `t` (the global or the local table). Reports a
 * redeclaration in the same table; returns the symbol or NULL. */
static Symbol *declare(Checker *c, SymTable *t, SymKind kind, const char *name,
                       uint32_t len, SrcPos pos)
{
    Symbol *old = sym_find(t, name, len);
    if (old) {
        diag_error(c->d, pos, "redeclaration of '" NAME_FMT "' (already declared at %u:%u)",
                   NAME_ARG(name, len), (unsigned)old->pos.line, (unsigned)old->pos.col);
        return NULL;
    }
    Symbol *s = arena_alloc(c->a, sizeof *s);
    if (s)
        *s = (Symbol){ .kind = kind, .name = name, .len = len, .pos = pos };
    if (!s || sym_insert(t, s) != 0) {
        c->failed = 1;
        return NULL;
    }
    return s;
}

/* Finds what a name means here: the network index, a local, a global. */
static Symbol *lookup(Checker *c, const char *name, uint32_t len)
{
    if (c->net_index && c->net_index->len == len && memcmp(c->net_index->name, name, len) == 0)
        return c->net_index;
    Symbol *s = sym_find(&c->locals, name, len);
    return s ? s : sym_find(&c->globals, name, len);
}

/* Reports an undeclared name, saying so when a global of that name is
 * declared further down. */
static void undeclared(Checker *c, const Node *n)
{
    for (uint32_t i = 0; i < c->prog->nglobals; i++) {
        const Node *g = c->prog->globals[i];
        if (g->len == n->len && memcmp(g->name, n->name, n->len) == 0 &&
            g->pos.offset > n->pos.offset) {
            diag_error(c->d, n->pos, "'" NAME_FMT "' is used before its declaration at line %u "
                       "(globals must be declared before use)", NAME_ARG(n->name, n->len),
                       (unsigned)g->pos.line);
            return;
        }
    }
    diag_error(c->d, n->pos, "'" NAME_FMT "' is not declared", NAME_ARG(n->name, n->len));
}

/* A procedure of the program named n, while the globals are checked:
 * procedures may be named anywhere, but their names are entered only after
 * the globals (declare_procedures), whose declarations come first. A global
 * that names one is an error of its own (a val is a constant), which this
 * lets the checker say, rather than 'not declared'. NULL if none. */
static Symbol *procedure_for_global(Checker *c, const Node *n)
{
    if (c->proc)
        return NULL;
    for (uint32_t i = 0; i < c->prog->nprocs; i++) {
        Proc *p = c->prog->procs[i];
        if (p->len != n->len || memcmp(p->name, n->name, n->len) != 0)
            continue;
        Symbol *s = arena_alloc(c->a, sizeof *s);
        if (!s) {
            c->failed = 1;
            return NULL;
        }
        *s = (Symbol){ .kind = SYM_PROC, .name = p->name, .len = p->len, .pos = p->pos,
                       .proc = p };
        return s;
    }
    return NULL;
}

/* Resolves the name of node n, reporting an undeclared one. */
static Symbol *resolve(Checker *c, Node *n)
{
    n->sym = lookup(c, n->name, n->len);
    if (!n->sym)
        n->sym = procedure_for_global(c, n);
    if (!n->sym && !c->failed)
        undeclared(c, n);
    return n->sym;
}

/* ---- expressions ---- */

static void check_expr(Checker *c, Node *e);

SrcPos check_expr_start(const Node *e)
{
    while (e->kind == ND_BINARY && e->count > 0)
        e = e->items[0];
    return e->pos;
}

static void set_constant(Node *e, uint32_t value)
{
    e->value = value;
    e->info = (ExprInfo){ .constant = 1, .net_const = 1, .need = 1, .pure = 1, .stable = 1 };
}

/* A value that needs one register: pure, and stable if nothing else in an
 * expression can change it. */
static void set_leaf(Node *e, int pure, int stable)
{
    e->info = (ExprInfo){ .need = 1, .pure = (uint8_t)pure, .stable = (uint8_t)stable };
}

/* Checks an expression that must give a value (not an array). */
static void check_value(Checker *c, Node *e)
{
    check_expr(c, e);
    if (e->info.is_array) {
        diag_error(c->d, e->pos, "'" NAME_FMT "' is an array: use one of its elements, "
                   "'" NAME_FMT "[i]'", NAME_ARG(e->name, e->len), NAME_ARG(e->name, e->len));
        e->info.is_array = 0;
    }
}

/* name: a constant, a variable, the network index, or an array (which only
 * an argument for an array parameter may be). */
static void check_name(Checker *c, Node *e)
{
    Symbol *s = resolve(c, e);
    set_leaf(e, 1, 0);
    if (!s)
        return;
    switch (s->kind) {
    case SYM_CONST:
        set_constant(e, s->value);
        return;
    case SYM_GLOBAL_VAR:
        return;
    case SYM_LOCAL_VAR: case SYM_VAL_PARAM:
        set_leaf(e, 1, 1);
        return;
    case SYM_NET_INDEX:
        set_leaf(e, 1, 1);
        e->info.net_const = 1;
        return;
    case SYM_GLOBAL_ARRAY: case SYM_LOCAL_ARRAY: case SYM_ARRAY_PARAM:
        set_leaf(e, 1, 1);              /* its address */
        e->info.is_array = 1;
        return;
    case SYM_PROC:
        diag_error(c->d, e->pos, "'" NAME_FMT "' is a procedure: call it as '" NAME_FMT "(...)'",
                   NAME_ARG(e->name, e->len), NAME_ARG(e->name, e->len));
        return;
    }
}

/* The words of an array whose size is known here, a global or a local
 * one; 0 for an array parameter (its caller's array may be of any size),
 * for a declaration already reported, and for anything else. */
static uint32_t known_size(const Symbol *s)
{
    return s && (s->kind == SYM_GLOBAL_ARRAY || s->kind == SYM_LOCAL_ARRAY) ? s->size : 0;
}

/* A constant index of array `a` (node e names it) must be one of its
 * elements: the processor does not check indices, and a[size] is the word
 * after the array, another variable or a frame's return address. */
static void check_constant_index(Checker *c, const Node *e, const Symbol *a, const Node *index)
{
    uint32_t size = known_size(a);
    if (size && index->info.constant && !index->info.error && index->value >= size)
        diag_error(c->d, check_expr_start(index), "index %d is outside " NAME_FMT "[0..%u]",
                   (int)index->value, NAME_ARG(e->name, e->len), (unsigned)size - 1);
}

/* name "[" expr "]" */
static void check_index(Checker *c, Node *e)
{
    Symbol *s = resolve(c, e);
    if (s && !is_array_sym(s->kind))
        diag_error(c->d, e->pos, "'" NAME_FMT "' is %s, not an array, so it cannot be indexed",
                   NAME_ARG(e->name, e->len), sym_what(s->kind));
    check_value(c, e->lhs);
    check_constant_index(c, e, s, e->lhs);
    set_leaf(e, e->lhs->info.pure, 0);
    e->info.need = e->lhs->info.constant ? 1 : 2;
}

/* A call in an expression (want_value) or as a statement: the procedure
 * must exist, be of the right kind and get the right arguments. */
static void check_call(Checker *c, Node *e, int want_value)
{
    Symbol *s = resolve(c, e);
    Proc *callee = NULL;
    if (s && s->kind != SYM_PROC)
        diag_error(c->d, e->pos, "'" NAME_FMT "' is %s, not a procedure", NAME_ARG(e->name, e->len),
                   sym_what(s->kind));
    else if (s)
        callee = s->proc;
    if (callee && callee == c->prog->main)
        diag_error(c->d, e->pos, "'main' cannot be called");
    else if (callee && want_value && !callee->is_func)
        diag_error(c->d, e->pos, "'" NAME_FMT "' is a proc, which gives no value: only a func "
                   "can be used in an expression", NAME_ARG(e->name, e->len));
    else if (callee && !want_value && callee->is_func)
        diag_error(c->d, e->pos, "'" NAME_FMT "' is a func: use its value (for example "
                   "'x := " NAME_FMT "(...)')", NAME_ARG(e->name, e->len), NAME_ARG(e->name, e->len));
    else if (callee && e->count != callee->nparams)
        diag_error(c->d, e->pos, "wrong number of arguments to '" NAME_FMT "': expected %u, "
                   "found %u", NAME_ARG(e->name, e->len), (unsigned)callee->nparams,
                   (unsigned)e->count);
    for (uint32_t i = 0; i < e->count; i++) {
        Node *arg = e->items[i];
        const Node *formal = callee && i < callee->nparams ? callee->params[i] : NULL;
        if (formal && formal->kind == ND_PARAM_ARRAY) {
            check_expr(c, arg);
            if (!arg->info.is_array)
                diag_error(c->d, check_expr_start(arg), "argument %u of '" NAME_FMT "' must be an "
                           "array name (its parameter is 'array " NAME_FMT "')", (unsigned)i + 1,
                           NAME_ARG(e->name, e->len), NAME_ARG(formal->name, formal->len));
        } else {
            check_value(c, arg);
        }
    }
    set_leaf(e, 0, 0);
    e->info.need = 2;
}

/* Registers needed by `a op b ...` with the code gen_binary makes: a
 * constant operand of + - = ~= becomes an immediate (ADDC, EQC) and costs
 * no register; anything else needs both. */
static uint8_t binary_need(const Node *e)
{
    Node **it = e->items;
    int imm_op = e->op == BIN_ADD || e->op == BIN_SUB || e->op == BIN_EQ || e->op == BIN_NE;
    if (!imm_op)
        return 2;
    if (e->count == 2 && e->op != BIN_SUB && it[0]->info.constant)
        return it[1]->info.need;
    for (uint32_t i = 1; i < e->count; i++)
        if (!it[i]->info.constant)
            return 2;
    return it[0]->info.need;
}

/* elements joined by one operator */
static void check_binary(Checker *c, Node *e)
{
    ExprInfo all = { .constant = 1, .net_const = 1, .pure = 1, .stable = 1 };
    for (uint32_t i = 0; i < e->count; i++) {
        Node *it = e->items[i];
        check_value(c, it);
        all.constant &= it->info.constant;
        all.net_const &= it->info.net_const;
        all.pure &= it->info.pure;
        all.stable &= it->info.stable;
    }
    for (uint32_t i = 0; i < e->count; i++)
        all.error |= e->items[i]->info.error;
    uint32_t v = 0;
    SrcPos where;
    FoldResult r = all.constant ? fold_expr(e, NULL, &v, &where) : FOLD_NOT_CONSTANT;
    if (r == FOLD_OK) {
        set_constant(e, v);
        e->info.error = all.error;
        return;
    }
    if (all.error)
        ;                               /* a divisor of 0 left by a syntax error */
    else if (r == FOLD_DIV_ZERO && c->constant)
        diag_error(c->d, where, "division by zero in %s", c->constant);
    else if (r == FOLD_DIV_ZERO)        /* the processor would stop with a fault */
        diag_error(c->d, where, "division by zero: a constant divisor of 0 stops the "
                   "processor with a fault");
    e->info = all;
    e->info.constant = 0;
    e->info.need = binary_need(e);
}

static void check_expr(Checker *c, Node *e)
{
    switch (e->kind) {
    case ND_NUM:   set_constant(e, e->value); return;
    case ND_ERROR: set_constant(e, 0); e->info.error = 1; return;
    case ND_NAME:  check_name(c, e); return;
    case ND_INDEX: check_index(c, e); return;
    case ND_CALL:  check_call(c, e, 1); return;
    case ND_BINARY: check_binary(c, e); return;
    case ND_PROCID: case ND_NPROCS: set_leaf(e, 1, 1); return;
    case ND_TIMESTEP: set_leaf(e, 0, 0); return;
    case ND_NEG: case ND_NOT:
        check_value(c, e->lhs);
        e->info = e->lhs->info;
        if (e->info.constant) {
            set_constant(e, e->kind == ND_NEG ? 0u - e->lhs->value : ~e->lhs->value);
            e->info.error = e->lhs->info.error;
        }
        return;
    case ND_SKIP: case ND_STOP: case ND_RETURN: case ND_IF: case ND_WHILE: case ND_BLOCK:
    case ND_ASSIGN: case ND_CALL_STMT: case ND_SEND: case ND_MULTICAST: case ND_MESSAGE:
    case ND_RECEIVE: case ND_PRINT: case ND_NETWORK: case ND_NETWORK_FOR:
    case ND_VAL: case ND_VAR: case ND_ARRAY: case ND_PARAM_VAL: case ND_PARAM_ARRAY:
    case ND_WORDS: case ND_SLICE:
        diag_error(c->d, e->pos, "internal compiler error: not an expression");
        return;
    }
}

/* The part of a non-constant expression that makes it so, or NULL when
 * that part was already reported (an undeclared name). */
static const Node *non_constant_part(const Node *e)
{
    const Node *bad;
    if (e->kind == ND_NUM || e->kind == ND_ERROR)
        return NULL;
    if (e->kind == ND_NAME)
        return e->sym && e->sym->kind != SYM_CONST ? e : NULL;
    if (e->kind == ND_NEG || e->kind == ND_NOT)
        return non_constant_part(e->lhs);
    if (e->kind != ND_BINARY)
        return e;                       /* a call, an element, procid ... */
    for (uint32_t i = 0; i < e->count; i++)
        if ((bad = non_constant_part(e->items[i])) != NULL)
            return bad;
    return NULL;
}

/* Checks an expression that must be a constant (`what` says whose: "a val",
 * "an array size"...). Returns 1 with its value, or 0 after a message. */
static int check_constant(Checker *c, Node *e, const char *what, uint32_t *value)
{
    c->constant = what;
    check_value(c, e);
    c->constant = NULL;
    SrcPos where;
    FoldResult r = fold_expr(e, NULL, value, &where);
    if (e->info.error)
        return 0;                       /* a syntax error, reported: its 0 is no value */
    if (r == FOLD_OK)
        return 1;
    if (r == FOLD_DIV_ZERO)
        return 0;                       /* reported by check_binary */
    const Node *bad = non_constant_part(e);
    if (!bad)
        return 0;
    char part[96];
    if (bad->kind == ND_NAME)
        snprintf(part, sizeof part, "'" NAME_FMT "' is %s", NAME_ARG(bad->name, bad->len),
                 sym_what(bad->sym->kind));
    else if (bad->kind == ND_CALL)
        snprintf(part, sizeof part, "a call of '" NAME_FMT "' is not", NAME_ARG(bad->name, bad->len));
    else if (bad->kind == ND_INDEX)
        snprintf(part, sizeof part, "an array element is not");
    else
        snprintf(part, sizeof part, "'%s' is not", bad->kind == ND_PROCID ? "procid" :
                 bad->kind == ND_NPROCS ? "nprocs" : "timestep");
    diag_error(c->d, bad->pos, "%s must be a constant, and %s (use numbers, characters, "
               "true, false, vals and operators)", what, part);
    return 0;
}

/* ---- statements ---- */

/* Whether t is the bare name of an array. */
static int is_whole_array(Checker *c, Node *t)
{
    Symbol *s = t->kind == ND_NAME ? resolve(c, t) : NULL;
    return s && is_array_sym(s->kind);
}

/* The left of := or the right of ?: a variable or an array element. */
static void check_target(Checker *c, Node *t)
{
    if (t->kind == ND_INDEX) {
        check_index(c, t);
        return;
    }
    if (t->kind != ND_NAME) {          /* reported by the parser */
        if (t->kind != ND_ERROR)
            check_expr(c, t);
        return;
    }
    Symbol *s = resolve(c, t);
    if (!s || s->kind == SYM_GLOBAL_VAR || s->kind == SYM_LOCAL_VAR)
        return;
    if (is_array_sym(s->kind))
        diag_error(c->d, t->pos, "cannot assign to the array '" NAME_FMT "' as a whole: assign "
                   "its elements, '" NAME_FMT "[i]'", NAME_ARG(t->name, t->len), NAME_ARG(t->name, t->len));
    else
        diag_error(c->d, t->pos, "cannot assign to '" NAME_FMT "': it is %s",
                   NAME_ARG(t->name, t->len), sym_what(s->kind));
}

/* A constant destination or port must be one OUT or IN can address. */
static void check_address(Checker *c, const Node *e, uint32_t limit, const char *what)
{
    if (e->info.constant && !e->info.error && e->value >= limit)
        diag_error(c->d, check_expr_start(e), "%s %d is out of range: it must be from 0 to %u",
                   what, (int)e->value, (unsigned)limit - 1);
}

/* d [: k] ! e */
static void check_send(Checker *c, Node *s)
{
    check_expr(c, s->rhs);
    if (s->rhs->info.is_array) {        /* its words as one message, most likely */
        diag_error(c->d, s->rhs->pos, "'" NAME_FMT "' is an array: send one of its elements, "
                   "'" NAME_FMT "[i]', or its words as one message, '" NAME_FMT "[0 for n]'",
                   NAME_ARG(s->rhs->name, s->rhs->len), NAME_ARG(s->rhs->name, s->rhs->len),
                   NAME_ARG(s->rhs->name, s->rhs->len));
        s->rhs->info.is_array = 0;
    }
    check_value(c, s->lhs);
    check_address(c, s->lhs, MAX_DEST, "destination processor");
    if (s->third) {
        check_value(c, s->third);
        check_address(c, s->third, MAX_PORT, "port");
    }
}

/* [d1, ..., dn] [: k] ! e, or all [: k] ! e (count 0): each destination a
 * whole word of MOUT's list, but a constant one must still be one OUT could
 * address (spec/multicast.md). */
static void check_multicast(Checker *c, Node *s)
{
    check_value(c, s->rhs);
    for (uint32_t i = 0; i < s->count; i++) {
        check_value(c, s->items[i]);
        check_address(c, s->items[i], MAX_DEST, "destination processor");
    }
    if (s->count > MAX_LIST)
        diag_error(c->d, s->pos, "a multicast list may name at most 65,536 destinations, "
                   "not %u", (unsigned)s->count);
    if (s->third) {
        check_value(c, s->third);
        check_address(c, s->third, MAX_PORT, "port");
    }
}

/* A constant number of words of a message must be one SEND can send
 * (spec/messages.md). */
static void check_length(Checker *c, const Node *e)
{
    if (e->info.constant && !e->info.error && (e->value == 0 || e->value > MAX_MESSAGE))
        diag_error(c->d, check_expr_start(e), "a message must have from 1 to 65,536 words, "
                   "not %d", (int)e->value);
}

/* name [ i for n ]: the n words of an array from a[i] on, i then n. When
 * the array's size is known, a constant i must be an index of it, and a
 * constant n must not take the words past its end. */
static void check_slice(Checker *c, Node *s)
{
    Symbol *sym = resolve(c, s);
    if (sym && !is_array_sym(sym->kind))
        diag_error(c->d, s->pos, "'" NAME_FMT "' is %s, not an array, so it cannot be indexed",
                   NAME_ARG(s->name, s->len), sym_what(sym->kind));
    check_value(c, s->lhs);
    check_value(c, s->rhs);
    check_length(c, s->rhs);
    check_constant_index(c, s, sym, s->lhs);
    uint32_t size = known_size(sym), n = s->rhs->value;
    const Node *i = s->lhs;
    if (!size || !s->rhs->info.constant || n == 0 || n > MAX_MESSAGE ||
        s->rhs->info.error || i->info.error || (i->info.constant && i->value >= size))
        return;                         /* nothing to check, or reported */
    if (i->info.constant && n > size - i->value)
        diag_error(c->d, check_expr_start(s->rhs), NAME_FMT "[%u for %u] ends at " NAME_FMT
                   "[%u], outside " NAME_FMT "[0..%u]", NAME_ARG(s->name, s->len),
                   (unsigned)i->value, (unsigned)n, NAME_ARG(s->name, s->len),
                   (unsigned)(i->value + n - 1), NAME_ARG(s->name, s->len), (unsigned)size - 1);
    else if (n > size)
        diag_error(c->d, check_expr_start(s->rhs), "%u words are more than " NAME_FMT
                   "[0..%u] holds", (unsigned)n, NAME_ARG(s->name, s->len), (unsigned)size - 1);
}

/* d [: k] ! [e1, ..., en] or d [: k] ! a[i for n] (spec/messages.md): the
 * words, then the address, as a send's. */
static void check_message(Checker *c, Node *s)
{
    Node *w = s->rhs;
    if (w->kind == ND_SLICE) {
        check_slice(c, w);
    } else {
        for (uint32_t i = 0; i < w->count; i++)
            check_value(c, w->items[i]);
        if (w->count > MAX_MESSAGE)
            diag_error(c->d, w->pos, "a message may have at most 65,536 words, not %u",
                       (unsigned)w->count);
    }
    check_value(c, s->lhs);
    check_address(c, s->lhs, MAX_DEST, "destination processor");
    if (s->third) {
        check_value(c, s->third);
        check_address(c, s->third, MAX_PORT, "port");
    }
}

/* Whether a network statement may stand here (top: 1 for main's body, 2 for
 * a statement of main's body block); reports it if not. */
static int network_allowed(Checker *c, const Node *s, int top)
{
    if (c->proc != c->prog->main) {
        diag_error(c->d, s->pos, "a network statement may only be in 'main'");
        return 0;
    }
    if (!top) {
        diag_error(c->d, s->pos, "a network statement may only be main's body or one of "
                   "the statements of its body block (not inside a loop, a conditional, "
                   "a nested block or another network)");
        return 0;
    }
    return 1;
}

/* network { s0 & s1 ... }: one branch per processor. */
static void check_network(Checker *c, Node *s, int top)
{
    int ok = network_allowed(c, s, top);
    if (s->count > MAX_NETWORK)
        diag_error(c->d, s->pos, "a network may have at most 1,048,576 branches");
    for (uint32_t i = 0; i < s->count; i++)
        check_stmt(c, s->items[i], 0);
    s->value = s->count;
    if (ok && s->count > c->prog->nimages)
        c->prog->nimages = s->count;
}

/* network i for n do s: s on processors 0 .. n-1 with i their number. */
static void check_network_for(Checker *c, Node *s, int top)
{
    int ok = network_allowed(c, s, top);
    uint32_t n = 0;
    if (check_constant(c, s->lhs, "the count of a network", &n) &&
        (n < 1 || n > MAX_NETWORK)) {
        diag_error(c->d, check_expr_start(s->lhs), "the count of a network must be from 1 to "
                   "1,048,576, not %d", (int)n);
        n = 0;
    }
    s->value = n;
    /* The index may not reuse a name of main's, but may shadow a global. */
    Node *name = s->third;
    Symbol *index = NULL, *old = sym_find(&c->locals, name->name, name->len);
    if (old)
        diag_error(c->d, name->pos, "redeclaration of '" NAME_FMT "' (already declared at %u:%u)",
                   NAME_ARG(name->name, name->len), (unsigned)old->pos.line,
                   (unsigned)old->pos.col);
    else if ((index = arena_alloc(c->a, sizeof *index)) != NULL)
        *index = (Symbol){ .kind = SYM_NET_INDEX, .name = name->name, .len = name->len,
                           .pos = name->pos };
    Symbol *saved = c->net_index;
    c->net_index = index ? index : saved;
    check_stmt(c, s->rhs, 0);
    c->net_index = saved;
    if (ok && n > c->prog->nimages)
        c->prog->nimages = n;
}

/* Checks a statement; `top` says whether a network may stand here. */
static void check_stmt(Checker *c, Node *s, int top)
{
    switch (s->kind) {
    case ND_SKIP: case ND_STOP: case ND_ERROR:
        return;
    case ND_RETURN:
        if (!c->proc->is_func)
            diag_error(c->d, s->pos, "'return' outside a func (a proc ends at the end "
                       "of its body)");
        check_value(c, s->lhs);
        return;
    case ND_IF:
        check_value(c, s->lhs);
        check_stmt(c, s->rhs, 0);
        if (s->third)
            check_stmt(c, s->third, 0);
        return;
    case ND_WHILE:
        check_value(c, s->lhs);
        check_stmt(c, s->rhs, 0);
        return;
    case ND_BLOCK:
        for (uint32_t i = 0; i < s->count; i++)
            check_stmt(c, s->items[i], top == 1 ? 2 : 0);
        return;
    case ND_ASSIGN:
        check_target(c, s->lhs);
        check_value(c, s->rhs);
        return;
    case ND_CALL_STMT:
        check_call(c, s->lhs, 0);
        return;
    case ND_SEND:
        check_send(c, s);
        return;
    case ND_MULTICAST:
        check_multicast(c, s);
        return;
    case ND_MESSAGE:
        check_message(c, s);
        return;
    case ND_RECEIVE:
        check_value(c, s->lhs);
        check_address(c, s->lhs, MAX_PORT, "port");
        if (s->rhs->kind == ND_SLICE)
            check_slice(c, s->rhs);
        else if (is_whole_array(c, s->rhs))
            diag_error(c->d, s->rhs->pos, "cannot receive into the array '" NAME_FMT "' as a "
                       "whole: receive one element, '" NAME_FMT "[i]', or n words, '" NAME_FMT
                       "[0 for n]'", NAME_ARG(s->rhs->name, s->rhs->len),
                       NAME_ARG(s->rhs->name, s->rhs->len), NAME_ARG(s->rhs->name, s->rhs->len));
        else
            check_target(c, s->rhs);
        return;
    case ND_PRINT:
        check_value(c, s->lhs);
        return;
    case ND_NETWORK:
        check_network(c, s, top);
        return;
    case ND_NETWORK_FOR:
        check_network_for(c, s, top);
        return;
    case ND_NUM: case ND_NAME: case ND_INDEX: case ND_CALL: case ND_NEG: case ND_NOT:
    case ND_BINARY: case ND_PROCID: case ND_NPROCS: case ND_TIMESTEP:
    case ND_VAL: case ND_VAR: case ND_ARRAY: case ND_PARAM_VAL: case ND_PARAM_ARRAY:
    case ND_WORDS: case ND_SLICE:
        diag_error(c->d, s->pos, "internal compiler error: not a statement");
        return;
    }
}

/* Whether control can never run off the end of s: it returns or stops on
 * every path (an endless `while true` counts as never ending). */
static int never_falls_through(const Node *s)
{
    if (s->kind == ND_RETURN || s->kind == ND_STOP || s->kind == ND_ERROR)
        return 1;
    if (s->kind == ND_IF)
        return s->third && never_falls_through(s->rhs) && never_falls_through(s->third);
    if (s->kind == ND_WHILE)
        return s->lhs->info.constant && s->lhs->value != 0;
    if (s->kind == ND_BLOCK)
        for (uint32_t i = 0; i < s->count; i++)
            if (never_falls_through(s->items[i]))
                return 1;
    return 0;
}

/* ---- declarations ---- */

/* val name = expr: a constant, in the table t. */
static void check_val(Checker *c, SymTable *t, Node *n)
{
    uint32_t v = 0;
    check_constant(c, n->lhs, "a val", &v);
    Symbol *s = declare(c, t, SYM_CONST, n->name, n->len, n->pos);
    if (s)
        s->value = v;
}

/* The size of an array declaration: a constant of at least 1 (0 if not). */
static uint32_t array_size(Checker *c, Node *n)
{
    uint32_t size = 0;
    if (check_constant(c, n->lhs, "an array size", &size) && (int32_t)size < 1) {
        diag_error(c->d, check_expr_start(n->lhs), "an array size must be at least 1, not %d",
                   (int)size);
        size = 0;
    }
    return size;
}

/* A global val that a -D names takes the -D's value (the last -D's, when
 * several name it), before the vals after it are folded: they and every
 * array size and network count see the value given. Its own expression
 * is still checked, so that a mistake in the program does not hide behind
 * a -D. */
static void define_val(Checker *c, const Node *n)
{
    Symbol *s = sym_find(&c->globals, n->name, n->len);
    if (!s || s->kind != SYM_CONST || s->pos.offset != n->pos.offset)
        return;                       /* a redeclaration, reported already */
    for (size_t i = 0; i < c->ndefs; i++)
        if (c->defs[i].len == n->len && memcmp(c->defs[i].arg, n->name, n->len) == 0) {
            s->value = c->defs[i].value;
            c->defined[i] = s;
        }
}

/* The signed meaning of a word, as messages show a constant. */
static long long signed_value(uint32_t v)
{
    return v <= INT32_MAX ? (long long)v : (long long)v - 0x100000000ll;
}

/* Each -D that set no val is an error; when there is any error, each val
 * set gets a note at its declaration, since an error elsewhere may come
 * from the value given. */
static void check_defines(Checker *c)
{
    for (size_t i = 0; i < c->ndefs; i++) {
        const CompileDefine *def = &c->defs[i];
        if (c->defined[i])
            continue;
        Symbol *s = sym_find(&c->globals, def->arg, (uint32_t)def->len);
        if (s)
            diag_error_file(c->d, "-D %s: '%.*s' is %s, not a global val (declared at %u:%u)",
                            def->arg, (int)def->len, def->arg, sym_what(s->kind),
                            (unsigned)s->pos.line, (unsigned)s->pos.col);
        else
            diag_error_file(c->d, "-D %s: the program declares no global val '%.*s' (only "
                            "a val outside every procedure can be set)", def->arg,
                            (int)def->len, def->arg);
    }
    for (size_t i = 0; c->d->errors && i < c->ndefs; i++) {
        size_t last = i;
        for (size_t j = i + 1; j < c->ndefs; j++)
            if (c->defined[j] && c->defined[j] == c->defined[i])
                last = j;
        if (c->defined[i] && last == i)
            diag_note(c->d, c->defined[i]->pos, "'%.*s' is %lld here, set by -D %s",
                      (int)c->defs[i].len, c->defs[i].arg, signed_value(c->defined[i]->value),
                      c->defs[i].arg);
    }
}

/* The globals, at M-G .. M-1 in declaration order. */
static void check_globals(Checker *c)
{
    uint64_t words = 0;
    int reported = 0;
    for (uint32_t i = 0; i < c->prog->nglobals; i++) {
        Node *n = c->prog->globals[i];
        if (n->kind == ND_VAL) {
            check_val(c, &c->globals, n);
            define_val(c, n);
            continue;
        }
        uint32_t size = n->kind == ND_ARRAY ? array_size(c, n) : 1;
        Symbol *s = declare(c, &c->globals, n->kind == ND_ARRAY ? SYM_GLOBAL_ARRAY :
                            SYM_GLOBAL_VAR, n->name, n->len, n->pos);
        if (s) {
            s->offset = (uint32_t)words;
            s->size = size;
        }
        words += size;
        if (!reported && words + MIN_STACK_WORDS + 4 > c->mem) {
            diag_error(c->d, n->pos, "the globals need %llu words, which with the program "
                       "and 64 words of stack do not fit in --mem %u",
                       (unsigned long long)words, (unsigned)c->mem);
            reported = 1;
        }
    }
    c->prog->global_words = reported ? 0 : (uint32_t)words;
}

/* A procedure's parameters and locals, laid out in its frame: sp+2 .. for
 * the parameters, then the vars and arrays in declaration order. */
static void check_frame(Checker *c, Proc *p)
{
    uint64_t words = 2;
    int reported = 0;
    for (uint32_t i = 0; i < p->nparams; i++) {
        Node *n = p->params[i];
        Symbol *s = declare(c, &c->locals, n->kind == ND_PARAM_ARRAY ? SYM_ARRAY_PARAM :
                            SYM_VAL_PARAM, n->name, n->len, n->pos);
        if (s)
            s->offset = (uint32_t)words;
        words++;
    }
    for (uint32_t i = 0; i < p->nlocals; i++) {
        Node *n = p->locals[i];
        if (n->kind == ND_VAL) {
            check_val(c, &c->locals, n);
            continue;
        }
        uint32_t size = n->kind == ND_ARRAY ? array_size(c, n) : 1;
        Symbol *s = declare(c, &c->locals, n->kind == ND_ARRAY ? SYM_LOCAL_ARRAY :
                            SYM_LOCAL_VAR, n->name, n->len, n->pos);
        if (s) {
            s->offset = (uint32_t)words;
            s->size = size;
        }
        words += size;
        if (!reported && words + MIN_STACK_WORDS > c->mem) {
            diag_error(c->d, n->pos, "the locals of '" NAME_FMT "' need %llu words, more than "
                       "--mem %u can hold", NAME_ARG(p->name, p->len),
                       (unsigned long long)words, (unsigned)c->mem);
            reported = 1;
        }
    }
    p->frame_fixed = reported ? 2 : (uint32_t)words;
}

static void check_procedure(Checker *c, Proc *p)
{
    c->proc = p;
    c->net_index = NULL;
    sym_clear(&c->locals);
    check_frame(c, p);
    check_stmt(c, p->body, p == c->prog->main);
    if (p->is_func && !never_falls_through(p->body))
        diag_error(c->d, p->pos, "not every path through func '" NAME_FMT "' ends in 'return'",
                   NAME_ARG(p->name, p->len));
}

/* Enters every procedure's name, so that calls may come before definitions,
 * and finds main. */
static void declare_procedures(Checker *c)
{
    Program *prog = c->prog;
    for (uint32_t i = 0; i < prog->nprocs; i++) {
        Proc *p = prog->procs[i];
        Symbol *s = declare(c, &c->globals, SYM_PROC, p->name, p->len, p->pos);
        if (s)
            s->proc = p;
        if (s && p->len == 4 && memcmp(p->name, "main", 4) == 0) {
            prog->main = p;
            if (p->is_func || p->nparams)
                diag_error(c->d, p->pos, "'main' must be 'proc main()', without parameters");
        }
    }
    if (!prog->main)
        diag_error(c->d, prog->end, "the program has no 'main' (it must have "
                   "'proc main() is ...')");
}

void check_program(Program *prog, Diag *d, Arena *a, uint32_t mem_words,
                   const CompileDefine *defs, size_t ndefs)
{
    Checker c = { .prog = prog, .d = d, .a = a, .mem = mem_words, .defs = defs,
                  .ndefs = ndefs };
    prog->nimages = 1;
    c.defined = arena_alloc(a, (ndefs + 1) * sizeof *c.defined);
    if (!c.defined) {
        a->failed = 1;
        return;
    }
    check_globals(&c);
    declare_procedures(&c);
    for (uint32_t i = 0; i < prog->nprocs && !diag_too_many(d) && !c.failed; i++)
        check_procedure(&c, prog->procs[i]);
    check_defines(&c);
    sym_clear(&c.locals);
    sym_clear(&c.globals);
    if (c.failed)
        a->failed = 1;
}
