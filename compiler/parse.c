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
 * limits however deeply the input nests.
 *
 * C's operators that X spells otherwise ('==', '!=', '&&', '!x', 'i++',
 * 'i += e', and '||', which X reads as a comment), and Pascal's '<>', get a
 * message that names the X form, and are then read as what they were meant
 * to be, so that the errors after them are still found. They are
 * recognised as two X tokens with nothing between them, which no correct
 * program contains. */
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

/* Whether token t is a name C gives a type (`int`, `unsigned`, ...): X has
 * none, and `int x;` is a C habit (at_c_declaration). */
static int is_c_type(const Token *t)
{
    static const char *const types[] = { "int", "char", "short", "long", "unsigned", "signed",
                                         "float", "double", "bool", "void", "uint32_t",
                                         "int32_t", "size_t" };
    if (t->kind != TK_NAME)
        return 0;
    for (size_t i = 0; i < sizeof types / sizeof types[0]; i++)
        if (strlen(types[i]) == t->len && memcmp(types[i], t->text, t->len) == 0)
            return 1;
    return 0;
}

/* Whether the parser is at C's `int x` (one or more type names, then a
 * name, not followed by '(': `int f(` is a procedure's header, which
 * at_other_header finds): a declaration, which `declaration` reads as a
 * var. */
static int at_c_declaration(const Parser *p)
{
    size_t i = p->at;
    while (i < p->count && is_c_type(&p->toks[i]))
        i++;
    return i > p->at && i + 1 < p->count && p->toks[i].kind == TK_NAME &&
           p->toks[i + 1].kind != TK_LPAREN;
}

/* Whether the parser is at a procedure's header written with another
 * language's word for 'proc' or 'func': a word, a name and '(' (Pascal's
 * `procedure p(`, `function f(`, C's `void main(`), which no X program
 * has. */
static int at_other_header(const Parser *p)
{
    return p->at + 2 < p->count && p->toks[p->at].kind == TK_NAME &&
           p->toks[p->at + 1].kind == TK_NAME && p->toks[p->at + 2].kind == TK_LPAREN;
}

/* Whether a token can start an element (the grammar's `element`). */
static int starts_element(TokKind k)
{
    return k == TK_NAME || k == TK_NUM || k == TK_TRUE || k == TK_FALSE || k == TK_LPAREN ||
           k == TK_PROCID || k == TK_NPROCS || k == TK_TIMESTEP;
}

/* Whether a token can start what follows a procedure's 'is': a local
 * declaration or the body, a statement. */
static int starts_body(TokKind k)
{
    return is_declaration_start(k) || starts_element(k) || k == TK_SKIP || k == TK_STOP ||
           k == TK_RETURN || k == TK_PRINT || k == TK_IF || k == TK_WHILE || k == TK_LBRACE ||
           k == TK_NETWORK || k == TK_LBRACKET || k == TK_ALL;
}

/* Whether token i starts a statement, as far as it and the next tell: a
 * name only when what follows it makes one (an assignment, a call, a send,
 * a receive, or C's 'x = e' and 'i++'), and a number only as a send's
 * destination, since either on its own is as likely stray text. */
static int starts_statement(const Parser *p, size_t i)
{
    TokKind k = p->toks[i].kind;
    TokKind after = i + 1 < p->count ? p->toks[i + 1].kind : TK_EOF;
    if (k == TK_NAME)
        return after == TK_ASSIGN || after == TK_LPAREN || after == TK_LBRACKET ||
               after == TK_BANG || after == TK_COLON || after == TK_QUERY || after == TK_EQ ||
               after == TK_PLUS || after == TK_MINUS;
    if (k == TK_NUM)
        return after == TK_BANG || after == TK_COLON;
    return k == TK_SKIP || k == TK_STOP || k == TK_RETURN || k == TK_PRINT || k == TK_IF ||
           k == TK_WHILE || k == TK_LBRACE || k == TK_NETWORK || k == TK_LBRACKET ||
           k == TK_ALL;
}

/* ---- C habits ---- */

/* Whether the current token and the next are `first` and `second` with
 * nothing between them: C's '==' is two X '=' tokens. */
static int c_pair(Parser *p, TokKind first, TokKind second)
{
    return at(p, first) && p->at + 1 < p->count && p->toks[p->at + 1].kind == second &&
           cur(p)->end.offset == p->toks[p->at + 1].pos.offset;
}

/* C's 'i++' or 'i--' at the current token: the pair, not followed on its
 * line by an operand (`a--b` is X's `a - -b`, reported as such). */
static int c_step(Parser *p)
{
    if (!c_pair(p, TK_PLUS, TK_PLUS) && !c_pair(p, TK_MINUS, TK_MINUS))
        return 0;
    const Token *after = &p->toks[p->at + 2];      /* the pair is never the end */
    return !starts_element(after->kind) || after->pos.line > p->toks[p->at + 1].end.line;
}

/* C's 'i += e', '-=', '*=', '/=', '%=', '<<=', '>>=' or '&=' at the current
 * token. */
static int c_compound(Parser *p)
{
    static const TokKind ops[] = { TK_PLUS, TK_MINUS, TK_STAR, TK_SLASH, TK_PERCENT,
                                   TK_SHL, TK_SHR, TK_AMP };
    for (size_t i = 0; i < sizeof ops / sizeof ops[0]; i++)
        if (c_pair(p, ops[i], TK_EQ))
            return 1;
    return 0;
}

/* Whether '||' follows the previous token on its line: X reads it as a
 * comment, so an error after it is most likely C's 'or'. */
static int c_or_follows(Parser *p)
{
    if (p->at == 0)
        return 0;
    const Token *prev = &p->toks[p->at - 1];
    const char *s = prev->text + prev->len, *end = p->d->text + p->d->len;
    while (s < end && (*s == ' ' || *s == '\t'))
        s++;
    return end - s >= 2 && s[0] == '|' && s[1] == '|';
}

/* Whether the current token is part of a C comment's marker, a slash
 * followed by a slash or a star: X reads them as operators, so an error
 * there is most likely a C comment. */
static int c_comment_at(Parser *p)
{
    const char *s = cur(p)->text, *start = p->d->text, *end = start + p->d->len;
    if (cur(p)->kind == TK_EOF || s >= end)
        return 0;
    return (s[0] == '/' && end - s >= 2 && (s[1] == '/' || s[1] == '*')) ||
           ((s[0] == '/' || s[0] == '*') && s > start && s[-1] == '/');
}

/* The source text of tokens [from, to) into buf, when it is on one line and
 * fits; returns 0 (and leaves buf alone) otherwise. */
static int source_text(Parser *p, size_t from, size_t to, char *buf, size_t size)
{
    if (from >= to || to > p->count)
        return 0;
    const Token *first = &p->toks[from], *last = &p->toks[to - 1];
    size_t n = (size_t)(last->text + last->len - first->text);
    if (n >= size || first->pos.line != last->pos.line)
        return 0;
    memcpy(buf, first->text, n);
    buf[n] = '\0';
    return 1;
}

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
    if (!hint && c_or_follows(p))
        hint = "('|' starts a comment: for C's '||' write 'or', which works on every bit)";
    if (!hint && c_comment_at(p))
        hint = "(a comment starts with '|' and runs to the end of the line: X has no '//' "
               "or '/* */')";
    SrcPos pos = t->pos;
    if (p->at > 0 && (t->kind == TK_EOF || t->pos.line != p->toks[p->at - 1].end.line))
        pos = p->toks[p->at - 1].end;
    char found[64];
    lex_describe(t, found, sizeof found);
    error_at(p, pos, "expected %s %s %s%s%s", what, t->kind == TK_EOF ? "at" : "before",
             found, hint ? " " : "", hint ? hint : "");
}

/* `all` where a name belongs: it is a keyword (multicast.md), which a
 * program written before it was may have used as a name. Reports that and
 * returns 1, or returns 0 for any other token. */
static int keyword_all(Parser *p)
{
    if (!at(p, TK_ALL))
        return 0;
    error_at(p, cur(p)->pos, "'all' is a keyword (a broadcast: all ! e) and cannot be a name");
    return 1;
}

/* Whether a name being declared is current: a name, or a keyword written
 * as one (`var print;`), which is reported and then read as the name, so
 * that the declaration goes on and its uses add no errors of their own. A
 * keyword is taken for a name when the token after it is `follow` (the
 * 'for' of a network's index), or, when `follow` is TK_EOF, punctuation or
 * on a later line: 'var' at the end of a line before 'proc main()' is a
 * name missing, not 'proc' used as one. */
static int at_declared_name(Parser *p, TokKind follow)
{
    const Token *t = cur(p), *after = &p->toks[p->at + 1 < p->count ? p->at + 1 : p->at];
    if (t->kind == TK_NAME)
        return 1;
    if (t->kind < TK_VAL || t->kind > TK_ALL)     /* TOKEN_KEYWORDS, from first to last */
        return 0;
    if (follow != TK_EOF ? after->kind != follow :
        after->kind < TK_ASSIGN && after->pos.line == t->end.line)
        return 0;
    if (!keyword_all(p))
        error_at(p, t->pos, "'%s' is a keyword and cannot be a name", lex_spelling(t->kind));
    p->panic = 0;
    return 1;
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

/* The binary operator at the current token and the number of tokens it
 * takes: 1, or 2 for C's '==', '!=' and '&&' and Pascal's '<>', read as
 * '=', '~=', 'and' and '~=' (c_operator_error reports them). 0 when there
 * is none. */
static int peek_binop(Parser *p, BinOp *op)
{
    if (c_pair(p, TK_EQ, TK_EQ) || c_pair(p, TK_BANG, TK_EQ) || c_pair(p, TK_LT, TK_GT)) {
        *op = at(p, TK_EQ) ? BIN_EQ : BIN_NE;
        return 2;
    }
    if (c_pair(p, TK_AMP, TK_AMP)) {
        TokKind k = p->toks[p->at + 2].kind;
        *op = BIN_AND;
        return starts_element(k) || k == TK_BANG || k == TK_TILDE || k == TK_MINUS ? 2 : 0;
    }
    return binop_from_token(cur(p)->kind, op);
}

/* C's '==', '!=' or '&&', or Pascal's '<>', at the current token, read as
 * `op`. */
static void c_operator_error(Parser *p, BinOp op)
{
    SrcPos pos = cur(p)->pos;
    if (op == BIN_EQ)
        diag_error(p->d, pos, "X has no '==': use '=' to compare (':=' assigns)");
    else if (op == BIN_NE)
        diag_error(p->d, pos, "X has no '%s': use '~=' (not equal)",
                   at(p, TK_LT) ? "<>" : "!=");
    else
        diag_error(p->d, pos, "X has no '&&': use 'and', which works on every bit and "
                   "evaluates both sides (see the traps in docs/language.md)");
}

/* C's 'i++' or 'i--' at `pos`, on the target in tokens [from, to), which
 * the caller has read; `where` ends the message. The pair is skipped when
 * it is the current token. */
static void c_step_error(Parser *p, SrcPos pos, int plus, size_t from, size_t to,
                         const char *where)
{
    char target[48] = "i";
    source_text(p, from, to, target, sizeof target);
    const char *op = plus ? "+" : "-";
    diag_error(p->d, pos, "X has no '%s%s': write '%s := %s %s 1'%s", op, op, target, target,
               op, where);
    if (p->at < p->count && cur(p)->pos.offset == pos.offset) {
        next(p);
        next(p);
    }
}

/* C's 'i += e' (or '-=', '*=', ...) after the target in tokens [from,
 * p->at): reported with the X form, and e read so that parsing goes on. */
static Node *c_compound_assignment(Parser *p, size_t from)
{
    Token *t = cur(p);
    char target[48] = "x", value[48] = "e";
    int is_and = t->kind == TK_AMP;
    source_text(p, from, p->at, target, sizeof target);
    next(p);
    next(p);
    size_t value_from = p->at;
    Node *e = expr(p);
    int parenthesize = e->kind == ND_BINARY || e->kind == ND_NEG || e->kind == ND_NOT;
    if (p->panic || !source_text(p, value_from, p->at, value, sizeof value))
        parenthesize = 0;
    diag_error(p->d, t->pos, "X has no '%.*s=': write '%s := %s %s %s%s%s'", (int)t->len,
               t->text, target, target, is_and ? "and" : lex_spelling(t->kind),
               parenthesize ? "(" : "", value, parenthesize ? ")" : "");
    return new_node(p, ND_ERROR, t->pos);
}

/* C's '!x' where an element belongs: reported with the X form, then read
 * as '~x' (not what C means, but the program will not be run). */
static Node *c_not(Parser *p)
{
    Token *t = cur(p);
    BinOp before;                   /* after an operator, the X form needs parentheses */
    TokKind prev = p->at > 0 ? p->toks[p->at - 1].kind : TK_EOF;
    int in_chain = binop_from_token(prev, &before) || prev == TK_AMP;
    Node *n = new_node(p, ND_NOT, t->pos);
    next(p);
    size_t from = p->at;
    n->lhs = element(p);
    char operand[48] = "x";
    if (!p->panic) {
        source_text(p, from, p->at, operand, sizeof operand);
        diag_error(p->d, t->pos, "X has no '!': for C's '!%s' write '%s%s = false%s' ('~' "
                   "flips every bit, and '~1' is -2, which is true)", operand,
                   in_chain ? "(" : "", operand, in_chain ? ")" : "");
    }
    return n;
}

/* The messages for the no-precedence rule, reported at `pos`, an operator
 * `second` following operator `first`; the expression is still read to its
 * end. */
static void precedence_error(Parser *p, BinOp first, BinOp second, SrcPos pos)
{
    const char *a = lex_spelling(binop_token(first)), *b = lex_spelling(binop_token(second));
    if (first != second)
        diag_error(p->d, pos, "'%s' after '%s' needs parentheses (X has no operator "
                   "precedence): write '(a %s b) %s c' or 'a %s (b %s c)'", b, a, a, b, a, b);
    else if (binop_comparison(first))
        diag_error(p->d, pos, "comparisons cannot be chained: write '(a %s b) and "
                   "(b %s c)'", a, a);
    else
        diag_error(p->d, pos, "'%s' cannot be repeated without parentheses: write "
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

/* An element of an expression, and C's 'i++' or 'i--' after it. */
static Node *operand(Parser *p)
{
    size_t from = p->at;
    Node *n = element(p);
    if (!p->panic && c_step(p))
        c_step_error(p, cur(p)->pos, at(p, TK_PLUS), from, p->at,
                     " in a statement of its own");
    return n;
}

/* The rest of a chain `first op element op element ...`. */
static Node *chain(Parser *p, Node *first)
{
    Node *n = new_node(p, ND_BINARY, cur(p)->pos);
    BinOp op = BIN_ADD, this_op;
    peek_binop(p, &op);
    n->op = op;
    PtrVec items = { 0 };
    push(p, &items, first);
    int reported = 0, width;
    while (!p->panic && (width = peek_binop(p, &this_op)) > 0) {
        SrcPos pos = cur(p)->pos;
        if (width == 2)
            c_operator_error(p, this_op);
        if (!reported && (this_op != op || (items.count >= 2 && !binop_associative(op)))) {
            precedence_error(p, op, this_op, pos);    /* dropped after a C message */
            reported = 1;
        }
        next(p);
        if (width == 2)
            next(p);
        if (at(p, TK_MINUS) || at(p, TK_TILDE))
            push(p, &items, misplaced_unary(p, binop_token(this_op)));
        else
            push(p, &items, operand(p));
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
        BinOp op;
        if (!p->panic && peek_binop(p, &op)) {
            const char *u = lex_spelling(t->kind), *b = lex_spelling(binop_token(op));
            diag_error(p->d, cur(p)->pos, "'%s' applies to one element only: write "
                       "'(%sa) %s b' or '%s(a %s b)'", u, u, b, u, b);
            n = chain(p, n);
        }
    } else {
        BinOp op;
        n = operand(p);
        if (!p->panic && peek_binop(p, &op))
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

/* Whether a name and a '[' are current: an element, or a slice. */
static int at_indexed_name(Parser *p)
{
    return at(p, TK_NAME) && p->toks[p->at + 1].kind == TK_LBRACKET;   /* (EOF ends them) */
}

/* name "[" expr "]", an element, or name "[" expr "for" expr "]", the
 * slice of an array that a message sends or receives (spec/messages.md):
 * they start alike, and the "for" tells them apart. A name and a '[' are
 * current. */
static Node *element_or_slice(Parser *p)
{
    Node *n = name_node(p, ND_INDEX);
    next(p);
    n->lhs = expr(p);
    if (!p->panic && consume(p, TK_FOR)) {
        n->kind = ND_SLICE;
        n->rhs = expr(p);
    }
    expect(p, TK_RBRACKET, at(p, TK_COLON) ? "(the words of an array from a[i] on are "
           "a[i for n]: Python's a[0:3] is a[0 for 3])" : NULL);
    return n;
}

/* target := name | name "[" expr "]"   (also the first two forms of element) */
static Node *target(Parser *p)
{
    if (!at(p, TK_NAME)) {
        if (!keyword_all(p))
            expected(p, "a variable or an array element", NULL);
        return new_node(p, ND_ERROR, cur(p)->pos);
    }
    if (p->at + 1 < p->count && p->toks[p->at + 1].kind == TK_LBRACKET) {
        Node *n = name_node(p, ND_INDEX);
        next(p);
        n->lhs = expr(p);
        expect(p, TK_RBRACKET, at(p, TK_FOR) ? "(the words a[i for n] stand only alone "
               "after the '!' of a send to one processor or the '?' of a receive: "
               "'d ! a[i for n]', 'k ? a[i for n]')" : NULL);
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
    if (k == TK_BANG && p->at + 1 < p->count && starts_element(p->toks[p->at + 1].kind) &&
        t->end.offset == p->toks[p->at + 1].pos.offset)
        return c_not(p);
    if (!keyword_all(p))
        expected(p, "a name, a number or '('", NULL);
    return new_node(p, ND_ERROR, t->pos);
}

/* ---- statements ---- */

/* Reads statements separated by `sep` into v until `close` (not consumed).
 * A block allows a `sep` before its `close`; a network does not, and a ';'
 * ending one of its branches (C's habit) is one error. Each
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
        if (!p->panic && sep == TK_AMP && at(p, TK_SEMI) &&
            (p->toks[p->at + 1].kind == TK_AMP || p->toks[p->at + 1].kind == close)) {
            diag_error(p->d, cur(p)->pos, "no ';' after a network's branch: ';' goes between "
                       "the statements of a block, '{ s1; s2 }', and '&' between branches");
            next(p);                    /* read as if it were not there */
            if (consume(p, sep))
                continue;
            return;
        }
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
    if (at_declared_name(p, TK_FOR)) {
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

/* "[" expr { "," expr } "]" [ ":" element ] "!" expr
 * | "all" [ ":" element ] "!" expr                  (spec/multicast.md) */
static Node *multicast(Parser *p)
{
    Token *t = cur(p);
    TokKind after = p->at + 1 < p->count ? p->toks[p->at + 1].kind : TK_EOF;
    if (t->kind == TK_ALL && after != TK_COLON && after != TK_BANG) {
        keyword_all(p);                             /* `all` used as a name */
        return new_node(p, ND_ERROR, t->pos);
    }
    Node *n = new_node(p, ND_MULTICAST, t->pos);
    if (t->kind == TK_ALL) {
        next(p);
    } else {
        PtrVec items = { 0 };
        next(p);
        if (at(p, TK_RBRACKET))
            expected(p, "a destination", "(a list names at least one processor: "
                     "'[d1, d2] ! e')");
        else
            do
                push(p, &items, expr(p));
            while (!p->panic && consume(p, TK_COMMA));
        set_items(p, n, &items);
        expect(p, TK_RBRACKET, NULL);
    }
    if (consume(p, TK_COLON))
        n->third = element(p);
    expect(p, TK_BANG, NULL);
    if (!p->panic && at(p, TK_LBRACKET))
        expected(p, "a value", "(a multicast sends one word; a message of several words "
                 "goes to one processor: 'd ! [e1, e2]')");
    n->rhs = expr(p);
    return n;
}

/* "[" expr { "," expr } "]": the words of a message, one an expression */
static Node *words(Parser *p)
{
    Node *n = new_node(p, ND_WORDS, cur(p)->pos);
    PtrVec items = { 0 };
    next(p);
    if (at(p, TK_RBRACKET))
        expected(p, "a word", "(a message has at least one word: 'd ! [e1, e2]')");
    else
        do
            push(p, &items, expr(p));
        while (!p->panic && consume(p, TK_COMMA));
    set_items(p, n, &items);
    expect(p, TK_RBRACKET, NULL);
    return n;
}

/* What follows a send's '!': expr, a value; or the words of a message,
 * "[" expr { "," expr } "]" | name "[" expr "for" expr "]". An element
 * a[i] starts as a slice does, and goes on as an expression. */
static Node *send_value(Parser *p)
{
    if (at(p, TK_LBRACKET))
        return words(p);
    if (!at_indexed_name(p))
        return expr(p);
    size_t from = p->at;
    Node *n = element_or_slice(p);
    BinOp op;
    if (n->kind == ND_SLICE || p->panic)
        return n;
    if (c_step(p))                              /* as operand() */
        c_step_error(p, cur(p)->pos, at(p, TK_PLUS), from, p->at,
                     " in a statement of its own");
    if (!p->panic && peek_binop(p, &op))
        n = chain(p, n);                        /* as expr() */
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
 *   | element [ ":" element ] "!" "[" expr { "," expr } "]"
 *   | element [ ":" element ] "!" name "[" expr "for" expr "]"
 *   | element "?" target | element "?" name "[" expr "for" expr "]" */
static Node *element_statement(Parser *p)
{
    size_t from = p->at;
    Node *e = element(p);
    Token *t = cur(p);
    Node *n;
    if (p->panic)
        return new_node(p, ND_ERROR, e->pos);
    if (c_step(p)) {
        c_step_error(p, t->pos, t->kind == TK_PLUS, from, p->at, "");
        return new_node(p, ND_ERROR, t->pos);
    }
    if (c_compound(p))
        return c_compound_assignment(p, from);
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
        n->rhs = send_value(p);
        if (n != &p->dummy && (n->rhs->kind == ND_WORDS || n->rhs->kind == ND_SLICE))
            n->kind = ND_MESSAGE;
        return n;
    }
    if (t->kind == TK_QUERY) {
        n = new_node(p, ND_RECEIVE, e->pos);
        next(p);
        n->lhs = e;
        if (at(p, TK_LBRACKET)) {       /* as a message is sent: 'd ! [a, b]' */
            expected(p, "a variable or an array element", "(a receive takes one word, or "
                     "the words of an array: 'k ? a[i for n]')");
            return new_node(p, ND_ERROR, cur(p)->pos);
        }
        n->rhs = at_indexed_name(p) ? element_or_slice(p) : target(p);
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
 *            | element [ ":" element ] "!" "[" expr { "," expr } "]"
 *            | element [ ":" element ] "!" name "[" expr "for" expr "]"
 *            | element "?" name "[" expr "for" expr "]"
 *            | "[" expr { "," expr } "]" [ ":" element ] "!" expr
 *            | "all" [ ":" element ] "!" expr
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
    } else if (k == TK_LBRACKET || k == TK_ALL) {
        n = multicast(p);
    } else if (starts_element(k)) {
        n = element_statement(p);
    } else if ((c_pair(p, TK_PLUS, TK_PLUS) || c_pair(p, TK_MINUS, TK_MINUS)) &&
               p->toks[p->at + 2].kind == TK_NAME) {
        next(p);                       /* C's '++i' */
        next(p);
        size_t from = p->at;
        target(p);
        if (!p->panic)
            c_step_error(p, t->pos, k == TK_PLUS, from, p->at, "");
        n = new_node(p, ND_ERROR, t->pos);
    } else if (k == TK_FOR) {           /* C's `for (...)` */
        error_at(p, t->pos, "X has no 'for' loop: write 'i := 0; while i < n do { ...; "
                 "i := i + 1 }' ('for' is only in 'network i for n' and 'a[i for n]')");
        next(p);
        for (int depth = 0; at(p, TK_LPAREN) || (depth > 0 && !at(p, TK_EOF)); next(p))
            depth += at(p, TK_LPAREN) ? 1 : at(p, TK_RPAREN) ? -1 : 0;  /* C's header */
        n = new_node(p, ND_ERROR, t->pos);
    } else if (k == TK_ELSE && at_new_line(p) && p->toks[p->at - 1].kind == TK_SEMI) {
        error_at(p, p->toks[p->at - 1].pos, "expected a statement before 'else' (there is "
                 "no ';' before 'else')");  /* on the ';', not after it as expected() */
        n = new_node(p, ND_ERROR, t->pos);
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
    int c_type = at_c_declaration(p);
    if (c_type) {                       /* C's `int x;`: read as `var x;` */
        while (is_c_type(cur(p)))
            next(p);
        Token *name = cur(p);
        error_at(p, t->pos, "X has no '%.*s': declare a word as 'var %.*s;' (an array as "
                 "'array %.*s[size];')", (int)t->len, t->text, (int)name->len, name->text,
                 (int)name->len, name->text);
        p->panic = 0;
        kind = ND_VAR;
    } else
        next(p);
    if (!at_declared_name(p, TK_EOF)) {
        expected(p, "a name", NULL);
        sync_declaration(p);
        return;
    }
    Node *n = name_node(p, kind);
    push(p, out, n);
    if (kind == ND_VAR && at(p, TK_LBRACKET)) {    /* C's `int a[4];` */
        if (!c_type)
            error_at(p, cur(p)->pos, "a var is one word: declare an array as "
                     "'array %.*s[...];'", (int)n->len, n->name);
        p->panic = 0;
        n->kind = kind = ND_ARRAY;          /* so that its uses add no errors */
    }
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
    if (!at_declared_name(p, TK_EOF)) {
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
    if (!p->panic && !expect(p, TK_IS, NULL) && starts_body(cur(p)->kind))
        p->panic = 0;           /* only the 'is' is missing: the body follows */
    if (p->panic) {             /* resume at the 'is' if there is one */
        while (!at(p, TK_EOF) && !at(p, TK_IS) && !is_procedure_start(cur(p)->kind))
            next(p);
        consume(p, TK_IS);
        p->panic = 0;
    }
}

/* What follows a procedure's body, which is one statement. A ';' there is
 * C's habit, reported as what it is. More statements, after a ';' or on
 * their own, are reported once, at the first, and read on as the rest of
 * a block (a ';' missing at the end of a line assumed), so that their own
 * errors are found and the names they use checked. Returns the body, or a
 * block of it and them; a ';' it does not read is left for the caller. */
static Node *body_end(Parser *p, Node *body)
{
    Token *semi = at(p, TK_SEMI) ? cur(p) : NULL;
    size_t first = p->at + (semi != NULL);          /* (the last token is TK_EOF) */
    TokKind after = p->toks[first].kind;
    if (semi && after == TK_ELSE) {
        diag_error(p->d, semi->pos, "there is no ';' before 'else'");
        return body;
    }
    if (semi && (after == TK_EOF || is_procedure_start(after))) {
        diag_error(p->d, semi->pos, "no ';' after a procedure's body: ';' goes between the "
                   "statements of a block, '{ s1; s2 }'");
        return body;
    }
    if (!semi && (!starts_statement(p, first) || cur(p)->after_bad))
        return body;                    /* (after a bad character: reported already) */
    diag_error(p->d, semi ? semi->pos : cur(p)->pos, "a procedure's body is one statement: "
               "put several in a block, '{ s1; s2 }'");
    if (!starts_statement(p, first))
        return body;
    consume(p, TK_SEMI);
    PtrVec items = { 0 };
    push(p, &items, body);
    while (!diag_too_many(p->d) && !p->a->failed) {
        size_t start = p->at;
        push(p, &items, statement(p));
        if (p->panic)
            sync_statement(p);
        if (p->at == start)
            next(p);                    /* (a statement's first token is always read) */
        int sep = consume(p, TK_SEMI);
        if (!starts_statement(p, p->at))
            break;
        if (!sep && !at_new_line(p))
            expected(p, "';'", NULL);
        p->panic = 0;
    }
    Node *n = new_node(p, ND_BLOCK, body->pos);
    set_items(p, n, &items);
    return n;
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
    if (!at_declared_name(p, TK_EOF)) {
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
    while ((is_declaration_start(cur(p)->kind) || at_c_declaration(p)) && !diag_too_many(p->d))
        local(p, &locals);
    proc->nlocals = (uint32_t)locals.count;
    proc->locals = (Node **)vec_to_arena(&locals, p->a);
    proc->body = statement(p);
    if (!p->panic)
        proc->body = body_end(p, proc->body);
    if (p->panic || at(p, TK_SEMI))
        sync_procedure(p);
    return proc;
}

/* Whether statement s returns a value somewhere: a procedure whose header
 * says neither 'proc' nor 'func' is taken for a func when it does. */
static int returns(const Node *s)
{
    if (!s)
        return 0;
    if (s->kind == ND_RETURN)
        return 1;
    if (s->kind == ND_IF)
        return returns(s->rhs) || returns(s->third);
    if (s->kind == ND_WHILE || s->kind == ND_NETWORK_FOR)
        return returns(s->rhs);
    if (s->kind == ND_BLOCK || s->kind == ND_NETWORK)
        for (uint32_t i = 0; i < s->count; i++)
            if (returns(s->items[i]))
                return 1;
    return 0;
}

/* A procedure whose header has another language's word for 'proc' or
 * 'func' (at_other_header): reported with the X form at the word, and read
 * as a proc, or as a func when its body returns a value, so that its body's
 * errors are found and a 'main' so written is still the program's. */
static Proc *other_procedure(Parser *p, uint32_t index)
{
    const Token *word = cur(p), *name = &p->toks[p->at + 1];
    diag_error(p->d, word->pos, "X has no '%.*s': a procedure is 'proc " NAME_FMT "(...) is "
               "...', or 'func " NAME_FMT "(...) is ...' when it returns a value",
               (int)word->len, word->text, NAME_ARG(name->text, name->len),
               NAME_ARG(name->text, name->len));
    Proc *proc = procedure(p, index);
    if (proc)
        proc->is_func = returns(proc->body);
    return proc;
}

/* program := { global } { procedure } */
void parse_program(Token *tokens, size_t count, Diag *d, Arena *a, Program *prog)
{
    Parser p = { .toks = tokens, .count = count, .d = d, .a = a };
    PtrVec globals = { 0 }, procs = { 0 };
    while (!at(&p, TK_EOF) && !diag_too_many(d) && !a->failed) {
        TokKind k = cur(&p)->kind;
        if (is_declaration_start(k) || at_c_declaration(&p)) {
            if (procs.count)
                diag_error(d, cur(&p)->pos, "global declarations must come before "
                           "the procedures");
            global(&p, &globals);
        } else if (is_procedure_start(k) || at_other_header(&p)) {
            Proc *proc = is_procedure_start(k) ? procedure(&p, (uint32_t)procs.count)
                                               : other_procedure(&p, (uint32_t)procs.count);
            if (proc)
                push(&p, &procs, proc);
        } else {
            expected(&p, "a declaration or a procedure", "('val', 'var', 'array', "
                     "'proc' or 'func')");
            while (!at(&p, TK_EOF) && !is_declaration_start(cur(&p)->kind) &&
                   !is_procedure_start(cur(&p)->kind) && !at_other_header(&p))
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
