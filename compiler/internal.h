/* The compiler's shared types: source positions, tokens, the syntax tree,
 * symbols and the diagnostics sink, as the phases pass them along.
 *
 *     text --lex--> Token[] --parse--> Program (Node trees)
 *          --check--> names resolved, constants folded, frames laid out
 *          --gen--> one instruction list per processor --asm--> bytes
 *
 * Every phase reports through one Diag, which counts gcc-style messages and
 * keeps them to print sorted by position at the end; no phase stops the
 * program. Every node, token and symbol
 * lives in one Arena freed at the end of the compilation. */
#ifndef COMPILER_INTERNAL_H
#define COMPILER_INTERNAL_H

#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>

#include "cpu/hex.h"
#include "cpu/lines.h"

/* A name in a message: as it is up to NAME_SHOWN characters, a longer one
 * cut there with "..." after it, so that a name of a megabyte does not
 * make a message of a megabyte. Used as "'" NAME_FMT "'" with
 * NAME_ARG(text, len). */
enum { NAME_SHOWN = LINES_NAME_SHOWN };
#define NAME_FMT "%.*s%s"
#define NAME_ARG(text, len) \
    (int)((len) > NAME_SHOWN ? NAME_SHOWN : (len)), (text), ((len) > NAME_SHOWN ? "..." : "")

enum {
    MAX_NESTING = 1000,        /* deepest nesting of statements and expressions */
    MAX_ERRORS = 100,          /* the compilation stops after this many */
    MAX_NETWORK = 1 << 20,     /* most branches a network statement may have */
    MAX_DEST = 1 << 24,        /* processors OUT can address */
    MAX_PORT = 256,            /* ports OUT and IN can address */
    MAX_LIST = 1 << 16,        /* destinations a multicast list may name */
    MAX_MESSAGE = 1 << 16,     /* words a message may have (SEND's L) */
    MIN_STACK_WORDS = 64       /* stack left between the image and the globals */
};

/* ---- memory ------------------------------------------------------------ */

/* A bump allocator: everything a compilation makes, freed at once. */
typedef struct ArenaBlock ArenaBlock;
typedef struct Arena {
    ArenaBlock *blocks;   /* newest first */
    int failed;           /* an allocation failed (out of memory) */
} Arena;

void *arena_alloc(Arena *a, size_t size);   /* zeroed; NULL when out of memory */
void arena_free(Arena *a);

/* A growable array of pointers, malloc'ed while a list is being read. */
typedef struct PtrVec {
    void **items;
    size_t count, cap;
} PtrVec;

int vec_push(PtrVec *v, void *item);          /* 0, or -1 when out of memory */
void **vec_to_arena(PtrVec *v, Arena *a);     /* copies, frees the vector */
void vec_free(PtrVec *v);

/* ---- diagnostics ------------------------------------------------------- */

/* A place in the source: 1-based line and byte column, and byte offset. */
typedef struct SrcPos {
    uint32_t line, col;
    size_t offset;
} SrcPos;

/* One message, kept until the end so that all are shown in source order,
 * the errors first and then the notes that explain them. */
typedef struct DiagMessage {
    SrcPos pos;
    size_t seq;           /* the order it was found in */
    char *text;           /* the whole message, lines included (malloc'ed) */
    int note;             /* a note: after every error */
} DiagMessage;

/* Where messages go and how many there were. */
typedef struct Diag {
    const char *file;     /* the name shown in messages */
    const char *text;     /* the source, for the line under each message */
    size_t len;
    FILE *out;            /* NULL: count only */
    int errors;           /* errors reported so far */
    int has_last;         /* last_pos is valid */
    SrcPos last_pos;      /* position of the last message, to drop repeats */
    DiagMessage *msgs;    /* the messages so far */
    size_t nmsgs;
} Diag;

/* Records `file:line:col: error: ...` with the source line and a caret.
 * A second error at the very position of the previous one is dropped (it is
 * nearly always a consequence of the first). */
void diag_error(Diag *d, SrcPos pos, const char *fmt, ...)
    __attribute__((format(printf, 3, 4)));
/* An error about the whole file, from outside it (a -D): `file: error: ...`,
 * shown before the others. */
void diag_error_file(Diag *d, const char *fmt, ...) __attribute__((format(printf, 2, 3)));
/* `file:line:col: note: ...` with the line and caret: what explains the
 * errors; not an error itself. */
void diag_note(Diag *d, SrcPos pos, const char *fmt, ...) __attribute__((format(printf, 3, 4)));
int diag_too_many(const Diag *d);            /* MAX_ERRORS reached */

/* Writes the messages to d->out in source order (phases find them in their
 * own order) and frees them. */
void diag_flush(Diag *d);

/* ---- tokens ------------------------------------------------------------ */

#define TOKEN_KEYWORDS(X) \
    X(VAL, "val") X(VAR, "var") X(ARRAY, "array") X(PROC, "proc") \
    X(FUNC, "func") X(IS, "is") X(SKIP, "skip") X(STOP, "stop") \
    X(RETURN, "return") X(IF, "if") X(THEN, "then") X(ELSE, "else") \
    X(WHILE, "while") X(DO, "do") X(NETWORK, "network") X(FOR, "for") \
    X(PRINT, "print") X(TRUE, "true") X(FALSE, "false") X(AND, "and") \
    X(OR, "or") X(XOR, "xor") X(PROCID, "procid") X(NPROCS, "nprocs") \
    X(TIMESTEP, "timestep") X(ALL, "all")

#define TOKEN_PUNCTUATORS(X) \
    X(ASSIGN, ":=") X(NE, "~=") X(LE, "<=") X(GE, ">=") X(SHL, "<<") \
    X(SHR, ">>") X(PLUS, "+") X(MINUS, "-") X(STAR, "*") X(SLASH, "/") \
    X(PERCENT, "%") X(EQ, "=") X(LT, "<") X(GT, ">") X(TILDE, "~") \
    X(COLON, ":") X(BANG, "!") X(QUERY, "?") X(SEMI, ";") X(COMMA, ",") \
    X(LPAREN, "(") X(RPAREN, ")") X(LBRACKET, "[") X(RBRACKET, "]") \
    X(LBRACE, "{") X(RBRACE, "}") X(AMP, "&")

typedef enum TokKind {
    TK_EOF, TK_NAME, TK_NUM,
#define TOKEN_ENUM(name, text) TK_##name,
    TOKEN_KEYWORDS(TOKEN_ENUM)
    TOKEN_PUNCTUATORS(TOKEN_ENUM)
#undef TOKEN_ENUM
    TK_COUNT
} TokKind;

typedef struct Token {
    TokKind kind;
    const char *file;     /* the source file's name, as messages show it */
    uint32_t value;       /* TK_NUM: the 32-bit word it means */
    const char *text;     /* its characters in the source */
    uint32_t len;
    SrcPos pos;           /* its first character */
    SrcPos end;           /* just after its last character */
    int after_bad;        /* an invalid character was skipped just before it */
} Token;

/* Splits the source into tokens, ending with one TK_EOF. Bad characters
 * and numbers are reported and skipped. Returns the array (in the arena) and
 * its length, or NULL when out of memory. */
Token *lex_source(Diag *d, Arena *a, size_t *count);

const char *lex_spelling(TokKind kind);       /* "val", ":=", ... */

/* Writes how a message names a token: 'x', '12', 'end of input'. */
void lex_describe(const Token *t, char *buf, size_t size);

/* ---- binary operators -------------------------------------------------- */

/* Each binary operator: its name, its token, and whether it associates (may
 * be repeated without parentheses: a + b + c). */
#define BINARY_OPERATORS(X) \
    X(ADD, PLUS, 1) X(SUB, MINUS, 0) X(MUL, STAR, 1) X(DIV, SLASH, 0) \
    X(REM, PERCENT, 0) X(AND, AND, 1) X(OR, OR, 1) X(XOR, XOR, 1) \
    X(SHL, SHL, 0) X(SHR, SHR, 0) X(EQ, EQ, 0) X(NE, NE, 0) \
    X(LT, LT, 0) X(LE, LE, 0) X(GT, GT, 0) X(GE, GE, 0)

typedef enum BinOp {
#define BINOP_ENUM(name, token, assoc) BIN_##name,
    BINARY_OPERATORS(BINOP_ENUM)
#undef BINOP_ENUM
} BinOp;

int binop_from_token(TokKind k, BinOp *op);  /* 1 when k is a binary operator */
TokKind binop_token(BinOp op);
int binop_associative(BinOp op);
int binop_comparison(BinOp op);              /* = ~= < <= > >= */

/* ---- syntax tree ------------------------------------------------------- */

typedef struct Symbol Symbol;
typedef struct Proc Proc;
typedef struct Node Node;

typedef enum NodeKind {
    /* expressions */
    ND_NUM,        /* value (numbers, characters, true, false) */
    ND_NAME,       /* name: a variable, constant or (as an argument) array */
    ND_INDEX,      /* name [ lhs ] */
    ND_CALL,       /* name ( items ) */
    ND_NEG,        /* - lhs */
    ND_NOT,        /* ~ lhs */
    ND_BINARY,     /* items joined by `op` (2 items unless op associates) */
    ND_PROCID, ND_NPROCS, ND_TIMESTEP,
    /* statements */
    ND_SKIP, ND_STOP,
    ND_RETURN,     /* return lhs */
    ND_IF,         /* if lhs then rhs [else third] */
    ND_WHILE,      /* while lhs do rhs */
    ND_BLOCK,      /* { items } */
    ND_ASSIGN,     /* lhs := rhs */
    ND_CALL_STMT,  /* lhs, an ND_CALL */
    ND_SEND,       /* lhs [: third] ! rhs */
    ND_MULTICAST,  /* [ items ] [: third] ! rhs, or all [: third] ! rhs (count 0) */
    ND_MESSAGE,    /* lhs [: third] ! rhs, rhs an ND_WORDS or an ND_SLICE */
    ND_RECEIVE,    /* lhs ? rhs, rhs a target or an ND_SLICE */
    ND_PRINT,      /* print lhs */
    ND_NETWORK,    /* network { items & ... } */
    ND_NETWORK_FOR,/* network third for lhs do rhs (third: the ND_NAME) */
    /* declarations */
    ND_VAL,        /* val name = lhs */
    ND_VAR,        /* var name */
    ND_ARRAY,      /* array name [ lhs ] */
    ND_PARAM_VAL,  /* val name (a formal) */
    ND_PARAM_ARRAY,/* array name (a formal) */
    /* the words of a message (spec/messages.md) */
    ND_WORDS,      /* [ items ]: each item one word */
    ND_SLICE,      /* name [ lhs for rhs ]: rhs words from element lhs on */
    ND_ERROR       /* what a syntax error leaves behind */
} NodeKind;

/* Facts about an expression that the checker works out once for the code
 * generator. */
typedef struct ExprInfo {
    uint8_t constant;   /* value is known at compile time (folded) */
    uint8_t net_const;  /* known once the network index is: constants and it */
    uint8_t need;       /* registers its code needs: 1, or 2 = an empty stack */
    uint8_t pure;       /* no call and no timestep: order is unobservable */
    uint8_t stable;     /* pure, and nothing in the expression can change it */
    uint8_t is_array;   /* a bare array name (only an argument may be one) */
    uint8_t error;      /* holds what a syntax error left (its value, 0, is no one's) */
} ExprInfo;

struct Node {
    NodeKind kind;
    SrcPos pos;           /* where it starts; ND_BINARY: its first operator */
    Node *lhs, *rhs, *third;
    Node **items;         /* ND_BINARY operands, ND_CALL arguments, ... */
    uint32_t count;
    BinOp op;             /* ND_BINARY's operator */
    const char *name;     /* names: not NUL-terminated */
    uint32_t len;
    uint32_t value;       /* ND_NUM, or a folded constant (info.constant) */
    Symbol *sym;          /* the symbol a name resolves to (checker) */
    ExprInfo info;        /* expressions only (checker) */
};

/* A procedure as the parser reads it and the checker annotates it. */
struct Proc {
    int is_func;
    const char *name;
    uint32_t len;
    SrcPos pos;           /* its name */
    Node **params;        /* ND_PARAM_VAL / ND_PARAM_ARRAY */
    uint32_t nparams;
    Node **locals;        /* ND_VAL / ND_VAR / ND_ARRAY */
    uint32_t nlocals;
    Node *body;
    uint32_t index;       /* position in the source, from 0 */
    uint32_t frame_fixed; /* 2 + parameters + local words (checker) */
    uint32_t frame;       /* whole frame F, temporaries included (gen) */
    void *code;           /* its generated code, once made (gen) */
    uint32_t addr;        /* its address in the image being laid out (asm) */
    uint32_t stamp;       /* the last image that needed it (gen) */
};

typedef struct Program {
    Node **globals;       /* ND_VAL / ND_VAR / ND_ARRAY */
    uint32_t nglobals;
    Proc **procs;         /* in source order */
    uint32_t nprocs;
    Proc *main;           /* checker */
    uint32_t global_words;/* G (checker) */
    uint32_t nimages;     /* processor records to make (checker) */
    SrcPos end;           /* end of the source, for errors about the whole */
} Program;

/* Parses the tokens into a Program (in the arena). Syntax errors are
 * reported and recovered from at statement and declaration boundaries. */
void parse_program(Token *tokens, size_t count, Diag *d, Arena *a, Program *prog);

/* ---- symbols ----------------------------------------------------------- */

typedef enum SymKind {
    SYM_CONST,         /* a val: value */
    SYM_GLOBAL_VAR,    /* offset from the global base */
    SYM_GLOBAL_ARRAY,  /* offset from the global base, size */
    SYM_LOCAL_VAR,     /* frame offset */
    SYM_LOCAL_ARRAY,   /* frame offset, size */
    SYM_VAL_PARAM,     /* frame offset */
    SYM_ARRAY_PARAM,   /* frame offset of the array's address */
    SYM_PROC,          /* proc */
    SYM_NET_INDEX      /* network i for n: the processor's number */
} SymKind;

struct Symbol {
    SymKind kind;
    const char *name;
    uint32_t len;
    SrcPos pos;           /* its declaration */
    uint32_t value;       /* SYM_CONST */
    uint32_t offset;      /* words from the global base or from sp */
    uint32_t size;        /* arrays: words */
    Proc *proc;           /* SYM_PROC */
};

struct CompileDefine;

/* Resolves names, checks every rule of the language, folds constants (the
 * global vals that defs name take their values) and lays out globals and
 * frames. Errors are reported; returns nothing. */
void check_program(Program *prog, Diag *d, Arena *a, uint32_t mem_words,
                   const struct CompileDefine *defs, size_t ndefs);

/* Where an expression starts, for messages about it as a whole (a binary
 * expression's own position is its first operator's). */
SrcPos check_expr_start(const Node *e);

/* ---- constant folding -------------------------------------------------- */

typedef enum FoldResult { FOLD_OK, FOLD_NOT_CONSTANT, FOLD_DIV_ZERO } FoldResult;

/* Applies a binary operator as the machine does (isa.md): 32-bit wrapping,
 * signed comparisons and division, shifts of 32 or more give 0. Returns
 * FOLD_DIV_ZERO for / or % by 0. */
FoldResult fold_binary(BinOp op, uint32_t a, uint32_t b, uint32_t *out);

/* Folds an expression whose leaves are numbers, constants and (when
 * `net_index` is not NULL) the network index. On FOLD_DIV_ZERO, *where is
 * the operator's position. */
FoldResult fold_expr(const Node *e, const uint32_t *net_index, uint32_t *out,
                     SrcPos *where);

/* ---- code generation ----------------------------------------------------- */

/* Makes the image of every processor: prog->nimages records. Returns 0, or
 * -1 after reporting an error (or when out of memory). */
int gen_program(Program *prog, Diag *d, uint32_t mem_words, HexImage *img);

#endif
