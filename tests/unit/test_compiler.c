/* Unit tests of the compiler library (compiler/compiler.h): the thesis's
 * Figure 8 byte for byte, the code of each construct (golden instruction
 * sequences), the layout of per-processor images, the hex writer, and the
 * exact text of error messages. */
#include <stdlib.h>
#include <string.h>

#include "compiler/compiler.h"
#include "compiler/internal.h"
#include "cpu/isa.h"
#include "tests/check.h"

/* ---- helpers ---- */

static char messages[16384];     /* the errors of the last compile() */

/* Compiles src (named t.x) into *img; returns the number of errors, with
 * their text in `messages`. */
static int compile_mem(const char *src, uint32_t mem, HexImage *img)
{
    char *buf = NULL;
    size_t size = 0;
    FILE *f = open_memstream(&buf, &size);
    int n = compile_program("t.x", src, strlen(src), mem, img, f);
    fclose(f);
    snprintf(messages, sizeof messages, "%s", buf ? buf : "");
    free(buf);
    return n;
}

static int compile(const char *src, HexImage *img)
{
    return compile_mem(src, COMPILE_MEM_DEFAULT, img);
}

/* The instructions of record `proc` from byte `from` on, as "LDC 22; LDC 2;
 * OUT" (pc-relative operands as offsets). */
static const char *code_from(const HexImage *img, uint32_t proc, uint32_t from)
{
    static char text[8192];
    size_t used = 0;
    text[0] = '\0';
    if (proc >= img->count)
        return "(no such record)";
    const HexRecord *r = &img->records[proc];
    for (size_t pos = from; pos < r->length && used + 64 < sizeof text;) {
        IsaInsn in;
        pos += isa_decode(r->image, r->length, pos, &in);
        const char *name = isa_primary[in.op].name;
        if (in.op == OP_OPR && isa_opr_defined(in.operand))
            used += (size_t)snprintf(text + used, sizeof text - used, "%s%s",
                                     used ? "; " : "", isa_opr[in.operand].name);
        else
            used += (size_t)snprintf(text + used, sizeof text - used, "%s%s %d",
                                     used ? "; " : "", name, (int32_t)in.operand);
    }
    return text;
}

enum { MAIN = 0x0f };  /* main starts right after the 11 bytes of start-up code */

/* The code of main (and what follows) of processor 0 for a program. */
static const char *code_of(const char *src)
{
    HexImage img;
    if (compile(src, &img) != 0)
        return messages;
    const char *s = code_from(&img, 0, MAIN);
    hex_free(&img);
    return s;
}

/* main's body alone: the code between the prologue and the epilogue, for a
 * main whose frame is `frame` words. */
static const char *body_of(const char *src, int frame)
{
    static char body[8192];
    char head[64], tail[64];
    const char *s = code_of(src);
    snprintf(head, sizeof head, "LDWSP 1; ADJ %d; STWSP 1; ", -frame);
    snprintf(tail, sizeof tail, "; ADJ %d; RET", frame);
    size_t n = strlen(s), h = strlen(head), t = strlen(tail);
    if (n < h + t || strncmp(s, head, h) != 0 || strcmp(s + n - t, tail) != 0)
        return s;
    snprintf(body, sizeof body, "%.*s", (int)(n - h - t), s + h);
    return body;
}

/* Every instruction of every record uses the fewest bytes for its operand. */
static int all_minimal(const HexImage *img)
{
    for (uint32_t p = 0; p < img->count; p++) {
        const HexRecord *r = &img->records[p];
        for (size_t pos = 4 * (size_t)r->entry; pos < r->length;) {
            IsaInsn in;
            pos += isa_decode(r->image, r->length, pos, &in);
            if (!in.complete || in.length != isa_encoded_length(in.op, in.operand))
                return 0;
        }
    }
    return 1;
}

/* ---- the lexer ---- */

/* Tokens carry their file, line and column and, for numbers and
 * characters, the 32-bit word they mean. */
static void lexer_tokens(void)
{
    static const char src[] = "val x=#FFFFFFFF;\n  2147483648 'a' '\\n' #1f | note\n\t:= ~= <=";
    Diag d = { .file = "t.x", .text = src, .len = sizeof src - 1 };
    Arena a = { 0 };
    size_t n = 0;
    Token *t = lex_source(&d, &a, &n);
    static const TokKind kinds[] = { TK_VAL, TK_NAME, TK_EQ, TK_NUM, TK_SEMI, TK_NUM, TK_NUM,
                                     TK_NUM, TK_NUM, TK_ASSIGN, TK_NE, TK_LE, TK_EOF };
    CHECK_EQ(d.errors, 0);
    CHECK_EQ(n, sizeof kinds / sizeof kinds[0]);
    for (size_t i = 0; t && i < n && i < sizeof kinds / sizeof kinds[0]; i++)
        CHECK_EQ(t[i].kind, kinds[i]);
    if (t && n == sizeof kinds / sizeof kinds[0]) {
        CHECK_STR(t[1].file, "t.x");
        CHECK_EQ(t[3].value, 0xFFFFFFFFu);
        CHECK_EQ(t[3].pos.line, 1);
        CHECK_EQ(t[3].pos.col, 7);
        CHECK_EQ(t[5].value, 0x80000000u);
        CHECK_EQ(t[5].pos.line, 2);
        CHECK_EQ(t[5].pos.col, 3);
        CHECK_EQ(t[6].value, 'a');
        CHECK_EQ(t[7].value, '\n');
        CHECK_EQ(t[8].value, 31);
        CHECK_EQ(t[9].pos.line, 3);
        CHECK_EQ(t[9].pos.col, 2);                      /* a tab is one column */
        CHECK_EQ(t[12].pos.line, 3);                     /* end: after the last token */
        CHECK_EQ(t[12].pos.col, 10);
    }
    diag_flush(&d);
    arena_free(&a);
}

/* ---- Figure 8 and Appendix C ---- */

static void same_records(const HexImage *got, const HexImage *want, uint32_t n)
{
    CHECK(got->count >= n && want->count >= n);
    for (uint32_t p = 0; p < n && p < got->count && p < want->count; p++) {
        CHECK_EQ(got->records[p].length, want->records[p].length);
        CHECK_EQ(got->records[p].entry, want->records[p].entry);
        CHECK(got->records[p].length == want->records[p].length &&
              memcmp(got->records[p].image, want->records[p].image,
                     want->records[p].length) == 0);
    }
}

static void figure8_byte_for_byte(void)
{
    HexImage img, fig;
    char err[256];
    CHECK_EQ(compile_file("programs/appendix_c.x", 200000, &img, stdout, "test_compiler"), 0);
    CHECK_EQ(hex_read_file("tests/data/figure8.hex", 200000, &fig, err, sizeof err), 0);
    CHECK_EQ(fig.count, 2);
    same_records(&img, &fig, 2);
    hex_free(&fig);
    hex_free(&img);
}

static void appendix_c_all_eight(void)
{
    HexImage img, want;
    char err[256];
    CHECK_EQ(compile_file("programs/appendix_c.x", 200000, &img, stdout, "test_compiler"), 0);
    CHECK_EQ(hex_read_file("tests/data/appendix_c.hex", 200000, &want, err, sizeof err), 0);
    CHECK_EQ(img.count, 8);
    CHECK_EQ(want.count, 8);
    same_records(&img, &want, 8);
    CHECK_STR(code_from(&img, 7, MAIN),
              "LDWSP 1; ADJ -3; STWSP 1; LDC 73; LDC 3; OUT; LDC 0; IN; STWSP 2; ADJ 3; RET");
    hex_free(&want);
    hex_free(&img);
}

/* The hex file parses back to the same records, with its comments. */
static void hex_writer_round_trip(void)
{
    HexImage img, back;
    char *buf = NULL, err[256];
    size_t size = 0;
    CHECK_EQ(compile_file("programs/appendix_c.x", 200000, &img, stdout, "test_compiler"), 0);
    FILE *f = open_memstream(&buf, &size);
    CHECK_EQ(compile_write_hex(f, &img, "programs/appendix_c.x", 200000, NULL, 0), 0);
    fclose(f);
    CHECK_CONTAINS(buf, "# compiled from programs/appendix_c.x with --mem 200000");
    CHECK_CONTAINS(buf, "\n# processor 0: 30 bytes, entry word 1\n1e00 0000 0100 0000 400d");
    CHECK_CONTAINS(buf, "\n# processor 7: 30 bytes, entry word 1\n");
    CHECK_EQ(hex_parse(buf, size, "w.hex", 200000, &back, err, sizeof err), 0);
    same_records(&back, &img, 8);
    CHECK_EQ(back.count, 8);
    hex_free(&back);
    hex_free(&img);
    free(buf);
}

/* The start-up code is exactly the one spec/language.md gives, and
 * mem[0] = M - G. */
static void startup_and_stack_pointer(void)
{
    static const uint8_t startup[] = { 0x30, 0x60, 0xfd, 0xef, 0xae, 0x22, 0x11, 0x53,
                                       0xfb, 0x30, 0xfe };
    HexImage img;
    CHECK_EQ(compile_mem("var a; array b[10]; var c;\nproc main() is skip\n", 1000, &img), 0);
    CHECK_EQ(img.count, 1);
    CHECK_EQ(img.records[0].entry, 1);
    const uint8_t *b = img.records[0].image;
    CHECK_EQ(b[0] | b[1] << 8 | b[2] << 16 | b[3] << 24, 1000 - 12);
    CHECK(memcmp(b + 4, startup, sizeof startup) == 0);
    CHECK_STR(code_from(&img, 0, MAIN), "LDWSP 1; ADJ -2; STWSP 1; ADJ 2; RET");
    CHECK_EQ(img.records[0].length, MAIN + 6);          /* ends with the last code byte */
    hex_free(&img);
}

/* ---- the code of each construct ---- */

static void assignments_and_variables(void)
{
    CHECK_STR(body_of("proc main() is var x; x := 3", 3), "LDC 3; STWSP 2");
    CHECK_STR(body_of("var g;\nproc main() is g := g + 1", 2),
              "LDWSP 1; LDWI 0; ADDC 1; LDWSP 1; STWI 0");
    CHECK_STR(body_of("var g; var h;\nproc main() is h := 5", 2), "LDC 5; LDWSP 1; STWI 1");
    CHECK_STR(body_of("proc main() is var x; { x := -x; x := ~x }", 3),
              "LDWSP 2; NOT; ADDC 1; STWSP 2; LDWSP 2; NOT; STWSP 2");
    /* vals take no space and are folded as the machine computes */
    CHECK_STR(body_of("val k = (3 + 4) * 2;\nproc main() is val j = k - 1; var x; x := j", 3),
              "LDC 13; STWSP 2");
    CHECK_STR(body_of("proc main() is print (#7FFFFFFF + 1) / (-1)", 2),
              "LDC -2147483648; PRINT");
    CHECK_STR(body_of("proc main() is print ((-8) >> 28) + (1 << 32) + ((-7) % 2)", 2),
              "LDC 14; PRINT");
    CHECK_STR(body_of("proc main() is print 'A' + '\\n'", 2), "LDC 75; PRINT");
}

static void operand_encodings(void)
{
    HexImage img;
    CHECK_EQ(compile("proc main() is { print 200000; print -1; print 16; print -16; "
                     "print -17 }", &img), 0);
    static const uint8_t want[] = {
        0xd3, 0xd0, 0xdd, 0xd4, 0x30, 0xd1, 0xf5,   /* LDC 200000; PRINT */
        0xef, 0x3f, 0xd1, 0xf5,                     /* LDC -1: NFIX first */
        0xd1, 0x30, 0xd1, 0xf5,                     /* LDC 16 */
        0xef, 0x30, 0xd1, 0xf5,                     /* LDC -16 */
        0xee, 0x3f, 0xd1, 0xf5,                     /* LDC -17 */
    };
    CHECK(memcmp(img.records[0].image + MAIN + 4, want, sizeof want) == 0);
    CHECK(all_minimal(&img));
    hex_free(&img);
}

static void comparisons_and_operators(void)
{
    const char *decl = "proc main() is var a; var b; print ";
    char src[256];
#define BODY(expr) (snprintf(src, sizeof src, "%s%s", decl, expr), body_of(src, 4))
    CHECK_STR(BODY("a < b"), "LDWSP 2; LDWSP 3; LSS; PRINT");
    CHECK_STR(BODY("a > b"), "LDWSP 3; LDWSP 2; LSS; PRINT");        /* b < a */
    CHECK_STR(BODY("a <= b"), "LDWSP 3; LDWSP 2; LSS; EQC 0; PRINT"); /* not b < a */
    CHECK_STR(BODY("a >= b"), "LDWSP 2; LDWSP 3; LSS; EQC 0; PRINT"); /* not a < b */
    CHECK_STR(BODY("a = b"), "LDWSP 2; LDWSP 3; EQ; PRINT");
    CHECK_STR(BODY("a ~= b"), "LDWSP 2; LDWSP 3; EQ; EQC 0; PRINT");
    CHECK_STR(BODY("a = 5"), "LDWSP 2; EQC 5; PRINT");
    CHECK_STR(BODY("5 ~= a"), "LDWSP 2; EQC 5; EQC 0; PRINT");
    CHECK_STR(BODY("a - 5"), "LDWSP 2; ADDC -5; PRINT");
    CHECK_STR(BODY("5 - a"), "LDC 5; LDWSP 2; SUB; PRINT");
    CHECK_STR(BODY("1 + a + 2 + b"), "LDC 1; LDWSP 2; ADD; ADDC 2; LDWSP 3; ADD; PRINT");
    CHECK_STR(BODY("a * b"), "LDWSP 2; LDWSP 3; MUL; PRINT");
    CHECK_STR(BODY("a / b"), "LDWSP 2; LDWSP 3; DIV; PRINT");
    CHECK_STR(BODY("a % b"), "LDWSP 2; LDWSP 3; REM; PRINT");
    CHECK_STR(BODY("a and b"), "LDWSP 2; LDWSP 3; AND; PRINT");
    CHECK_STR(BODY("a or b or a"), "LDWSP 2; LDWSP 3; OR; LDWSP 2; OR; PRINT");
    CHECK_STR(BODY("a xor b"), "LDWSP 2; LDWSP 3; XOR; PRINT");
    CHECK_STR(BODY("a << 3"), "LDWSP 2; LDC 3; SHL; PRINT");
    CHECK_STR(BODY("a >> b"), "LDWSP 2; LDWSP 3; SHR; PRINT");
    CHECK_STR(BODY("procid + nprocs"), "ID; NPROC; ADD; PRINT");
    CHECK_STR(BODY("timestep"), "TIME; PRINT");
    CHECK_STR(BODY("a / 0"), "LDWSP 2; LDC 0; DIV; PRINT");  /* left to run time */
#undef BODY
}

/* An operand that needs both registers while another value waits goes
 * through a temporary after the locals; the frame grows by it. */
static void temporaries(void)
{
    CHECK_STR(body_of("proc main() is var a; print a - (a * a)", 4),
              "LDWSP 2; LDWSP 2; MUL; STWSP 3; LDWSP 2; LDWSP 3; SUB; PRINT");
    CHECK_STR(body_of("var g;\nproc main() is print g - (g * g)", 4),
              "LDWSP 1; LDWI 0; STWSP 2; LDWSP 1; LDWI 0; LDWSP 1; LDWI 0; MUL; STWSP 3; "
              "LDWSP 2; LDWSP 3; SUB; PRINT");
    CHECK_STR(body_of("var g;\nproc main() is print (g * g) > g", 3),
              "LDWSP 1; LDWI 0; LDWSP 1; LDWI 0; MUL; STWSP 2; LDWSP 1; LDWI 0; LDWSP 2; "
              "LSS; PRINT");
    CHECK_STR(body_of("proc main() is var a; print a + (a * a) + (a * a)", 4),
              "LDWSP 2; STWSP 3; LDWSP 2; LDWSP 2; MUL; LDWSP 3; ADD; STWSP 3; LDWSP 2; "
              "LDWSP 2; MUL; LDWSP 3; ADD; PRINT");
}

static void arrays(void)
{
    CHECK_STR(body_of("array t[4];\nproc main() is var i; t[2] := t[i]", 3),
              "LDWSP 2; LDWSP 1; ADD; LDWI 0; LDWSP 1; STWI 2");
    CHECK_STR(body_of("var g; array t[4];\nproc main() is var i; t[i] := 7", 4),
              "LDWSP 2; LDWSP 1; ADD; STWSP 3; LDC 7; LDWSP 3; STWI 1");
    CHECK_STR(body_of("proc main() is array a[3]; var i; a[1] := a[i]", 6),
              "LDWSP 5; LDAWSP 2; ADD; LDWI 0; STWSP 3");
    CHECK_STR(body_of("proc main() is array a[3]; a[2] := a[0] + 1", 5),
              "LDWSP 2; ADDC 1; STWSP 4");
    CHECK_STR(code_of("array g[2]; array h[3];\nproc z(array a) is a[1] := a[0]\n"
                      "proc main() is { z(h); z(g) }"),
              "LDWSP 1; ADJ -2; STWSP 1; LDWSP 1; ADDC 2; STWSP -1; LDAP 8; CALL; "
              "LDWSP 1; STWSP -1; LDAP 3; CALL; ADJ 2; RET; "
              "LDWSP 1; ADJ -3; STWSP 1; LDWSP 2; LDWI 0; LDWSP 2; STWI 1; ADJ 3; RET");
}

static void control_flow(void)
{
    CHECK_STR(body_of("proc main() is var x; if x < 3 then print 1 else print 2", 3),
              "LDWSP 2; LDC 3; LSS; EQC 0; BRT 4; LDC 1; PRINT; BR 3; LDC 2; PRINT");
    CHECK_STR(body_of("proc main() is var x; if x ~= 0 then print 1", 3),
              "LDWSP 2; EQC 0; BRT 3; LDC 1; PRINT");            /* x = 0 jumps */
    CHECK_STR(body_of("proc main() is var x; if x then print 1", 3),
              "LDWSP 2; EQC 0; BRT 3; LDC 1; PRINT");
    CHECK_STR(body_of("proc main() is var i; while i < 10 do i := i + 1", 3),
              "BR 3; LDWSP 2; ADDC 1; STWSP 2; LDWSP 2; LDC 10; LSS; BRT -8");
    CHECK_STR(body_of("proc main() is while true do print 1", 2), "LDC 1; PRINT; BR -5");
    CHECK_STR(body_of("proc main() is if true then print 1 else print 2", 2), "LDC 1; PRINT");
    CHECK_STR(code_of("proc main() is while false do print 1"),
              "LDWSP 1; ADJ -2; STWSP 1; ADJ 2; RET");
    CHECK_STR(body_of("proc main() is stop", 2), "LDC 1; HALT");
    CHECK_STR(body_of("proc main() is { skip; print 1; }", 2), "LDC 1; PRINT");
}

static void sends_and_receives(void)
{
    CHECK_STR(body_of("proc main() is 2 : 1 ! 9", 2), "LDC 9; LDC 16777218; OUT");
    CHECK_STR(body_of("proc main() is var k; 3 : k ! 5", 4),    /* 3 | (k << 24) */
              "LDWSP 2; LDC 24; SHL; LDC 3; OR; STWSP 3; LDC 5; LDWSP 3; OUT");
    CHECK_STR(body_of("proc main() is var d; d ! d + 1", 3), "LDWSP 2; ADDC 1; LDWSP 2; OUT");
    CHECK_STR(body_of("proc main() is var x; 4 ? x", 3), "LDC 4; IN; STWSP 2");
    CHECK_STR(body_of("var g;\nproc main() is 0 ? g", 2), "LDC 0; IN; LDWSP 1; STWI 0");
    CHECK_STR(body_of("proc main() is array a[2]; var i; 0 ? a[i]", 6),
              "LDWSP 4; LDAWSP 2; ADD; STWSP 5; LDC 0; IN; LDWSP 5; STWI 0");
}

/* [d1, ..., dn] [: k] ! e (spec/multicast.md): the list n | k << 24, d1 ..
 * dn in frame words after the locals, then MOUT with the list's address in
 * areg and the value in breg. A stable value is loaded last; any other is
 * worked out first and waits in breg, or in a temporary when a word of the
 * list needs both registers (a call, a computed port). */
static void list_sends(void)
{
    CHECK_STR(body_of("proc main() is [1, 2, 3] ! 42", 6),
              "LDC 1; STWSP 3; LDC 2; STWSP 4; LDC 3; STWSP 5; LDC 3; STWSP 2; "
              "LDC 42; LDAWSP 2; MOUT");
    CHECK_STR(body_of("proc main() is [1, 2] : 3 ! 5", 5),        /* 2 | 3 << 24 */
              "LDC 1; STWSP 3; LDC 2; STWSP 4; LDC 50331650; STWSP 2; LDC 5; LDAWSP 2; MOUT");
    CHECK_STR(body_of("proc main() is var x; [x + 1, x] ! x", 6),
              "LDWSP 2; ADDC 1; STWSP 4; LDWSP 2; STWSP 5; LDC 2; STWSP 3; "
              "LDWSP 2; LDAWSP 3; MOUT");
    CHECK_STR(body_of("var g;\nproc main() is [1, 2] ! g", 5),     /* g waits in breg */
              "LDWSP 1; LDWI 0; LDC 1; STWSP 3; LDC 2; STWSP 4; LDC 2; STWSP 2; "
              "LDAWSP 2; MOUT");
    CHECK_STR(body_of("proc main() is var k; [5] : k ! 9", 5),     /* k << 24 | 1 */
              "LDC 5; STWSP 4; LDWSP 2; LDC 24; SHL; ADDC 1; STWSP 3; LDC 9; LDAWSP 3; MOUT");
    CHECK_STR(body_of("var g;\nproc main() is var k; [1] : k ! g", 6),
              "LDWSP 1; LDWI 0; STWSP 5; LDC 1; STWSP 4; LDWSP 2; LDC 24; SHL; ADDC 1; "
              "STWSP 3; LDWSP 5; LDAWSP 3; MOUT");
    CHECK_STR(code_of("var g;\nfunc f() is return 1\nproc main() is [f(), 2] ! g"),
              "LDWSP 1; ADJ -6; STWSP 1; LDWSP 1; LDWI 0; STWSP 5; LDAP 12; CALL; STWSP 3; "
              "LDC 2; STWSP 4; LDC 2; STWSP 2; LDWSP 5; LDAWSP 2; MOUT; ADJ 6; RET; "
              "LDWSP 1; ADJ -2; STWSP 1; LDC 1; ADJ 2; RET");
    /* The frame grows by the largest list, which every list shares. */
    CHECK_STR(body_of("proc main() is { [1] ! 1; [1, 2, 3, 4] ! 2; [3, 3] ! 3 }", 7),
              "LDC 1; STWSP 3; LDC 1; STWSP 2; LDC 1; LDAWSP 2; MOUT; "
              "LDC 1; STWSP 3; LDC 2; STWSP 4; LDC 3; STWSP 5; LDC 4; STWSP 6; LDC 4; "
              "STWSP 2; LDC 2; LDAWSP 2; MOUT; "
              "LDC 3; STWSP 3; LDC 3; STWSP 4; LDC 2; STWSP 2; LDC 3; LDAWSP 2; MOUT");
    HexImage img;
    CHECK_EQ(compile("proc main() is network i for 2 do [i, 1 - i, i] ! i", &img), 0);
    CHECK_STR(code_from(&img, 1, MAIN), "LDWSP 1; ADJ -6; STWSP 1; LDC 1; STWSP 3; LDC 0; "
              "STWSP 4; LDC 1; STWSP 5; LDC 3; STWSP 2; LDC 1; LDAWSP 2; MOUT; ADJ 6; RET");
    hex_free(&img);
}

/* all [: k] ! e: a broadcast, 0 | k << 24 and then R, the number of
 * processor records, so that idle placeholders get nothing. */
static void broadcasts(void)
{
    HexImage img;
    CHECK_EQ(compile("proc main() is network { all : 2 ! 7 & skip & skip }", &img), 0);
    CHECK_STR(code_from(&img, 0, MAIN), "LDWSP 1; ADJ -4; STWSP 1; "
              "LDC 3; STWSP 3; LDC 33554432; STWSP 2; LDC 7; LDAWSP 2; MOUT; ADJ 4; RET");
    hex_free(&img);
    CHECK_STR(body_of("proc main() is var k; all : k ! 7", 5),
              "LDC 1; STWSP 4; LDWSP 2; LDC 24; SHL; STWSP 3; LDC 7; LDAWSP 3; MOUT");
    CHECK_STR(code_of("proc p() is all ! procid\nproc main() is network i for 5 do p()"),
              "LDWSP 1; ADJ -2; STWSP 1; LDAP 3; CALL; ADJ 2; RET; "
              "LDWSP 1; ADJ -4; STWSP 1; LDC 5; STWSP 3; LDC 0; STWSP 2; ID; LDAWSP 2; MOUT; "
              "ADJ 4; RET");
}

/* d [: k] ! [e1, ..., en] (spec/messages.md): the words in frame words
 * after the locals, left to right, then SEND's descriptor before them, L
 * and the address of the first word, then the network address in breg and
 * the descriptor's address in areg. A list of one is a SEND of one word. */
static void message_lists(void)
{
    CHECK_STR(body_of("proc main() is 2 ! [5, 6]", 6),
              "LDC 5; STWSP 4; LDC 6; STWSP 5; LDC 2; STWSP 2; LDAWSP 4; STWSP 3; "
              "LDC 2; LDAWSP 2; SEND");
    CHECK_STR(body_of("proc main() is var x; 1 : 3 ! [x]", 6),
              "LDWSP 2; STWSP 5; LDC 1; STWSP 3; LDAWSP 5; STWSP 4; LDC 50331649; "
              "LDAWSP 3; SEND");
    CHECK_STR(body_of("proc main() is var d; var k; d : k ! [d + 1, 7]", 8),
              "LDWSP 2; ADDC 1; STWSP 6; LDC 7; STWSP 7; LDC 2; STWSP 4; LDAWSP 6; "
              "STWSP 5; LDWSP 3; LDC 24; SHL; LDWSP 2; OR; LDAWSP 4; SEND");
    /* A word that needs both registers takes a temporary after the words. */
    CHECK_STR(body_of("var g;\nproc main() is 1 ! [g - (g * g)]", 7),
              "LDWSP 1; LDWI 0; STWSP 5; LDWSP 1; LDWI 0; LDWSP 1; LDWI 0; MUL; "
              "STWSP 6; LDWSP 5; LDWSP 6; SUB; STWSP 4; LDC 1; STWSP 2; LDAWSP 4; "
              "STWSP 3; LDC 1; LDAWSP 2; SEND");
    /* The frame grows by the largest message, which every message shares. */
    CHECK_STR(body_of("proc main() is { 1 ! [1]; 1 ! [1, 2, 3]; [1] ! 4 }", 7),
              "LDC 1; STWSP 4; LDC 1; STWSP 2; LDAWSP 4; STWSP 3; LDC 1; LDAWSP 2; SEND; "
              "LDC 1; STWSP 4; LDC 2; STWSP 5; LDC 3; STWSP 6; LDC 3; STWSP 2; LDAWSP 4; "
              "STWSP 3; LDC 1; LDAWSP 2; SEND; "
              "LDC 1; STWSP 3; LDC 1; STWSP 2; LDC 4; LDAWSP 2; MOUT");
    /* A value that is an array element is still a value: OUT. */
    CHECK_STR(body_of("proc main() is array a[2]; 1 ! a[0] + 1", 4),
              "LDWSP 2; ADDC 1; LDC 1; OUT");
}

/* d [: k] ! a[i for n] (spec/messages.md): the descriptor, the address of
 * a[i] (worked out first) and n, then the network address and SEND. */
static void message_slices(void)
{
    CHECK_STR(body_of("proc main() is array a[4]; 2 : 1 ! a[1 for 3]", 8),
              "LDAWSP 3; STWSP 7; LDC 3; STWSP 6; LDC 16777218; LDAWSP 6; SEND");
    CHECK_STR(body_of("array g[2]; array h[4];\n"
                      "proc main() is var i; var n; var k; 1 : k ! h[i for n]", 7),
              "LDWSP 2; LDWSP 1; ADD; ADDC 2; STWSP 6; LDWSP 3; STWSP 5; "
              "LDWSP 4; LDC 24; SHL; LDC 1; OR; LDAWSP 5; SEND");
    CHECK_STR(body_of("array g[2]; array h[4];\nproc main() is 0 ! h[3 for 1]", 4),
              "LDWSP 1; ADDC 5; STWSP 3; LDC 1; STWSP 2; LDC 0; LDAWSP 2; SEND");
    CHECK_STR(code_of("proc p(array a) is 0 ! a[2 for 2]\nproc main() is array b[4]; p(b)"),
              "LDWSP 1; ADJ -6; STWSP 1; LDAWSP 2; STWSP -3; LDAP 3; CALL; ADJ 6; RET; "
              "LDWSP 1; ADJ -5; STWSP 1; LDWSP 2; ADDC 2; STWSP 4; LDC 2; STWSP 3; LDC 0; "
              "LDAWSP 3; SEND; ADJ 5; RET");
    /* A length made of the network index is known on each processor. */
    HexImage img;
    CHECK_EQ(compile("proc main() is array a[4]; network i for 2 do 0 ! a[0 for i + 1]",
                     &img), 0);
    CHECK_STR(code_from(&img, 1, MAIN), "LDWSP 1; ADJ -8; STWSP 1; LDAWSP 2; STWSP 7; "
              "LDC 2; STWSP 6; LDC 0; LDAWSP 6; SEND; ADJ 8; RET");
    hex_free(&img);
}

/* k ? a[i for n] (spec/messages.md): n INs into a[i] .. a[i+n-1] in order,
 * i, n and k worked out once each, in that order. A known n of at most 16
 * is a straight run; any other n a loop over a pointer and a count. */
static void message_receives(void)
{
    CHECK_STR(body_of("proc main() is array a[3]; 1 ? a[0 for 3]", 5),
              "LDC 1; IN; STWSP 2; LDC 1; IN; STWSP 3; LDC 1; IN; STWSP 4");
    CHECK_STR(body_of("proc main() is var i; var k; array a[4]; k ? a[i for 2]", 10),
              "LDWSP 2; LDAWSP 4; ADD; STWSP 8; LDWSP 3; STWSP 9; LDWSP 9; IN; LDWSP 8; "
              "STWI 0; LDWSP 9; IN; LDWSP 8; STWI 1");
    CHECK_STR(body_of("array g[2]; array h[4];\nproc main() is 0 ? h[1 for 2]", 2),
              "LDC 0; IN; LDWSP 1; STWI 3; LDC 0; IN; LDWSP 1; STWI 4");
    CHECK_STR(code_of("proc p(array a) is 3 ? a[1 for 2]\nproc main() is array b[4]; p(b)"),
              "LDWSP 1; ADJ -6; STWSP 1; LDAWSP 2; STWSP -1; LDAP 3; CALL; ADJ 6; RET; "
              "LDWSP 1; ADJ -3; STWSP 1; LDC 3; IN; LDWSP 2; STWI 1; LDC 3; IN; LDWSP 2; "
              "STWI 2; ADJ 3; RET");
    CHECK_STR(body_of("proc main() is var n; array a[4]; 0 ? a[1 for n]", 9),
              "LDAWSP 4; STWSP 7; LDWSP 2; STWSP 8; BR 12; LDC 0; IN; LDWSP 7; STWI 0; "
              "LDWSP 7; ADDC 1; STWSP 7; LDWSP 8; ADDC -1; STWSP 8; LDWSP 8; BRT -15");
    CHECK_STR(body_of("proc main() is var k; array a[20]; k ? a[0 for 17]", 26),
              "LDAWSP 3; STWSP 23; LDC 17; STWSP 24; LDWSP 2; STWSP 25; BR 18; LDWSP 25; "
              "IN; LDWSP 23; STWI 0; LDWSP 23; ADDC 1; STWSP 23; LDWSP 24; ADDC -1; "
              "STWSP 24; LDWSP 24; BRT -22");
    CHECK_STR(body_of("proc main() is array a[20]; 0 ? a[0 for 16]", 22),
              "LDC 0; IN; STWSP 2; LDC 0; IN; STWSP 3; LDC 0; IN; STWSP 4; LDC 0; IN; "
              "STWSP 5; LDC 0; IN; STWSP 6; LDC 0; IN; STWSP 7; LDC 0; IN; STWSP 8; "
              "LDC 0; IN; STWSP 9; LDC 0; IN; STWSP 10; LDC 0; IN; STWSP 11; LDC 0; IN; "
              "STWSP 12; LDC 0; IN; STWSP 13; LDC 0; IN; STWSP 14; LDC 0; IN; STWSP 15; "
              "LDC 0; IN; STWSP 16; LDC 0; IN; STWSP 17");
}

/* The errors of messages, each at its place with the caret under it. */
static void message_errors(void)
{
    HexImage img;
    CHECK_EQ(compile("proc main() is array a[2]; 1 ! a[0 for 0]", &img), 1);
    CHECK_STR(messages, "t.x:1:40: error: a message must have from 1 to 65,536 words, not 0\n"
              "    1 | proc main() is array a[2]; 1 ! a[0 for 0]\n"
              "      |                                        ^\n");
    CHECK_EQ(compile("proc main() is array a[2];\n  0 ? a[1 for (65536 + 1)]", &img), 1);
    CHECK_STR(messages, "t.x:2:16: error: a message must have from 1 to 65,536 words, "
              "not 65537\n"
              "    2 |   0 ? a[1 for (65536 + 1)]\n"
              "      |                ^\n");
    CHECK_EQ(compile("proc main() is array a[2]; 0 ? a[1 for -1]", &img), 1);
    CHECK_CONTAINS(messages, "t.x:1:40: error: a message must have from 1 to 65,536 words, "
                   "not -1\n");
    CHECK_EQ(compile("proc main() is array a[2]; network i for 2 do 1 ! a[0 for i]", &img), 1);
    CHECK_STR(messages, "t.x:1:59: error: a message must have from 1 to 65,536 words, not 0 "
              "(in processor 0's branch, where 'i' is 0)\n"
              "    1 | proc main() is array a[2]; network i for 2 do 1 ! a[0 for i]\n"
              "      |                                                           ^\n");
    CHECK_EQ(compile("proc main() is var x; { 1 ! x[0 for 2]; 0 ? y[0 for 1] }", &img), 2);
    CHECK_STR(messages, "t.x:1:29: error: 'x' is a variable, not an array, so it cannot be "
              "indexed\n"
              "    1 | proc main() is var x; { 1 ! x[0 for 2]; 0 ? y[0 for 1] }\n"
              "      |                             ^\n"
              "t.x:1:45: error: 'y' is not declared\n"
              "    1 | proc main() is var x; { 1 ! x[0 for 2]; 0 ? y[0 for 1] }\n"
              "      |                                             ^\n");
    CHECK_EQ(compile("proc main() is { 16777216 ! [1]; 0 : 256 ! [1, 2] }", &img), 2);
    CHECK_STR(messages, "t.x:1:18: error: destination processor 16777216 is out of range: it "
              "must be from 0 to 16777215\n"
              "    1 | proc main() is { 16777216 ! [1]; 0 : 256 ! [1, 2] }\n"
              "      |                  ^\n"
              "t.x:1:38: error: port 256 is out of range: it must be from 0 to 255\n"
              "    1 | proc main() is { 16777216 ! [1]; 0 : 256 ! [1, 2] }\n"
              "      |                                      ^\n");
    CHECK_EQ(compile("proc main() is 1 ! []", &img), 1);
    CHECK_STR(messages, "t.x:1:21: error: expected a word before ']' (a message has at least "
              "one word: 'd ! [e1, e2]')\n"
              "    1 | proc main() is 1 ! []\n"
              "      |                     ^\n");
    CHECK_EQ(compile("proc main() is [1, 2] ! [3]", &img), 1);
    CHECK_CONTAINS(messages, "t.x:1:25: error: expected a value before '[' (a multicast sends "
                   "one word; a message of several words goes to one processor: "
                   "'d ! [e1, e2]')\n");
    CHECK_EQ(compile("proc main() is array a[2]; var x; x := a[0 for 2]", &img), 1);
    CHECK_CONTAINS(messages, "t.x:1:44: error: expected ']' before 'for' (the words "
                   "a[i for n] stand only alone after the '!' of a send to one processor or "
                   "the '?' of a receive: 'd ! a[i for n]', 'k ? a[i for n]')\n");
    /* ...also in a message's list, or in parentheses, where a send to one
     * processor was no explanation. */
    CHECK_EQ(compile("proc main() is array a[2]; { 1 ! [a[0 for 2], 3]; 1 ! (a[0 for 2]) }",
                     &img), 2);
    CHECK_CONTAINS(messages, "t.x:1:39: error: expected ']' before 'for' (the words "
                   "a[i for n] stand only alone after the '!'");
    CHECK_CONTAINS(messages, "t.x:1:60: error: expected ']' before 'for' (the words "
                   "a[i for n] stand only alone after the '!'");
    /* A list of 65,536 words compiles; one more word is an error at its '['. */
    enum { WORDS = 65537 };
    char *src = malloc(2 * WORDS + 64), *p = src;
    p += sprintf(p, "proc main() is\n  1 ! [");
    for (int i = 0; i < WORDS - 1; i++)
        p += sprintf(p, i ? ",1" : "1");
    strcpy(p, "]\n");
    CHECK_EQ(compile(src, &img), 0);
    CHECK_EQ(img.records[0].length > 4 * 65536, 1);
    hex_free(&img);
    strcpy(p, ",1]\n");
    CHECK_EQ(compile(src, &img), 1);
    CHECK_CONTAINS(messages, "t.x:2:7: error: a message may have at most 65,536 words, not "
                   "65537\n");
    CHECK_CONTAINS(messages, "\n      |       ^\n");
    free(src);
}

/* Arguments go straight into the callee's frame (sp - F + 2 + j) unless a
 * later argument makes a call; a func's result comes back in areg. */
static void calls(void)
{
    CHECK_STR(code_of("proc p(val x, val y) is print x - y\nproc main() is p(1, 2)"),
              "LDWSP 1; ADJ -2; STWSP 1; LDC 1; STWSP -2; LDC 2; STWSP -1; LDAP 3; CALL; "
              "ADJ 2; RET; "
              "LDWSP 1; ADJ -4; STWSP 1; LDWSP 2; LDWSP 3; SUB; PRINT; ADJ 4; RET");
    CHECK_STR(code_of("func f(val x) is return x * 2\nproc main() is print f(3)"),
              "LDWSP 1; ADJ -2; STWSP 1; LDC 3; STWSP -1; LDAP 5; CALL; PRINT; ADJ 2; RET; "
              "LDWSP 1; ADJ -3; STWSP 1; LDWSP 2; LDC 2; MUL; ADJ 3; RET");
    CHECK_STR(code_of("func f(val a, val b) is return a + b\n"
                      "proc main() is print f(1, f(2, 3))"),
              "LDWSP 1; ADJ -3; STWSP 1; "                      /* one temporary */
              "LDC 1; STWSP 2; LDC 2; STWSP -2; LDC 3; STWSP -1; LDAP 12; CALL; "
              "STWSP -1; LDWSP 2; STWSP -2; LDAP 5; CALL; PRINT; ADJ 3; RET; "
              "LDWSP 1; ADJ -4; STWSP 1; LDWSP 2; LDWSP 3; ADD; ADJ 4; RET");
}

/* ---- one image per processor ---- */

static void network_images(void)
{
    HexImage img;
    CHECK_EQ(compile("proc main() is { print 7; network { print 0 & print 1 }; print 8 }",
                     &img), 0);
    CHECK_EQ(img.count, 2);
    CHECK_STR(code_from(&img, 0, MAIN),
              "LDWSP 1; ADJ -2; STWSP 1; LDC 7; PRINT; LDC 0; PRINT; LDC 8; PRINT; ADJ 2; RET");
    CHECK_STR(code_from(&img, 1, MAIN),
              "LDWSP 1; ADJ -2; STWSP 1; LDC 7; PRINT; LDC 1; PRINT; LDC 8; PRINT; ADJ 2; RET");
    hex_free(&img);
    CHECK_EQ(compile("proc main() is network i for 3 do print i * 10", &img), 0);
    CHECK_EQ(img.count, 3);
    CHECK_STR(code_from(&img, 2, MAIN), "LDWSP 1; ADJ -2; STWSP 1; LDC 20; PRINT; ADJ 2; RET");
    hex_free(&img);
}

/* The number of records is the largest branch count, or 1; a processor
 * beyond a network's branches skips it. */
static void processor_count(void)
{
    HexImage img;
    CHECK_EQ(compile("proc main() is skip", &img), 0);
    CHECK_EQ(img.count, 1);
    hex_free(&img);
    CHECK_EQ(compile("proc main() is { network { skip & skip & skip }; network i for 5 do "
                     "print i; network { print 9 & print 8 } }", &img), 0);
    CHECK_EQ(img.count, 5);
    CHECK_STR(code_from(&img, 1, MAIN),
              "LDWSP 1; ADJ -2; STWSP 1; LDC 1; PRINT; LDC 8; PRINT; ADJ 2; RET");
    CHECK_STR(code_from(&img, 4, MAIN), "LDWSP 1; ADJ -2; STWSP 1; LDC 4; PRINT; ADJ 2; RET");
    hex_free(&img);
}

/* Each image holds main and the procedures reachable from its branch,
 * main first and the rest in source order; main's frame is its own. */
static void reachable_procedures(void)
{
    HexImage img;
    CHECK_EQ(compile("proc a() is print 1\nproc b() is print 2\nproc c() is b()\n"
                     "proc main() is var x; network { a() & c() & print x - (x * x) }\n"
                     "proc unused() is print 3", &img), 0);
    CHECK_EQ(img.count, 3);
    CHECK_STR(code_from(&img, 0, MAIN),
              "LDWSP 1; ADJ -3; STWSP 1; LDAP 3; CALL; ADJ 3; RET; "
              "LDWSP 1; ADJ -2; STWSP 1; LDC 1; PRINT; ADJ 2; RET");
    CHECK_STR(code_from(&img, 1, MAIN),
              "LDWSP 1; ADJ -3; STWSP 1; LDAP 12; CALL; ADJ 3; RET; "
              "LDWSP 1; ADJ -2; STWSP 1; LDC 2; PRINT; ADJ 2; RET; "
              "LDWSP 1; ADJ -2; STWSP 1; LDAP -15; CALL; ADJ 2; RET");
    CHECK_STR(code_from(&img, 2, MAIN),
              "LDWSP 1; ADJ -4; STWSP 1; LDWSP 2; LDWSP 2; MUL; STWSP 3; LDWSP 2; "
              "LDWSP 3; SUB; PRINT; ADJ 4; RET");
    hex_free(&img);
}

/* Branches start short and are lengthened only as far as needed: a loop
 * whose body grows across the 1-, 2- and 3-byte limits still runs, and
 * every operand has its minimal encoding. */
static void branch_lengths(void)
{
    char src[8192];
    for (int n = 1; n < 120; n += 1) {
        size_t used = (size_t)snprintf(src, sizeof src,
                                       "proc main() is var i; while i < 2 do { i := i + 1");
        for (int k = 0; k < n; k++)
            used += (size_t)snprintf(src + used, sizeof src - used, "; i := i + 0");
        snprintf(src + used, sizeof src - used, " }");
        HexImage img;
        CHECK_EQ(compile(src, &img), 0);
        CHECK(all_minimal(&img));
        hex_free(&img);
    }
}

/* ---- memory ---- */

static void memory_limits(void)
{
    HexImage img;
    CHECK_EQ(compile_mem("array big[1000];\nproc main() is skip\n", 1000, &img), 1);
    CHECK_STR(messages,
              "t.x:1:7: error: the globals need 1000 words, which with the program and 64 "
              "words of stack do not fit in --mem 1000\n"
              "    1 | array big[1000];\n"
              "      |       ^\n");
    char src[4096] = "array g[150];\nproc main() is {\n";
    for (int i = 0; i < 60; i++)
        strcat(src, "  print 1000;\n");
    strcat(src, "  skip }\n");
    CHECK_EQ(compile_mem(src, 256, &img), 1);
    CHECK_CONTAINS(messages, "t.x:2:6: error: the program (81 words on processor 0) and its "
                   "globals (150 words) leave fewer than 64 words of stack in --mem 256\n");
    CHECK_EQ(compile_mem(src, 400, &img), 0);
    hex_free(&img);
    CHECK_EQ(compile_mem("proc main() is array a[300]; skip", 256, &img), 1);
    CHECK_CONTAINS(messages, "error: the locals of 'main' need 302 words, more than --mem "
                   "256 can hold");
}

/* ---- errors ---- */

/* The whole message, gcc's way, and several independent ones per run. */
static void error_format(void)
{
    HexImage img;
    CHECK_EQ(compile("proc main() is\n  var in\n  in := 1\n", &img), 1);
    CHECK_STR(messages,
              "t.x:2:9: error: expected ';' before 'in'\n"
              "    2 |   var in\n"
              "      |         ^\n");
    CHECK_EQ(compile("proc main() is {\n\tx := 1;\n  print y;\n  z()\n}\n", &img), 3);
    CHECK_STR(messages,
              "t.x:2:2: error: 'x' is not declared\n"
              "    2 | \tx := 1;\n"
              "      | \t^\n"
              "t.x:3:9: error: 'y' is not declared\n"
              "    3 |   print y;\n"
              "      |         ^\n"
              "t.x:4:3: error: 'z' is not declared\n"
              "    4 |   z()\n"
              "      |   ^\n");
    CHECK_EQ(compile("", &img), 1);
    CHECK_STR(messages, "t.x:1:1: error: the program has no 'main' (it must have "
              "'proc main() is ...')\n    1 | \n      | ^\n");
}

/* Nesting far deeper than 1,000 is one error, not a stack overflow. */
static void deep_nesting(void)
{
    enum { DEPTH = 100000 };
    HexImage img;
    char *src = malloc(3 * DEPTH + 64), *p = src;
    p += sprintf(p, "proc main() is print ");
    memset(p, '(', DEPTH);
    p += DEPTH;
    *p++ = '1';
    memset(p, ')', DEPTH);
    strcpy(p + DEPTH, "\n");
    CHECK_EQ(compile(src, &img), 1);
    CHECK_CONTAINS(messages, "t.x:1:1021: error: nesting deeper than 1,000 levels\n");
    p = src + sprintf(src, "proc main() is ");
    memset(p, '{', DEPTH);
    p += DEPTH;
    p += sprintf(p, "skip");
    memset(p, '}', DEPTH);
    strcpy(p + DEPTH, "\n");
    CHECK_EQ(compile(src, &img), 1);
    CHECK_CONTAINS(messages, "error: nesting deeper than 1,000 levels\n");
    free(src);
}

int main(void)
{
    RUN(lexer_tokens);
    RUN(figure8_byte_for_byte);
    RUN(appendix_c_all_eight);
    RUN(hex_writer_round_trip);
    RUN(startup_and_stack_pointer);
    RUN(assignments_and_variables);
    RUN(operand_encodings);
    RUN(comparisons_and_operators);
    RUN(temporaries);
    RUN(arrays);
    RUN(control_flow);
    RUN(sends_and_receives);
    RUN(list_sends);
    RUN(broadcasts);
    RUN(message_lists);
    RUN(message_slices);
    RUN(message_receives);
    RUN(message_errors);
    RUN(calls);
    RUN(network_images);
    RUN(processor_count);
    RUN(reachable_procedures);
    RUN(branch_lengths);
    RUN(memory_limits);
    RUN(error_format);
    RUN(deep_nesting);
    return CHECK_EXIT();
}
