/* The compiler's library entry points (compiler.h): the phases run in
 * order over one arena, and the image they make written as a hex file or a
 * listing. An error in a phase does not stop the next one where its input
 * is still sound (the checker runs after syntax errors, to report the
 * independent ones too); code is only generated for an error-free program. */
#include "compiler/compiler.h"

#include <stdlib.h>
#include <string.h>

#include "common/plural.h"
#include "compiler/internal.h"
#include "cpu/disasm.h"

static int is_letter(char c)
{
    return (c >= 'a' && c <= 'z') || (c >= 'A' && c <= 'Z');
}

/* A -D shows at most this much of its argument in a message. */
#define ARG_FMT "%.100s%s"
#define ARG_ARG(arg) (arg), strlen(arg) > 100 ? "..." : ""

int compile_define_parse(const char *arg, CompileDefine *def, char *err, size_t size)
{
    const char *eq = strchr(arg, '=');
    size_t len = eq ? (size_t)(eq - arg) : strlen(arg);
    *def = (CompileDefine){ arg, len, 0 };
    if (!eq) {
        snprintf(err, size, "-D " ARG_FMT ": no value (write -D NAME=VALUE, as in -D n=1024)",
                 ARG_ARG(arg));
        return -1;
    }
    int name = len > 0 && is_letter(arg[0]);
    for (size_t i = 1; i < len; i++)
        name &= is_letter(arg[i]) || (arg[i] >= '0' && arg[i] <= '9') || arg[i] == '_';
    for (int k = TK_VAL; name && k <= TK_ALL; k++)
        if (strlen(lex_spelling((TokKind)k)) == len && memcmp(lex_spelling((TokKind)k), arg, len) == 0) {
            snprintf(err, size, "-D " ARG_FMT ": '%s' is a keyword, not a name", ARG_ARG(arg),
                     lex_spelling((TokKind)k));
            return -1;
        }
    if (!name) {
        snprintf(err, size, "-D " ARG_FMT ": '%.*s' is not a name (a letter, then letters, "
                 "digits and _)", ARG_ARG(arg), (int)(len > 100 ? 100 : len), arg);
        return -1;
    }
    /* VALUE: as the language writes a number, with a '-' allowed. */
    const char *v = eq + 1;
    int negative = *v == '-';
    v += negative;
    int base = *v == '#' ? 16 : 10;
    v += base == 16;
    uint64_t x = 0;
    int digits = *v != '\0';
    for (; *v && digits; v++) {
        const char *hex = "0123456789abcdef", *at = strchr(hex, *v >= 'A' && *v <= 'F' ? *v + 32 : *v);
        digits = at && *v && at - hex < base;
        if (digits && x <= 0xFFFFFFFFu)
            x = x * (unsigned)base + (uint64_t)(at - hex);
    }
    if (!digits) {
        snprintf(err, size, "-D " ARG_FMT ": '" ARG_FMT "' is not an integer (write one as "
                 "1024, -3 or #FF)", ARG_ARG(arg), ARG_ARG(eq + 1));
        return -1;
    }
    if (x > (negative ? 0x80000000u : 0xFFFFFFFFu)) {
        snprintf(err, size, "-D " ARG_FMT ": '" ARG_FMT "' is out of range (a word: from "
                 "-2147483648 to 4294967295)", ARG_ARG(arg), ARG_ARG(eq + 1));
        return -1;
    }
    def->value = negative ? 0u - (uint32_t)x : (uint32_t)x;
    return 0;
}

int compile_program(const char *filename, const char *text, size_t len,
                    uint32_t mem_words, HexImage *img, FILE *errors)
{
    return compile_program_with(filename, text, len, mem_words, NULL, 0, img, errors);
}

/* The phases in order, over the text after a UTF-8 byte-order mark that
 * begins it. The checker is skipped only after too many errors or when
 * memory ran out, and code is generated only for an error-free program;
 * the messages are written once, sorted, at the end. */
int compile_program_with(const char *filename, const char *text, size_t len,
                         uint32_t mem_words, const CompileDefine *defs, size_t ndefs,
                         HexImage *img, FILE *errors)
{
    static const char bom[] = "\xEF\xBB\xBF";   /* U+FEFF in UTF-8, as some editors begin a file */
    if (len >= 3 && memcmp(text, bom, 3) == 0) {
        text += 3;                  /* no part of the program: lines and columns as without */
        len -= 3;
    }
    Diag d = { .file = filename, .text = text, .len = len, .out = errors };
    Arena arena = { 0 };
    Program prog = { 0 };
    size_t ntokens = 0;
    memset(img, 0, sizeof *img);
    Token *tokens = lex_source(&d, &arena, &ntokens);
    if (tokens)
        parse_program(tokens, ntokens, &d, &arena, &prog);
    if (tokens && !arena.failed && !diag_too_many(&d))
        check_program(&prog, &d, &arena, mem_words, defs, ndefs);
    if (tokens && !arena.failed && d.errors == 0 &&
        gen_program(&prog, &d, mem_words, img) != 0 && d.errors == 0)
        arena.failed = 1;
    diag_flush(&d);
    if (!tokens || arena.failed) {
        if (errors)
            fprintf(errors, "%s: error: out of memory\n", filename);
        d.errors++;
    }
    arena_free(&arena);
    if (d.errors)
        hex_free(img);
    return d.errors;
}

/* The file is read whole, as the lexer wants it, and named in messages
 * as it was given. */
int compile_file(const char *path, uint32_t mem_words, HexImage *img, FILE *errors,
                 const char *tool)
{
    return compile_file_with(path, mem_words, NULL, 0, img, errors, tool);
}

int compile_file_with(const char *path, uint32_t mem_words, const CompileDefine *defs,
                      size_t ndefs, HexImage *img, FILE *errors, const char *tool)
{
    char err[512];
    size_t len = 0;
    memset(img, 0, sizeof *img);
    char *text = read_whole_file(path, &source_input, &len, err, sizeof err);
    if (!text) {
        if (errors)
            fprintf(errors, "%s: %s\n", tool, err);
        return 1;
    }
    int n = compile_program_with(path, text, len, mem_words, defs, ndefs, img, errors);
    free(text);
    return n;
}

/* Writes the hex digits of n bytes, in groups of two bytes, 32 a line;
 * `col` counts the bytes already on the current line. (Formatted by hand:
 * an image of a million processors is a hundred megabytes of digits.) */
static void write_bytes(FILE *out, const uint8_t *b, size_t n, size_t *col)
{
    static const char digits[] = "0123456789abcdef";
    char buf[4096];
    size_t used = 0;
    for (size_t i = 0; i < n; i++, ++*col) {
        if (used + 4 > sizeof buf) {
            fwrite(buf, 1, used, out);
            used = 0;
        }
        if (*col != 0 && *col % 2 == 0)
            buf[used++] = *col % 32 == 0 ? '\n' : ' ';
        buf[used++] = digits[b[i] >> 4];
        buf[used++] = digits[b[i] & 15];
    }
    fwrite(buf, 1, used, out);
}

int compile_write_hex(FILE *out, const HexImage *img, const char *source_name,
                      uint32_t mem_words, const CompileDefine *defs, size_t ndefs)
{
    fputs("# compiled from ", out);
    for (const char *s = source_name; *s; s++)      /* one line, whatever the name */
        fputc((unsigned char)*s < 0x20 ? '?' : *s, out);
    fprintf(out, " with --mem %u", (unsigned)mem_words);
    for (size_t i = 0; i < ndefs; i++)    /* (checked: a name, '=' and a number) */
        fprintf(out, " -D %s", defs[i].arg);
    fprintf(out, ": %u processor %s (format: docs/processor.md)\n", (unsigned)img->count,
            plural(img->count, "record", "records"));
    for (uint32_t p = 0; p < img->count; p++) {
        const HexRecord *r = &img->records[p];
        uint8_t header[8];                      /* length and entry, little-endian */
        for (int i = 0; i < 4; i++) {
            header[i] = (uint8_t)(r->length >> 8 * i);
            header[4 + i] = (uint8_t)(r->entry >> 8 * i);
        }
        fprintf(out, "# processor %u: %u %s, entry word %u\n", (unsigned)p,
                (unsigned)r->length, plural(r->length, "byte", "bytes"), (unsigned)r->entry);
        size_t col = 0;
        write_bytes(out, header, sizeof header, &col);
        write_bytes(out, r->image, r->length, &col);
        fputc('\n', out);
    }
    return ferror(out) ? -1 : 0;
}

/* The listing is the disassembler's, so that `xc -S` and `emu --disasm`
 * always agree on what an image holds. */
int compile_write_listing(FILE *out, const HexImage *img)
{
    disasm_image(out, img);
    return ferror(out) ? -1 : 0;
}
