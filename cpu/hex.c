/* Parsing and checking hex images (hex.h). Two passes: the text is decoded
 * into bytes (catching bad characters and unpaired digits with their line and
 * column), then the bytes are cut into records (catching every structural
 * error of spec/isa.md). */
#include "cpu/hex.h"

#include "common/plural.h"
#include "cpu/lines.h"

#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>

static int hex_digit(int c)
{
    if (c >= '0' && c <= '9') return c - '0';
    if (c >= 'a' && c <= 'f') return c - 'a' + 10;
    if (c >= 'A' && c <= 'F') return c - 'A' + 10;
    return -1;
}

static uint32_t le32(const uint8_t *p)
{
    return (uint32_t)p[0] | (uint32_t)p[1] << 8 | (uint32_t)p[2] << 16 | (uint32_t)p[3] << 24;
}

/* The record that byte offset `at` falls in, found by walking the headers of
 * the `n` bytes decoded before it (used to place a character error). */
static uint32_t record_of(const uint8_t *bytes, size_t n, size_t at)
{
    uint32_t rec = 0;
    size_t pos = 0;
    while (pos + 8 <= n) {
        size_t end = pos + 8 + (size_t)le32(bytes + pos);
        if (at < end)
            return rec;
        pos = end;
        rec++;
    }
    return rec;
}

/* Where a record starts, for messages. */
typedef struct Where { uint32_t record; size_t offset; } Where;

static int fail(char *err, size_t errsize, const char *file, Where w, const char *msg)
{
    snprintf(err, errsize, "%s: record %u at byte offset %zu: %s", file, w.record, w.offset, msg);
    return -1;
}

/* The number after the first "--mem " in a comment of len bytes, or 0. */
static uint32_t comment_mem(const char *s, size_t len)
{
    static const char key[] = "--mem ";
    size_t k = sizeof key - 1;
    for (size_t i = 0; i + k < len; i++) {
        if (memcmp(s + i, key, k) != 0 || s[i + k] < '0' || s[i + k] > '9')
            continue;
        uint64_t v = 0;
        for (size_t j = i + k; j < len && s[j] >= '0' && s[j] <= '9' && v <= UINT32_MAX; j++)
            v = v * 10 + (uint64_t)(s[j] - '0');
        return v <= UINT32_MAX ? (uint32_t)v : 0;
    }
    return 0;
}

/* Pass 1: text to bytes. */
static int decode(const char *text, size_t len, const char *file, HexImage *out,
                  char *err, size_t errsize)
{
    uint8_t *bytes = malloc(len / 2 + 1);
    size_t n = 0;
    unsigned line = 1, col = 1, half_line = 0, half_col = 0;
    int half = -1;                /* the first digit of a pair, or -1 */
    if (!bytes) {
        snprintf(err, errsize, "%s: out of memory", file);
        return -1;
    }
    for (size_t i = 0; i < len; i++, col++) {
        int c = (unsigned char)text[i];
        int d = hex_digit(c);
        if (c == '\n') {
            line++;
            col = 0;
        } else if (c == '#') {
            size_t start = i;
            while (i + 1 < len && text[i + 1] != '\n' && text[i + 1] != '\0')
                i++;                            /* (a NUL is no text, even here) */
            col += (unsigned)(i - start);
            if (n == 0 && half < 0 && out->built_mem == 0)     /* the header */
                out->built_mem = comment_mem(text + start, i + 1 - start);
        } else if (c == ' ' || c == '\t' || c == '\r' || c == '\v' || c == '\f') {
            continue;
        } else if (d >= 0 && half < 0) {
            half = d;
            half_line = line;
            half_col = col;
        } else if (d >= 0) {
            bytes[n++] = (uint8_t)(half << 4 | d);
            half = -1;
        } else {
            char shown[16];
            if (c > ' ' && c < 127)
                snprintf(shown, sizeof shown, "'%c'", c);
            else
                snprintf(shown, sizeof shown, "byte 0x%02x", c);
            snprintf(err, errsize, "%s:%u:%u: record %u at byte offset %zu: invalid "
                     "character %s (expected a hex digit, white space or '#')",
                     file, line, col, record_of(bytes, n, n), n, shown);
            free(bytes);
            return -1;
        }
    }
    if (half >= 0) {
        snprintf(err, errsize, "%s:%u:%u: record %u at byte offset %zu: odd number of "
                 "hex digits (this digit has no partner)",
                 file, half_line, half_col, record_of(bytes, n, n), n);
        free(bytes);
        return -1;
    }
    out->bytes = bytes;
    out->nbytes = n;
    return 0;
}

/* Pass 2: bytes to records. */
static int split(const char *file, uint32_t mem_words, HexImage *img,
                 char *err, size_t errsize)
{
    char msg[160];
    size_t pos = 0, cap = 0;
    uint64_t mem_bytes = 4ull * mem_words;
    if (img->nbytes == 0) {
        snprintf(err, errsize, "%s: no processor record at all (the file holds no bytes)", file);
        return -1;
    }
    while (pos < img->nbytes) {
        Where w = { img->count, pos };
        size_t left = img->nbytes - pos;
        if (img->count >= HEX_MAX_RECORDS)
            return fail(err, errsize, file, w, "more than 2^24 records (processors)");
        if (left < 8) {
            snprintf(msg, sizeof msg, "record header runs past the end of the file "
                     "(%zu of its 8 bytes)", left);
            return fail(err, errsize, file, w, msg);
        }
        uint32_t length = le32(img->bytes + pos), entry = le32(img->bytes + pos + 4);
        if (length == 0)
            return fail(err, errsize, file, w, "record of length 0 (an image needs at least one byte)");
        if (length > left - 8) {
            snprintf(msg, sizeof msg, "record runs past the end of the file "
                     "(length %u, %zu %s left)", length, left - 8,
                     plural(left - 8, "byte", "bytes"));
            return fail(err, errsize, file, w, msg);
        }
        if (length > mem_bytes) {
            snprintf(msg, sizeof msg, "image of %u bytes is larger than memory "
                     "(%u words, %llu bytes)", length, mem_words,
                     (unsigned long long)mem_bytes);
            return fail(err, errsize, file, w, msg);
        }
        if (4ull * entry >= length) {
            snprintf(msg, sizeof msg, "entry word %u is outside the image (byte %llu, "
                     "length %u)", entry, 4ull * entry, length);
            return fail(err, errsize, file, w, msg);
        }
        if (img->count == cap) {
            cap = cap ? 2 * cap : 16;
            HexRecord *r = realloc(img->records, cap * sizeof *r);
            if (!r) {
                snprintf(err, errsize, "%s: out of memory", file);
                return -1;
            }
            img->records = r;
        }
        img->records[img->count++] = (HexRecord){ length, entry, img->bytes + pos + 8 };
        pos += 8 + (size_t)length;
    }
    return 0;
}

int hex_parse(const char *text, size_t len, const char *filename,
              uint32_t mem_words, HexImage *out, char *err, size_t errsize)
{
    memset(out, 0, sizeof *out);
    if (decode(text, len, filename, out, err, errsize) != 0)
        return -1;
    if (split(filename, mem_words, out, err, errsize) != 0) {
        hex_free(out);
        return -1;
    }
    return 0;
}

const InputKind source_input = { (size_t)256 << 20, "a program" };
const InputKind hex_input = { (size_t)8 << 30, "a hex image" };

char *read_whole_file(const char *path, const InputKind *kind, size_t *len, char *err,
                      size_t errsize)
{
    size_t limit = kind->most;
    FILE *f = fopen(path, "rb");
    size_t cap = 1 << 16, n = 0;
    int binary = 0;
    char *buf;
    if (!f) {
        snprintf(err, errsize, "%s: cannot open: %s", path, strerror(errno));
        return NULL;
    }
    struct stat st;
    if (fstat(fileno(f), &st) == 0 && S_ISREG(st.st_mode) && (uint64_t)st.st_size > limit)
        n = limit + 1;                          /* refused before reading */
    buf = malloc(cap);
    /* A NUL byte ends the reading: no text holds one, and the reader's
     * parser names it at its line and column; /dev/zero or a binary file
     * is not read to its end. */
    while (buf && !binary && n <= limit) {
        size_t got = fread(buf + n, 1, cap - n - 1, f);
        binary = memchr(buf + n, '\0', got) != NULL;
        n += got;
        if (n < cap - 1)
            break;
        char *bigger = realloc(buf, cap * 2);
        if (!bigger) {
            free(buf);
            buf = NULL;
            break;
        }
        buf = bigger;
        cap *= 2;
    }
    if (!buf || ferror(f) || n > limit) {
        if (buf && n > limit)
            snprintf(err, errsize, "%s: larger than %zu MiB, the most that is read of %s",
                     path, limit >> 20, kind->what);
        else
            snprintf(err, errsize, "%s: cannot read: %s", path,
                     buf ? strerror(errno) : "out of memory");
        free(buf);
        fclose(f);
        return NULL;
    }
    fclose(f);
    buf[n] = '\0';
    *len = n;
    return buf;
}

int hex_read_file(const char *path, uint32_t mem_words, HexImage *out, char *err, size_t errsize)
{
    size_t len;
    char *text = read_whole_file(path, &hex_input, &len, err, errsize);
    if (!text)
        return -1;
    int rc = hex_parse(text, len, path, mem_words, out, err, errsize);
    free(text);
    return rc;
}

void hex_free(HexImage *img)
{
    free(img->bytes);
    free(img->records);
    lines_free(img->lines);
    memset(img, 0, sizeof *img);
}
