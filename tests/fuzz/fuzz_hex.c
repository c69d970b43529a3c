/* Fuzzer of the hex loader and the disassembler: random text, random
 * well-formed-looking records and mutations of the real Figure 8 and
 * Appendix C files must never crash, hang or break the loader's promises
 * (every accepted record lies inside the decoded bytes, with a non-zero
 * length no larger than memory and an entry inside its image); one input
 * in 16 is also written as a file (common/outfile.h) and read back, which
 * must give the same verdict.
 *
 *   fuzz_hex --iterations N   N inputs from fixed seeds (make test, make check)
 *   fuzz_hex --forever        until interrupted, from a time-based seed
 *                             (make fuzz); prints the seed of a failing input
 * A failing input is written to fuzz-hex-crash.hex for a regression test. */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>
#include <unistd.h>

#include "common/outfile.h"
#include "cpu/disasm.h"
#include "cpu/hex.h"
#include "tests/fuzz/fuzz.h"


static char *seeds[2];
static size_t seed_len[2];

/* One input of up to `cap` bytes into buf; returns its length. */
static size_t make_input(char *buf, size_t cap)
{
    static const char alphabet[] = "0123456789abcdefABCDEF \n\t#xg\r";
    size_t n = 0;
    switch (fuzz_below(4)) {
    case 0:                             /* random characters */
        n = fuzz_below(cap);
        for (size_t i = 0; i < n; i++)
            buf[i] = fuzz_below(8) ? alphabet[fuzz_below(sizeof alphabet - 1)] : (char)fuzz_below(256);
        break;
    case 1: {                           /* random records, plausible headers */
        int records = (int)fuzz_below(5);
        for (int r = 0; r < records && n + 64 < cap; r++) {
            uint32_t len = fuzz_below(4) ? (uint32_t)fuzz_below(24) : (uint32_t)fuzz_next();
            uint32_t entry = fuzz_below(4) ? (uint32_t)fuzz_below(8) : (uint32_t)fuzz_next();
            n += (size_t)snprintf(buf + n, cap - n, "%02x%02x%02x%02x %02x%02x%02x%02x\n",
                                  len & 255, len >> 8 & 255, len >> 16 & 255, len >> 24,
                                  entry & 255, entry >> 8 & 255, entry >> 16 & 255, entry >> 24);
            for (uint32_t i = 0; i < (len < 40 ? len : 40) && n + 4 < cap; i++)
                n += (size_t)snprintf(buf + n, cap - n, "%02x", (unsigned)fuzz_below(256));
        }
        break;
    }
    default: {                          /* a mutated real file */
        int s = (int)fuzz_below(2);
        n = seed_len[s] < cap ? seed_len[s] : cap;
        memcpy(buf, seeds[s], n);
        int edits = 1 + (int)fuzz_below(6);
        for (int e = 0; e < edits && n > 0; e++) {
            size_t at = fuzz_below(n);
            switch (fuzz_below(4)) {
            case 0: buf[at] = alphabet[fuzz_below(sizeof alphabet - 1)]; break;
            case 1: n = at; break;                                  /* truncate */
            case 2: memmove(buf + at, buf + at + 1, n - at - 1); n--; break;
            default: buf[at] = (char)fuzz_below(256); break;
            }
        }
        break;
    }
    }
    return n;
}

static int check_one(const char *text, size_t n, uint32_t mem, FILE *sink)
{
    HexImage img;
    char err[512];
    if (hex_parse(text, n, "fuzz.hex", mem, &img, err, sizeof err) != 0)
        return strncmp(err, "fuzz.hex", 8) == 0;   /* a message naming the file */
    int ok = img.count > 0;
    for (uint32_t r = 0; r < img.count; r++) {
        const HexRecord *rec = &img.records[r];
        ok &= rec->length > 0 && rec->length <= 4ull * mem;
        ok &= 4ull * rec->entry < rec->length;
        ok &= rec->image >= img.bytes && rec->image + rec->length <= img.bytes + img.nbytes;
    }
    disasm_image(sink, &img);
    hex_free(&img);
    return ok;
}

/* The input written as a file (whole, as every output is written) and
 * read back through the file reader, which stops at a NUL byte: the
 * verdict must be the parser's on the text, with the same bytes. */
static int check_file(const char *text, size_t n, uint32_t mem, const char *path)
{
    OutFile f;
    char err[512], file_err[512];
    if (outfile_open(&f, path, err, sizeof err) != 0 ||
        fwrite(text, 1, n, f.f) != n || outfile_commit(&f, err, sizeof err) != 0) {
        outfile_abort(&f);
        printf("  cannot write %s: %s\n", path, err);
        return 0;
    }
    HexImage a, b;
    int parsed = hex_parse(text, n, path, mem, &a, err, sizeof err) == 0;
    int read = hex_read_file(path, mem, &b, file_err, sizeof file_err) == 0;
    int same = parsed == read;
    if (parsed && read)
        same = a.count == b.count && a.nbytes == b.nbytes &&
               memcmp(a.bytes, b.bytes, a.nbytes) == 0;
    else if (!parsed && !read)
        same = strcmp(err, file_err) == 0;
    if (parsed)
        hex_free(&a);
    if (read)
        hex_free(&b);
    return same;
}

int main(int argc, char **argv)
{
    long iterations = 2000;
    int forever = 0;
    uint64_t seed = 12345;
    if (argc >= 2 && strcmp(argv[1], "--forever") == 0) {
        forever = 1;
        seed = (uint64_t)time(NULL);
    } else if (argc >= 3 && strcmp(argv[1], "--iterations") == 0) {
        iterations = atol(argv[2]);
    }
    char err[256];
    seeds[0] = read_whole_file("tests/data/figure8.hex", &source_input, &seed_len[0], err, sizeof err);
    seeds[1] = read_whole_file("tests/data/appendix_c.hex", &source_input, &seed_len[1], err, sizeof err);
    if (!seeds[0] || !seeds[1]) {
        printf("FAIL fuzz_hex: %s\n", err);
        return 1;
    }
    FILE *sink = fopen("/dev/null", "w");
    char path[] = "/tmp/fuzz-hex-XXXXXX";     /* (a file of its own for check_file) */
    int fd = mkstemp(path);
    if (fd < 0) {
        printf("FAIL fuzz_hex: cannot make a temporary file\n");
        return 1;
    }
    close(fd);
    enum { CAP = 4096 };
    char *buf = malloc(CAP);
    for (long i = 0; forever || i < iterations; i++) {
        fuzz_rng = seed + (uint64_t)i;
        size_t n = make_input(buf, CAP);
        uint32_t mem = fuzz_below(3) ? 200000 : (uint32_t)(1 + fuzz_below(64));
        if (!check_one(buf, n, mem, sink) || (i % 16 == 0 && !check_file(buf, n, mem, path))) {
            FILE *f = fopen("fuzz-hex-crash.hex", "wb");
            if (f) {
                fwrite(buf, 1, n, f);
                fclose(f);
            }
            unlink(path);
            printf("FAIL fuzz_hex: input %ld (seed %llu, mem %u) broke a promise; "
                   "written to fuzz-hex-crash.hex\n", i, (unsigned long long)(seed + i), mem);
            return 1;
        }
        if (forever && i % 100000 == 0)
            fprintf(stderr, "fuzz_hex: %ld inputs\n", i);
    }
    unlink(path);
    printf("PASS fuzz_hex (%ld inputs from seed %llu)\n", iterations, (unsigned long long)seed);
    fclose(sink);
    free(buf);
    free(seeds[0]);
    free(seeds[1]);
    return 0;
}
