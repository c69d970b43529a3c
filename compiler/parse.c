/* The parser: tokens to a syntax tree, by recursive descent, one function
 * per rule of the grammar of spec/language.md with the rule above it.
 *
 * X has no operator precedence: an expression is one unary operator applied
 * to one element, or elements joined by one binary operator, repeated only
 * for the associative + * and or xor. The parser reads any mixture so that
 * it can say what parentheses to add, then carries on.
 *
 * Errors are recovered from in panic mode: the first error sets `panic`,
 * which silences further messages and makes the rules unwind without
 * consuming much; the nearest statement list or declaration then skips to a
 * point where parsing can resume (sync_*) and clears it. A ';' missing at
 * the end of a line is reported and assumed instead, as gcc does, since the
 * next line is most likely fine. Nesting (of
 * statements and of expressions) deeper than MAX_NESTING is an error, which
 * keeps the recursion -- here and in the later phases -- off the C stack's
 * limits however deeply the input nests. */
#include "compiler/internal.h"

#include <string.h>

typedef struct Parser {
    Token *toks;
    size_t count, at;     /* the tokens and the current one */
    Diag *d;
    Arena *a;
    int panic;            /* recovering from a syntax error */
    int depth;            /* nesting of statement() and expr() */
    Node dummy;           /* handed out when the arena is exhausted */
} Parser;

static Node *statement(Parser *p);
static Node *expr(Parser *p);
static Node *element(Parser *p);

/* ---- tokens ---- */

static Token *cur(Parser *p) { return &p->toks[p->at]; }
static int at(Parser *p, TokKind k) { return p->toks[p->at].kind == k; }

static void next(Parser *p)
{
    if (p->at + 1 < p->count)
        p->at++;
}

static int consume(Parser *p, TokKind k)
{
    if (!at(p, k))
        return 0;
    next(p);
    return 1;
}

static int is_declaration_start(TokKind k) { return k == TK_VAL || k == TK_VAR || k == TK_ARRAY; }
static int is_procedure_start(TokKind k) { return k == TK_PROC || k == TK_FUNC; }

/* ---- errors ---- */

static void error_at(Parser *p, SrcPos pos, const char *fmt, ...)
    __attribute__((format(printf, 3, 4)));

/* Reports a syntax error unless one is being recovered from. */
static void error_at(Parser *p, SrcPos pos, const char *fmt, ...)
{
    if (!p->panic) {
        char msg[512];
        va_list ap;
        va_start(ap, fmt);
        vsnprintf(msg, sizeof msg, fmt, ap);
        va_end(ap);
        diag_error(p->d, pos, "%s", msg);
    }
    p->panic = 1;
}

/* Reports "expected WHAT before <token>". Like gcc, when the token is on a
 * later line than the previous one, the caret goes just after the previous
 * token, where the missing thing belongs. `hint` is appended if not NULL. */
static void expected(Parser *p, const char *what, const char *hint)
{
    Token *t = cur(p);
    if (t->after_bad) {             /* a consequence of the invalid character */
        p->panic = 1;
        return;
    }
    SrcPos pos = t->pos;
    if (p->at > 0 && (t->kind == TK_EOF || t->pos.line != p->toks[p->at - 1].end.line))
        pos = p->toks[p->at - 1].end;
    char found[64];
    lex_describe(t, found, sizeof found);
    error_at(p, pos, "expected %s %s %s%s%s", what, t->kind == TK_EOF ? "at" : "before",
             found, hint ? " " : "", hint ? hint : "");
}

/* Consumes a token of kind k, or reports it missing (with a hint). */
static int expect(Parser *p, TokKind k, const char *hint)
{
    if (consume(p, k))
        return 1;
    char what[32];
    snprintf(what, sizeof what, "'%s'", lex_spelling(k));
    expected(p, what, hint);
    return 0;
}

/* Whether the current token starts a later line than the previous one
 * ends: a missing ';' there is most likely just that, so it is reported and
 * assumed rather than recovered from by skipping. */
static int at_new_line(Parser *p)
{
    return p->at > 0 && !at(p, TK_EOF) && cur(p)->pos.line > p->toks[p->at - 1].end.line;
}

/* Counts one level of nesting; reports once when it goes too deep. */
static int enter(Parser *p)
{
    if (++p->depth <= MAX_NESTING)
        return 1;
    error_at(p, cur(p)->pos, "nesting deeper than 1,000 levels");
    return 0;
}

static void leave(Parser *p) { p->depth--; }

/* ---- recovery ---- */

/* Skips to where a statement list can go on: a ';', '&' or '}' outside any
 * nested block, or the start of a procedure. Consumes none of them. */
static void sync_statement(Parser *p)
{
    int braces = 0;
    for (;; next(p)) {
        TokKind k = cur(p)->kind;
        if (k == TK_EOF || is_procedure_start(k))
            break;
        if (braces == 0 && (k == TK_SEMI || k == TK_AMP || k == TK_RBRACE))
            break;
        braces += k == TK_LBRACE ? 1 : k == TK_RBRACE ? -1 : 0;
    }
    p->panic = 0;
}

/* Skips to the end of a declaration (consuming its ';') or to the start of
 * the next declaration or procedure. */
static void sync_declaration(Parser *p)
{
    while (!at(p, TK_EOF) && !is_declaration_start(cur(p)->kind) &&
           !is_procedure_start(cur(p)->kind)) {
        if (consume(p, TK_SEMI))
            break;
        next(p);
    }
    p->panic = 0;
}

/* Skips to the next procedure. */
static void sync_procedure(Parser *p)
{
    while (!at(p, TK_EOF) && !is_procedure_start(cur(p)->kind))
        next(p);
    p->panic = 0;
}

/* ---- nodes ---- */

static Node *new_node(Parser *p, NodeKind kind, SrcPos pos)
{
    Node *n = arena_alloc(p->a, sizeof *n);
    if (!n) {
        n = &p->dummy;
        p->panic = 1;          /* stops the parse quickly; reported later */
    }
    n->kind = kind;
    n->pos = pos;
    return n;
}

/* Copies a vector of nodes into the arena as n->items. */
static void set_items(Parser *p, Node *n, PtrVec *v)
{
    uint32_t count = (uint32_t)v->count;
    Node **items = (Node **)vec_to_arena(v, p->a);
    if (n == &p->dummy || !items)
        return;
    n->items = items;
    n->count = count;
}

static void push(Parser *p, PtrVec *v, void *item)
{
    if (vec_push(v, item) != 0) {
        p->a->failed = 1;
        p->panic = 1;
    }
}

/* A node for a name token, which the caller has checked is current. */
static Node *name_node(Parser *p, NodeKind kind)
{
    Token *t = cur(p);
    Node *n = new_node(p, kind, t->pos);
    n->name = t->text;
    n->len = t->len;
    next(p);
    return n;
}

/* ---- expressions ---- */

static int is_binop(TokKind k)
{
    BinOp op;
    return binop_from_token(k, &op);
}

/* The messages for the no-precedence rule, reported at operator `t`
 * following operator `first`; the expression is still read to its end. */
static void precedence_error(Parser *p, BinOp first, const Token *t)
{
    const char *a = lex_spelling(binop_token(first)), *b = lex_spelling(t->kind);
    if (binop_token(first) != t->kind)
        diag_error(p->d, t->pos, "'%s' after '%s' needs parentheses (X has no operator "
                   "precedence): write '(a %s b) %s c' or 'a %s (b %s c)'", b, a, a, b, a, b);
    else if (binop_comparison(first))
        diag_error(p->d, t->pos, "comparisons cannot be chained: write '(a %s b) and "
                   "(b %s c)'", a, a);
    else
        diag_error(p->d, t->pos, "'%s' cannot be repeated without parentheses: write "
                   "'(a %s b) %s c' or 'a %s (b %s c)'", a, a, a, a, a);
}

/* A unary operator where an element belongs, after binary operator `op`:
 * reported, then read as the unary expression it was meant to be. */
static Node *misplaced_unary(Parser *p, TokKind op)
{
    Token *t = cur(p);
    if (!p->panic)
        diag_error(p->d, t->pos, "'%s' after '%s' needs parentheses: write 'a %s (%sb)'",
                   lex_spelling(t->kind), lex_spelling(op), lex_spelling(op),
                   lex_spelling(t->kind));
    Node *n = new_node(p, t->kind == TK_MINUS ? ND_NEG : ND_NOT, t->pos);
    next(p);
    n->lhs = element(p);
    return n;
}

/* The rest of a chain `first op element op element ...`. */
static Node *chain(Parser *p, Node *first)
{
    Node *n = new_node(p, ND_BINARY, cur(p)->pos);
    BinOp op = BIN_ADD, this_op;
    binop_from_token(cur(p)->kind, &op);
    n->op = op;
    PtrVec items = { 0 };
    push(p, &items, first);
    int reported = 0;
    while (!p->panic && binop_from_token(cur(p)->kind, &this_op)) {
        Token *t = cur(p);
        if (!reported && (this_op != op || (items.count >= 2 && !binop_associative(op)))) {
            precedence_error(p, op, t);
            reported = 1;
        }
        next(p);
        if (at(p, TK_MINUS) || at(p, TK_TILDE))
            push(p, &items, misplaced_unary(p, t->kind));
        else
            push(p, &items, element(p));
    }
    set_items(p, n, &items);
    return n;
}

/* expr := "-" element | "~" element | element { binop element } */
static Node *expr(Parser *p)
{
    Node *n;
    if (!enter(p)) {
        n = new_node(p, ND_ERROR, cur(p)->pos);
    } else if (at(p, TK_MINUS) || at(p, TK_TILDE)) {
        Token *t = cur(p);
        n = new_node(p, t->kind == TK_MINUS ? ND_NEG : ND_NOT, t->pos);
        next(p);
        n->lhs = element(p);
        if (!p->panic && is_binop(cur(p)->kind)) {
            const char *u = lex_spelling(t->kind), *b = lex_spelling(cur(p)->kind);
            diag_error(p->d, cur(p)->pos, "'%s' applies to one element only: write "
                       "'(%sa) %s b' or '%s(a %s b)'", u, u, b, u, b);
            n = chain(p, n);
        }
    } else {
        n = element(p);
        if (!p->panic && is_binop(cur(p)->kind))
            n = chain(p, n);
    }
    leave(p);
    return n;
}

/* call := name "(" [ expr { "," expr } ] ")" */
static Node *call(Parser *p)
{
    Node *n = name_node(p, ND_CALL);
    PtrVec args = { 0 };
    expect(p, TK_LPAREN, NULL);
    if (!at(p, TK_RPAREN)) {
        do
            push(p, &args, expr(p));
        while (!p->panic && consume(p, TK_COMMA));
    }
    set_items(p, n, &args);
    expect(p, TK_RPAREN, NULL);
    return n;
}

/* target := name | name "[" expr "]"   (also the first two forms of element) */
static Node *target(Parser *p)
{
    if (!at(p, TK_NAME)) {
        expected(p, "a variable or an array element", NULL);
        return new_node(p, ND_ERROR, cur(p)->pos);
    }
    if (p->at + 1 < p->count && p->toks[p->at + 1].kind == TK_LBRACKET) {
        Node *n = name_node(p, ND_INDEX);
        next(p);
        n->lhs = expr(p);
        expect(p, TK_RBRACKET, NULL);
        return n;
    }
    return name_node(p, ND_NAME);
}

/* element := name | name "[" expr "]" | call | number | "true" | "false"
 *          | "(" expr ")" | "procid" | "nprocs" | "timestep" */
static Node *element(Parser *p)
{
    Token *t = cur(p);
    TokKind k = t->kind;
    Node *n;
    if (k == TK_NAME) {
        if (p->at + 1 < p->count && p->toks[p->at + 1].kind == TK_LPAREN)
            return call(p);
        return target(p);
    }
    if (k == TK_NUM || k == TK_TRUE || k == TK_FALSE) {
        n = new_node(p, ND_NUM, t->pos);
        n->value = k == TK_NUM ? t->value : k == TK_TRUE;
        next(p);
        return n;
    }
    if (k == TK_PROCID || k == TK_NPROCS || k == TK_TIMESTEP) {
        n = new_node(p, k == TK_PROCID ? ND_PROCID : k == TK_NPROCS ? ND_NPROCS :
                        ND_TIMESTEP, t->pos);
        next(p);
        return n;
    }
    if (k == TK_LPAREN) {
        next(p);
        n = expr(p);
        expect(p, TK_RPAREN, NULL);
        return n;
    }
    expected(p, "a name, a number or '('", NULL);
    return new_node(p, ND_ERROR, t->pos);
}

/* ---- statements ---- */

/* Reads statements separated by `sep` into v until `close` (not consumed).
 * A block allows a `sep` before its `close`; a network does not. Each
 * statement that fails is skipped to the next separator, so one bad
 * statement costs one message. */
static void statement_list(Parser *p, PtrVec *v, TokKind sep, TokKind close)
{
    for (;;) {
        size_t start = p->at;
        push(p, v, statement(p));
        if (!p->panic && consume(p, sep)) {
            if (sep == TK_SEMI && (at(p, close) || at(p, TK_EOF)))
                return;                /* the caller reports a missing close */
            continue;
        }
        if (!p->panic && (at(p, close) || at(p, TK_EOF)))
            return;
        if (!p->panic) {
            char what[32];
            snprintf(what, sizeof what, "'%s' or '%s'", lex_spelling(sep), lex_spelling(close));
            int assume = sep == TK_SEMI && at_new_line(p);
            expected(p, what, sep == TK_AMP && at(p, TK_SEMI) ?
                     "(a branch of several statements is a block: { s1; s2 })" : NULL);
            if (assume && !diag_too_many(p->d)) {
                p->panic = 0;          /* as if the ';' were there */
                continue;
            }
        }
        if (diag_too_many(p->d) || p->a->failed)
            return;
        sync_statement(p);
        if (consume(p, sep))
            continue;
        if (at(p, close) || at(p, TK_EOF) || is_procedure_start(cur(p)->kind))
            return;
        if (p->at == start)
            next(p);               /* a token no statement can start with */
    }
}

/* block := "{" statement { ";" statement } [ ";" ] "}" */
static Node *block(Parser *p)
{
    Node *n = new_node(p, ND_BLOCK, cur(p)->pos);
    next(p);
    PtrVec items = { 0 };
    if (at(p, TK_RBRACE))
        expected(p, "a statement", "(write 'skip' for a statement that does nothing)");
    else
        statement_list(p, &items, TK_SEMI, TK_RBRACE);
    set_items(p, n, &items);
    expect(p, TK_RBRACE, NULL);
    return n;
}

/* "network" "{" statement { "&" statement } "}"
 * | "network" name "for" expr "do" statement */
static Node *network(Parser *p)
{
    SrcPos pos = cur(p)->pos;
    next(p);
    if (at(p, TK_NAME)) {
        Node *n = new_node(p, ND_NETWORK_FOR, pos);
        n->third = name_node(p, ND_NAME);
        expect(p, TK_FOR, NULL);
        n->lhs = expr(p);
        expect(p, TK_DO, NULL);
        n->rhs = statement(p);
        return n;
    }
    Node *n = new_node(p, ND_NETWORK, pos);
    PtrVec items = { 0 };
    if (expect(p, TK_LBRACE, "(a network is 'network { s0 & s1 ... }' or "
               "'network i for n do s')"))
        statement_list(p, &items, TK_AMP, TK_RBRACE);
    set_items(p, n, &items);
    expect(p, TK_RBRACE, NULL);
    return n;
}

/* "if" expr "then" statement [ "else" statement ] */
static Node *if_statement(Parser *p)
{
    Node *n = new_node(p, ND_IF, cur(p)->pos);
    next(p);
    n->lhs = expr(p);
    expect(p, TK_THEN, NULL);
    n->rhs = statement(p);
    if (!p->panic && consume(p, TK_ELSE))
        n->third = statement(p);
    return n;
}

/* "while" expr "do" statement */
static Node *while_statement(Parser *p)
{
    Node *n = new_node(p, ND_WHILE, cur(p)->pos);
    next(p);
    n->lhs = expr(p);
    expect(p, TK_DO, NULL);
    n->rhs = statement(p);
    return n;
}

/* A statement that starts with an element: the next token decides.
 *   target ":=" expr | call | element [ ":" element ] "!" expr
 *   | element "?" target */
static Node *element_statement(Parser *p)
{
    Node *e = element(p);
    Token *t = cur(p);
    Node *n;
    if (p->panic)
        return new_node(p, ND_ERROR, e->pos);
    if (t->kind == TK_ASSIGN) {
        if (e->kind != ND_NAME && e->kind != ND_INDEX)
            diag_error(p->d, e->pos, "only a variable or an array element can be assigned to");
        n = new_node(p, ND_ASSIGN, t->pos);
        next(p);
        n->lhs = e;
        n->rhs = expr(p);
        return n;
    }
    if (t->kind == TK_COLON || t->kind == TK_BANG) {
        n = new_node(p, ND_SEND, e->pos);
        n->lhs = e;
        if (consume(p, TK_COLON))
            n->third = element(p);
        expect(p, TK_BANG, NULL);
        n->rhs = expr(p);
        return n;
    }
    if (t->kind == TK_QUERY) {
        n = new_node(p, ND_RECEIVE, e->pos);
        next(p);
        n->lhs = e;
        n->rhs = target(p);
        return n;
    }
    if (e->kind == ND_CALL) {
        n = new_node(p, ND_CALL_STMT, e->pos);
        n->lhs = e;
        return n;
    }
    expected(p, "':=', '!', '?' or a procedure call",
             t->kind == TK_EQ ? "(assignment is ':='; '=' compares)" : NULL);
    return new_node(p, ND_ERROR, t->pos);
}

/* statement := "skip" | "stop" | "return" expr
 *            | "if" expr "then" statement [ "else" statement ]
 *            | "while" expr "do" statement
 *            | "{" statement { ";" statement } [ ";" ] "}"
 *            | target ":=" expr | call
 *            | element [ ":" element ] "!" expr | element "?" target
 *            | "print" expr
 *            | "network" "{" statement { "&" statement } "}"
 *            | "network" name "for" expr "do" statement */
static Node *statement(Parser *p)
{
    Token *t = cur(p);
    Node *n;
    if (!enter(p)) {
        leave(p);
        return new_node(p, ND_ERROR, t->pos);
    }
    TokKind k = t->kind;
    if (k == TK_SKIP || k == TK_STOP) {
        n = new_node(p, k == TK_SKIP ? ND_SKIP : ND_STOP, t->pos);
        next(p);
    } else if (k == TK_RETURN || k == TK_PRINT) {
        n = new_node(p, k == TK_RETURN ? ND_RETURN : ND_PRINT, t->pos);
        next(p);
        n->lhs = expr(p);
    } else if (k == TK_IF) {
        n = if_statement(p);
    } else if (k == TK_WHILE) {
        n = while_statement(p);
    } else if (k == TK_LBRACE) {
        n = block(p);
    } else if (k == TK_NETWORK) {
        n = network(p);
    } else if (k == TK_NAME || k == TK_NUM || k == TK_TRUE || k == TK_FALSE ||
               k == TK_LPAREN || k == TK_PROCID || k == TK_NPROCS || k == TK_TIMESTEP) {
        n = element_statement(p);
    } else {
        expected(p, "a statement", is_declaration_start(k) ?
                 "(declarations come before the procedure's statement)" :
                 k == TK_ELSE ? "(there is no ';' before 'else')" : NULL);
        n = new_node(p, ND_ERROR, t->pos);
    }
    leave(p);
    return n;
}

/* ---- declarations ---- */

/* `var a, b;`: reported, and both declared, so that the names' uses do not
 * add errors of their own. */
static void var_list(Parser *p, PtrVec *out)
{
    expected(p, "';'", "(declare one name at a time: 'var a; var b;')");
    p->panic = 0;
    while (consume(p, TK_COMMA) && at(p, TK_NAME))
        push(p, out, name_node(p, ND_VAR));
}

/* The body shared by `global` and `local`: one declaration into out. */
static void declaration(Parser *p, PtrVec *out)
{
    Token *t = cur(p);
    NodeKind kind = t->kind == TK_VAL ? ND_VAL : t->kind == TK_VAR ? ND_VAR : ND_ARRAY;
    next(p);
    if (!at(p, TK_NAME)) {
        expected(p, "a name", NULL);
        sync_declaration(p);
        return;
    }
    Node *n = name_node(p, kind);
    push(p, out, n);
    if (kind == ND_VAL) {
        if (expect(p, TK_EQ, at(p, TK_ASSIGN) ? "(a val is given its value with '=')" : NULL))
            n->lhs = expr(p);
    } else if (kind == ND_ARRAY) {
        if (expect(p, TK_LBRACKET, "(an array is declared as 'array a[size];')")) {
            n->lhs = expr(p);
            expect(p, TK_RBRACKET, NULL);
        }
    } else if (at(p, TK_COMMA)) {
        var_list(p, out);
    }
    if (!p->panic) {
        int assume = at_new_line(p);
        expect(p, TK_SEMI, kind == ND_VAR && at(p, TK_ASSIGN) ?
               "(a var cannot be given a value here: assign it in a statement)" : NULL);
        if (assume)
            p->panic = 0;              /* as if the ';' were there */
    }
    if (kind != ND_VAR && !n->lhs)
        n->lhs = new_node(p, ND_ERROR, n->pos);    /* checked as nothing */
    if (p->panic)
        sync_declaration(p);
}

/* global := "val" name "=" expr ";" | "var" name ";"
 *         | "array" name "[" expr "]" ";" */
static void global(Parser *p, PtrVec *out) { declaration(p, out); }

/* local := "val" name "=" expr ";" | "var" name ";"
 *        | "array" name "[" expr "]" ";" */
static void local(Parser *p, PtrVec *out) { declaration(p, out); }

/* formal := "val" name | "array" name */
static Node *formal(Parser *p)
{
    TokKind k = cur(p)->kind;
    if (k != TK_VAL && k != TK_ARRAY) {
        expected(p, "'val' or 'array'", "(a parameter is 'val x' or 'array a')");
        return NULL;
    }
    next(p);
    if (!at(p, TK_NAME)) {
        expected(p, "a parameter name", NULL);
        return NULL;
    }
    return name_node(p, k == TK_VAL ? ND_PARAM_VAL : ND_PARAM_ARRAY);
}

/* "(" [ formal { "," formal } ] ")" "is", the rest of a procedure header. */
static void formals(Parser *p, Proc *proc)
{
    PtrVec v = { 0 };
    if (expect(p, TK_LPAREN, NULL) && !at(p, TK_RPAREN)) {
        do {
            Node *f = formal(p);
            if (f)
                push(p, &v, f);
        } while (!p->panic && consume(p, TK_COMMA));
    }
    proc->nparams = (uint32_t)v.count;
    proc->params = (Node **)vec_to_arena(&v, p->a);
    if (!p->panic)
        expect(p, TK_RPAREN, NULL);
    if (!p->panic)
        expect(p, TK_IS, NULL);
    if (p->panic) {             /* resume at the 'is' if there is one */
        while (!at(p, TK_EOF) && !at(p, TK_IS) && !is_procedure_start(cur(p)->kind))
            next(p);
        consume(p, TK_IS);
        p->panic = 0;
    }
}

/* procedure := ("proc" | "func") name "(" [ formal { "," formal } ] ")" "is"
 *              { local } statement */
static Proc *procedure(Parser *p, uint32_t index)
{
    Proc *proc = arena_alloc(p->a, sizeof *proc);
    if (!proc) {
        p->panic = 1;
        return NULL;
    }
    proc->is_func = at(p, TK_FUNC);
    proc->index = index;
    next(p);
    if (!at(p, TK_NAME)) {
        expected(p, "the procedure's name", NULL);
        sync_procedure(p);
        return NULL;
    }
    proc->name = cur(p)->text;
    proc->len = cur(p)->len;
    proc->pos = cur(p)->pos;
    next(p);
    formals(p, proc);
    PtrVec locals = { 0 };
    while (is_declaration_start(cur(p)->kind) && !diag_too_many(p->d))
        local(p, &locals);
    proc->nlocals = (uint32_t)locals.count;
    proc->locals = (Node **)vec_to_arena(&locals, p->a);
    proc->body = statement(p);
    if (!p->panic && at(p, TK_SEMI))
        diag_error(p->d, cur(p)->pos, "a procedure's body is one statement: put several "
                   "in a block, '{ s1; s2 }'");
    if (p->panic || at(p, TK_SEMI))
        sync_procedure(p);
    return proc;
}

/* program := { global } { procedure } */
void parse_program(Token *tokens, size_t count, Diag *d, Arena *a, Program *prog)
{
    Parser p = { .toks = tokens, .count = count, .d = d, .a = a };
    PtrVec globals = { 0 }, procs = { 0 };
    while (!at(&p, TK_EOF) && !diag_too_many(d) && !a->failed) {
        TokKind k = cur(&p)->kind;
        if (is_declaration_start(k)) {
            if (procs.count)
                diag_error(d, cur(&p)->pos, "global declarations must come before "
                           "the procedures");
            global(&p, &globals);
        } else if (is_procedure_start(k)) {
            Proc *proc = procedure(&p, (uint32_t)procs.count);
            if (proc)
                push(&p, &procs, proc);
        } else {
            expected(&p, "a declaration or a procedure", "('val', 'var', 'array', "
                     "'proc' or 'func')");
            while (!at(&p, TK_EOF) && !is_declaration_start(cur(&p)->kind) &&
                   !is_procedure_start(cur(&p)->kind))
                next(&p);                       /* stray text: skip all of it */
        }
        p.panic = 0;
    }
    prog->nglobals = (uint32_t)globals.count;
    prog->globals = (Node **)vec_to_arena(&globals, a);
    prog->nprocs = (uint32_t)procs.count;
    prog->procs = (Proc **)vec_to_arena(&procs, a);
    prog->end = tokens[count - 1].pos;
}
