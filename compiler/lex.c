/* The lexer: source text to tokens (spec/language.md "Lexical").
 *
 * Names are a letter then letters, digits and '_'; keywords are the lower-
 * case names of TOKEN_KEYWORDS. Numbers are decimal or '#' and hex digits and
 * must be below 2^32; they mean that 32-bit word. A character in single
 * quotes, with the escapes \n \t \\ \' \0, is a number: its code. '|' starts
 * a comment to the end of the line. Every token carries its line and byte
 * column (both from 1); a bad character or number is reported and skipped,
 * so the parser always sees a well-formed token sequence ending in TK_EOF.
 * A letter outside ASCII is one message, however many UTF-8 bytes it takes,
 * in a name as in quotes. */
#include "compiler/internal.h"
#include "common/utf8.h"

#include <stdlib.h>
#include <string.h>

typedef struct Lexer {
    const char *text;
    size_t len, at;       /* the source and the next byte */
    uint32_t line;        /* line of text[at] */
    size_t line_start;    /* offset of its first byte */
    Diag *d;
    Token *toks;          /* malloc'ed while lexing */
    size_t count, cap;
    int failed;           /* out of memory */
    int skipped;          /* an invalid character was just skipped */
} Lexer;

static const char *const spellings[TK_COUNT] = {
    [TK_EOF] = "end of input", [TK_NAME] = "name", [TK_NUM] = "number",
#define TOKEN_SPELLING(name, text) [TK_##name] = text,
    TOKEN_KEYWORDS(TOKEN_SPELLING)
    TOKEN_PUNCTUATORS(TOKEN_SPELLING)
#undef TOKEN_SPELLING
};

const char *lex_spelling(TokKind kind)
{
    return kind < TK_COUNT ? spellings[kind] : "?";
}

void lex_describe(const Token *t, char *buf, size_t size)
{
    if (t->kind == TK_EOF)
        snprintf(buf, size, "end of input");
    else if (t->len > 24)
        snprintf(buf, size, "'%.20s...'", t->text);
    else
        snprintf(buf, size, "'%.*s'", (int)t->len, t->text);
}

static SrcPos here(const Lexer *lx)
{
    return (SrcPos){ lx->line, (uint32_t)(lx->at - lx->line_start + 1), lx->at };
}

static int peek(const Lexer *lx, size_t ahead)
{
    return lx->at + ahead < lx->len ? (unsigned char)lx->text[lx->at + ahead] : -1;
}

static int is_alpha(int c) { return (c >= 'a' && c <= 'z') || (c >= 'A' && c <= 'Z'); }
static int is_digit(int c) { return c >= '0' && c <= '9'; }
static int is_alnum(int c) { return is_alpha(c) || is_digit(c) || c == '_'; }

static int hex_value(int c)
{
    if (is_digit(c))
        return c - '0';
    if (c >= 'a' && c <= 'f')
        return c - 'a' + 10;
    if (c >= 'A' && c <= 'F')
        return c - 'A' + 10;
    return -1;
}

/* Appends a token that starts at `start` (a position) and ends at lx->at. */
static void add(Lexer *lx, TokKind kind, SrcPos start, uint32_t value)
{
    if (lx->count == lx->cap) {
        size_t cap = lx->cap ? 2 * lx->cap : 256;
        Token *t = realloc(lx->toks, cap * sizeof *t);
        if (!t) {
            lx->failed = 1;
            return;
        }
        lx->toks = t;
        lx->cap = cap;
    }
    lx->toks[lx->count++] = (Token){ kind, lx->d->file, value, lx->text + start.offset,
                                     (uint32_t)(lx->at - start.offset), start, here(lx),
                                     lx->skipped };
    lx->skipped = 0;
}

/* Reports a bad token from `start` to lx->at: "<what> '<text>'<why>". */
static void bad(Lexer *lx, SrcPos start, const char *what, const char *why)
{
    int n = (int)(lx->at - start.offset);
    int shown = n > 24 ? 20 : n;
    diag_error(lx->d, start, "%s '%.*s%s'%s", what, shown, lx->text + start.offset,
               n > shown ? "..." : "", why);
}

/* number := digit { digit } | "#" hexdigit { hexdigit } */
static void lex_number(Lexer *lx)
{
    SrcPos start = here(lx);
    int hex = peek(lx, 0) == '#';
    uint64_t value = 0;
    size_t digits = 0;
    if (hex)
        lx->at++;
    for (int c; (c = peek(lx, 0)) >= 0 && (hex ? hex_value(c) >= 0 : is_digit(c)); lx->at++) {
        value = value * (hex ? 16 : 10) + (uint64_t)(hex ? hex_value(c) : c - '0');
        if (value > UINT32_MAX)
            value = (uint64_t)UINT32_MAX + 1;       /* stays too large */
        digits++;
    }
    if (is_alnum(peek(lx, 0))) {
        while (is_alnum(peek(lx, 0)))
            lx->at++;
        const char *t = lx->text + start.offset;
        bad(lx, start, hex ? "invalid hex number" : "invalid number",
            !hex && t[0] == '0' && (t[1] == 'x' || t[1] == 'X')
                ? " (a hex number is written with '#': #FF)" : "");
        value = 0;
    } else if (hex && digits == 0) {
        diag_error(lx->d, start, "expected hex digits after '#'");
    } else if (value > UINT32_MAX) {
        bad(lx, start, "number", " is too large (a number must be below 2^32)");
        value = 0;
    }
    add(lx, TK_NUM, start, (uint32_t)value);
}

/* The code of one character or escape inside quotes at lx->at, or -1 (and
 * a message) for a bad escape. */
static int char_code(Lexer *lx)
{
    int c = peek(lx, 0);
    lx->at++;
    if (c != '\\')
        return c;
    int e = peek(lx, 0);
    if (e < 0 || e == '\n')
        return -1;                  /* reported as unterminated */
    lx->at++;
    switch (e) {
    case 'n':  return '\n';
    case 't':  return '\t';
    case '\\': return '\\';
    case '\'': return '\'';
    case '0':  return 0;
    default:
        diag_error(lx->d, (SrcPos){ lx->line, (uint32_t)(lx->at - 2 - lx->line_start + 1),
                                    lx->at - 2 },
                   "unknown escape '\\%c' in a character (use \\n \\t \\\\ \\' or \\0)",
                   e >= 0x20 && e < 0x7f ? e : '?');
        return 0;
    }
}

/* The length of the UTF-8 character at lx->at and its code point, or 1
 * when the byte there does not start one (a byte on its own is reported
 * as a byte). */
static size_t char_at(const Lexer *lx, uint32_t *code)
{
    size_t n = utf8_char((const unsigned char *)lx->text + lx->at, lx->len - lx->at, code);
    return n ? n : 1;
}

/* Where the first `quote` at or after byte `from` is on its line, or where
 * the line (or the text) ends if there is none. */
static size_t quote_on_line(const Lexer *lx, size_t from, char quote)
{
    while (from < lx->len && lx->text[from] != '\n' && lx->text[from] != quote)
        from++;
    return from;
}

/* character := "'" ( char | escape ) "'" */
static void lex_char(Lexer *lx)
{
    SrcPos start = here(lx);
    lx->at++;
    int c = peek(lx, 0);
    if (c == '\'') {
        lx->at++;
        diag_error(lx->d, start, "empty character ''");
        add(lx, TK_NUM, start, 0);
        return;
    }
    size_t close = quote_on_line(lx, lx->at, '\'');
    if (c >= 0x80 && close < lx->len && lx->text[close] == '\'') {
        uint32_t point;                 /* a letter outside ASCII, 'é': one message */
        size_t n = char_at(lx, &point);
        if (n > 1)
            diag_error(lx->d, start, "'%.*s' (U+%04X) is not ASCII: a character in quotes is "
                       "one ASCII character or escape, like 'a' or '\\n'", (int)n,
                       lx->text + lx->at, (unsigned)point);
        else
            diag_error(lx->d, start, "byte 0x%02x is not ASCII: a character in quotes is one "
                       "ASCII character or escape, like 'a' or '\\n'", (unsigned)c);
        lx->at = close + 1;
        add(lx, TK_NUM, start, 0);
        return;
    }
    int code = c < 0 || c == '\n' || c == '\r' ? -1 : char_code(lx);
    if (code < 0 || peek(lx, 0) != '\'') {
        lx->at = quote_on_line(lx, lx->at, '\'');
        if (code >= 0 && peek(lx, 0) == '\'') {
            lx->at++;
            diag_error(lx->d, start, "more than one character in quotes (a character is "
                       "one letter or escape, like 'a' or '\\n')");
        } else {
            diag_error(lx->d, start, "missing closing ' of a character");
        }
        add(lx, TK_NUM, start, 0);
        return;
    }
    lx->at++;
    add(lx, TK_NUM, start, (uint32_t)code);
}

/* name := letter { letter | digit | "_" }, or a keyword */
static void lex_name(Lexer *lx)
{
    SrcPos start = here(lx);
    while (is_alnum(peek(lx, 0)))
        lx->at++;
    size_t n = lx->at - start.offset;
    const char *s = lx->text + start.offset;
    TokKind kind = TK_NAME;
#define TOKEN_KEYWORD_MATCH(name, text) \
    if (kind == TK_NAME && n == sizeof text - 1 && memcmp(s, text, n) == 0) \
        kind = TK_##name;
    TOKEN_KEYWORDS(TOKEN_KEYWORD_MATCH)
#undef TOKEN_KEYWORD_MATCH
    add(lx, kind, start, 0);
}

/* Operators and punctuation; longest match first. */
static void lex_punct(Lexer *lx)
{
    SrcPos start = here(lx);
    for (int len = 2; len >= 1; len--) {
        for (int k = TK_ASSIGN; k < TK_COUNT; k++) {
            const char *s = spellings[k];
            if (strlen(s) == (size_t)len && lx->at + (size_t)len <= lx->len &&
                memcmp(lx->text + lx->at, s, (size_t)len) == 0) {
                lx->at += (size_t)len;
                add(lx, (TokKind)k, start, 0);
                return;
            }
        }
    }
    int c = peek(lx, 0);
    int before = lx->at > 0 ? (unsigned char)lx->text[lx->at - 1] : -1;
    uint32_t code;
    size_t n = char_at(lx, &code);
    lx->at += n;
    lx->skipped = 1;
    if (n > 1) {
        int in_name = is_alnum(before) || before >= 0x80 || is_alnum(peek(lx, 0)) ||
                      peek(lx, 0) >= 0x80;
        diag_error(lx->d, start, "invalid character '%.*s' (U+%04X)%s", (int)n,
                   lx->text + start.offset, (unsigned)code,
                   in_name ? ": a name has only ASCII letters, digits and '_'" : "");
    } else if (c == '^') {
        diag_error(lx->d, start, "invalid character '^' (exclusive or is 'xor')");
    } else if (c == '"') {
        diag_error(lx->d, start, "invalid character '\"' (X has no strings: 'print e' "
                   "prints a number, and 'a' is the code of a character)");
        size_t close = quote_on_line(lx, lx->at, '"');   /* the string is one error */
        if (close < lx->len && lx->text[close] == '"')
            lx->at = close + 1;
    } else if (c == '.' && peek(lx, 0) == '.') {      /* Pascal's range: one error */
        lx->at++;
        diag_error(lx->d, start, "invalid characters '..' (X has no ranges: the words a[i] "
                   "to a[j] of an array are a[i for j - i + 1], a[0..3] is a[0 for 4])");
    } else if (c > 0x20 && c < 0x7f) {
        diag_error(lx->d, start, "invalid character '%c'", c);
    } else {
        diag_error(lx->d, start, "invalid character (byte 0x%02x)", (unsigned)c);
    }
}

/* Skips white space and comments, counting lines. */
static void skip_space(Lexer *lx)
{
    for (int c; (c = peek(lx, 0)) >= 0;) {
        if (c == '\n') {
            lx->at++;
            lx->line++;
            lx->line_start = lx->at;
        } else if (c == ' ' || c == '\t' || c == '\r' || c == '\f' || c == '\v') {
            lx->at++;
        } else if (c == '|') {
            while (peek(lx, 0) > 0 && peek(lx, 0) != '\n')
                lx->at++;                       /* (a NUL is no text, even here) */
        } else {
            return;
        }
    }
}

Token *lex_source(Diag *d, Arena *a, size_t *count)
{
    Lexer lx = { .text = d->text, .len = d->len, .line = 1, .d = d };
    for (;;) {
        skip_space(&lx);
        int c = peek(&lx, 0);
        if (c < 0 || lx.failed || diag_too_many(d))
            break;
        if (is_digit(c) || c == '#')
            lex_number(&lx);
        else if (c == '\'')
            lex_char(&lx);
        else if (is_alpha(c))
            lex_name(&lx);
        else
            lex_punct(&lx);
    }
    /* The end of input sits just after the last token, where a message
     * about something missing at the end is most useful. */
    SrcPos end = lx.count ? lx.toks[lx.count - 1].end : (SrcPos){ 1, 1, 0 };
    lx.at = end.offset;
    add(&lx, TK_EOF, end, 0);
    if (!lx.failed)
        lx.toks[lx.count - 1].end = end;
    Token *out = lx.failed ? NULL : arena_alloc(a, lx.count * sizeof *out);
    if (out)
        memcpy(out, lx.toks, lx.count * sizeof *out);
    *count = lx.count;
    free(lx.toks);
    return out;
}
