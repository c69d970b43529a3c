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

/* The phases in order. The checker is skipped only after too many errors or
 * when memory ran out, and code is generated only for an error-free
 * program; the messages are written once, sorted, at the end. */
int compile_program(const char *filename, const char *text, size_t len,
                    uint32_t mem_words, HexImage *img, FILE *errors)
{
    Diag d = { .file = filename, .text = text, .len = len, .out = errors };
    Arena arena = { 0 };
    Program prog = { 0 };
    size_t ntokens = 0;
    memset(img, 0, sizeof *img);
    Token *tokens = lex_source(&d, &arena, &ntokens);
    if (tokens)
        parse_program(tokens, ntokens, &d, &arena, &prog);
    if (tokens && !arena.failed && !diag_too_many(&d))
        check_program(&prog, &d, &arena, mem_words);
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
    char err[512];
    size_t len = 0;
    memset(img, 0, sizeof *img);
    char *text = read_whole_file(path, &source_input, &len, err, sizeof err);
    if (!text) {
        if (errors)
            fprintf(errors, "%s: %s\n", tool, err);
        return 1;
    }
    int n = compile_program(path, text, len, mem_words, img, errors);
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
                      uint32_t mem_words)
{
    fputs("# compiled from ", out);
    for (const char *s = source_name; *s; s++)      /* one line, whatever the name */
        fputc((unsigned char)*s < 0x20 ? '?' : *s, out);
    fprintf(out, " with --mem %u: %u processor %s (format: docs/processor.md)\n",
            (unsigned)mem_words, (unsigned)img->count, plural(img->count, "record", "records"));
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
