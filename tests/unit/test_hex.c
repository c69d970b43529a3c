/* Unit tests of the hex loader: the Figure 8 file, the format's freedoms
 * (white space and comments anywhere), every malformed case of spec/isa.md
 * with its message, and the --mem a header names. */
#include <stdlib.h>

#include "compiler/compiler.h"
#include "cpu/hex.h"
#include "tests/check.h"

static char err[512];

static int parse(const char *text, HexImage *img)
{
    return hex_parse(text, strlen(text), "t.hex", 200000, img, err, sizeof err);
}

static void figure8_file(void)
{
    HexImage img;
    CHECK_EQ(hex_read_file("tests/data/figure8.hex", 200000, &img, err, sizeof err), 0);
    CHECK_EQ(img.count, 2);
    CHECK_EQ(img.records[0].length, 30);
    CHECK_EQ(img.records[0].entry, 1);
    CHECK_EQ(img.records[0].image[0], 0x40);    /* mem[0] = 200000 = 0x30d40 */
    CHECK_EQ(img.records[0].image[1], 0x0d);
    CHECK_EQ(img.records[0].image[2], 0x03);
    CHECK_EQ(img.records[1].image[19], 0xd2);   /* LDC 44 = d2 3c */
    CHECK_EQ(img.records[1].image[20], 0x3c);
    hex_free(&img);
    CHECK_EQ(hex_read_file("tests/data/appendix_c.hex", 200000, &img, err, sizeof err), 0);
    CHECK_EQ(img.count, 8);
    hex_free(&img);
}

static void spacing_and_comments(void)
{
    HexImage a, b;
    CHECK_EQ(parse("0100000000000000 30", &a), 0);
    CHECK_EQ(parse("# header\n01 00 00 00 # length\n0000 0000\t3\n0 # split pair\n", &b), 0);
    CHECK_EQ(a.nbytes, 9);
    CHECK_EQ(b.nbytes, 9);
    CHECK(memcmp(a.bytes, b.bytes, 9) == 0);
    CHECK_EQ(b.records[0].image[0], 0x30);
    hex_free(&a);
    hex_free(&b);
    /* Upper and lower case digits. */
    CHECK_EQ(parse("01000000 00000000 Fe", &a), 0);
    CHECK_EQ(a.records[0].image[0], 0xfe);
    hex_free(&a);
}

static void bad(const char *text, const char *message)
{
    HexImage img;
    CHECK_EQ(parse(text, &img), -1);
    CHECK_STR(err, message);
}

static void malformed(void)
{
    bad("", "t.hex: no processor record at all (the file holds no bytes)");
    bad("# only a comment\n  \n", "t.hex: no processor record at all (the file holds no bytes)");
    bad("0100000000000000 3",
        "t.hex:1:18: record 0 at byte offset 8: odd number of hex digits (this digit has no partner)");
    bad("01000000\n0000 00g0 30",
        "t.hex:2:8: record 0 at byte offset 7: invalid character 'g' (expected a hex digit, white space or '#')");
    bad("0100000000000000 30 01000000 0000 0000 3z",
        "t.hex:1:41: record 1 at byte offset 17: invalid character 'z' (expected a hex digit, white space or '#')");
    bad("0100000000000000 30\x01",
        "t.hex:1:20: record 1 at byte offset 9: invalid character byte 0x01 (expected a hex digit, white space or '#')");
    bad("0100000000000000 30 0100",
        "t.hex: record 1 at byte offset 9: record header runs past the end of the file (2 of its 8 bytes)");
    bad("0300000000000000 3030",
        "t.hex: record 0 at byte offset 0: record runs past the end of the file (length 3, 2 bytes left)");
    bad("0000000000000000",
        "t.hex: record 0 at byte offset 0: record of length 0 (an image needs at least one byte)");
    bad("0400000001000000 30303030",
        "t.hex: record 0 at byte offset 0: entry word 1 is outside the image (byte 4, length 4)");
    /* 4 * entry wraps to 0 in 32 bits: must still be rejected. */
    bad("0400000000000040 30303030",
        "t.hex: record 0 at byte offset 0: entry word 1073741824 is outside the image (byte 4294967296, length 4)");
    /* Larger than a 256-word memory. */
    HexImage img;
    size_t n = 16 + 2 * 1025;
    char *big = malloc(n + 1);
    memcpy(big, "0104000000000000", 16);
    memset(big + 16, '3', 2 * 1025);
    big[n] = 0;
    CHECK_EQ(hex_parse(big, n, "big.hex", 256, &img, err, sizeof err), -1);
    CHECK_STR(err, "big.hex: record 0 at byte offset 0: image of 1025 bytes is larger than memory (256 words, 1024 bytes)");
    CHECK_EQ(hex_parse(big, n, "big.hex", 257, &img, err, sizeof err), 0);
    hex_free(&img);
    free(big);
}

static void unreadable_file(void)
{
    HexImage img;
    CHECK_EQ(hex_read_file("tests/data/no-such-file.hex", 200000, &img, err, sizeof err), -1);
    CHECK_STR(err, "tests/data/no-such-file.hex: cannot open: No such file or directory");
    CHECK_EQ(hex_read_file("tests/data", 200000, &img, err, sizeof err), -1);
    CHECK_CONTAINS(err, "tests/data: cannot read");
}

/* The header (the comments before the first byte) may name the --mem the
 * image was built for; xc's header does. */
static void header_names_its_mem(void)
{
    HexImage img;
    CHECK_EQ(parse("# compiled from p.x with --mem 1000: 1 processor record\n"
                   "0100000000000000 30", &img), 0);
    CHECK_EQ(img.built_mem, 1000);
    hex_free(&img);
    CHECK_EQ(parse("# a hand-made image\n# for --mem 4096, say\n0100000000000000 30", &img), 0);
    CHECK_EQ(img.built_mem, 4096);
    hex_free(&img);
    /* Not in the header, not a number, none at all: unknown. */
    CHECK_EQ(parse("0100000000000000 # --mem 1000\n30", &img), 0);
    CHECK_EQ(img.built_mem, 0);
    hex_free(&img);
    CHECK_EQ(parse("0 # --mem 1000\n100000000000000 30", &img), 0);
    CHECK_EQ(img.built_mem, 0);
    hex_free(&img);
    CHECK_EQ(parse("# --mem M words\n# --mem 99999999999\n0100000000000000 30", &img), 0);
    CHECK_EQ(img.built_mem, 0);
    hex_free(&img);
    CHECK_EQ(parse("0100000000000000 30", &img), 0);
    CHECK_EQ(img.built_mem, 0);
    hex_free(&img);
    /* What xc writes. */
    HexImage compiled;
    char *buf = NULL;
    size_t size = 0;
    CHECK_EQ(compile_file("programs/appendix_c.x", 1000, &compiled, stdout, "test_hex"), 0);
    FILE *f = open_memstream(&buf, &size);
    CHECK_EQ(compile_write_hex(f, &compiled, "programs/appendix_c.x", 1000, NULL, 0), 0);
    fclose(f);
    CHECK_EQ(hex_parse(buf, size, "w.hex", 1000, &img, err, sizeof err), 0);
    CHECK_EQ(img.built_mem, 1000);
    hex_free(&img);
    hex_free(&compiled);
    free(buf);
}

int main(void)
{
    RUN(figure8_file);
    RUN(spacing_and_comments);
    RUN(malformed);
    RUN(unreadable_file);
    RUN(header_names_its_mem);
    return CHECK_EXIT();
}
