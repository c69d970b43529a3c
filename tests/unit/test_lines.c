/* Unit tests of the source lines of an image (cpu/lines.h): the table by
 * hand (lookups, shared lists, the source text), and the table the compiler
 * makes -- each instruction of each record at the line and column of the
 * source it was compiled from, inside its procedure. */
#include <stdlib.h>
#include <string.h>

#include "compiler/compiler.h"
#include "cpu/disasm.h"
#include "cpu/lines.h"
#include "tests/check.h"

/* Lookups find the last entry at or before an address; before the first
 * entry and from the end of the code on, there is nothing. */
static void lookups(void)
{
    LineTable *t = lines_new("a.x", "one\ntwo\r\nthree", 14, 1);
    lines_set_proc(t, 0, "proc", "main!", 4);
    lines_add(t, 4, 0, 0, 0);           /* start-up code */
    lines_add(t, 8, 2, 3, 0);
    lines_add(t, 9, 2, 3, 0);           /* the same place: merged */
    lines_add(t, 12, 3, 1, 0);
    lines_end_record(t, 20);
    CHECK_EQ(t->nentries, 4);
    LineEntry e;
    char buf[64];
    CHECK(!lines_find(t, 0, 3, &e));
    CHECK(lines_describe(t, 0, 5, buf, sizeof buf));
    CHECK_STR(buf, "start-up code");
    CHECK(lines_describe(t, 0, 11, buf, sizeof buf));
    CHECK_STR(buf, "a.x:2:3, in proc main");
    CHECK(lines_describe(t, 0, 19, buf, sizeof buf));
    CHECK_STR(buf, "a.x:3:1, in proc main");
    CHECK(!lines_describe(t, 0, 20, buf, sizeof buf));
    CHECK_STR(buf, "");
    CHECK(!lines_find(t, 1, 8, &e));    /* no such record */
    CHECK(!lines_find(NULL, 0, 8, &e));
    size_t len;
    const char *text = lines_text(t, 2, &len);
    CHECK(text && len == 3 && memcmp(text, "two", 3) == 0);   /* without "\r" */
    text = lines_text(t, 3, &len);
    CHECK(text && len == 5 && memcmp(text, "three", 5) == 0); /* no newline at the end */
    CHECK(lines_text(t, 4, &len) == NULL);
    CHECK(lines_text(t, 0, &len) == NULL);
    lines_free(t);
}

/* A record whose entries are those of the record before shares its list. */
static void shared_lists(void)
{
    LineTable *t = lines_new("a.x", "x", 1, 1);
    for (int rec = 0; rec < 3; rec++) {
        lines_add(t, 4, 1, 1, 0);
        lines_add(t, 6, 1, rec == 2 ? 5 : 2, 0);
        lines_end_record(t, 9);
    }
    CHECK_EQ(t->count, 3);
    CHECK_EQ(t->nlists, 2);
    CHECK_EQ(t->list_of[0], t->list_of[1]);
    CHECK(t->list_of[2] != t->list_of[1]);
    LineEntry e;
    CHECK(lines_find(t, 1, 7, &e) && e.col == 2);
    CHECK(lines_find(t, 2, 7, &e) && e.col == 5);
    lines_free(t);
}

static const char farm_like[] =
    "func twice(val x) is\n"                           /* 1 */
    "  return x * 2\n"                                 /* 2 */
    "\n"
    "proc main() is\n"                                 /* 4 */
    "  var a;\n"
    "{\n"
    "  a := twice(3);\n"                               /* 7 */
    "  network {\n"
    "    print a / 0 &\n"                              /* 9 */
    "    { 0 ? a; print a }\n"                         /* 10 */
    "  }\n"
    "}\n";

/* The position of the instruction with operation `name` that comes n-th
 * (from 0) in record rec, as "line:col in proc", found through the
 * listing's own decoder. */
static const char *where_is(const HexImage *img, uint32_t rec, const char *name, int n)
{
    static char buf[128];
    char line[160];
    const HexRecord *r = &img->records[rec];
    for (size_t pos = 4 * (size_t)r->entry; pos < r->length;) {
        uint32_t at = (uint32_t)pos;
        pos += disasm_line(r->image, r->length, pos, line, sizeof line);
        const char *mnemonic = line + 15;   /* "0013: d1 36    LDC 22" */
        if (strncmp(mnemonic, name, strlen(name)) == 0 &&
            (mnemonic[strlen(name)] == ' ' || mnemonic[strlen(name)] == '\0') && n-- == 0) {
            LineEntry e;
            if (!lines_find(img->lines, rec, at, &e))
                return "(none)";
            snprintf(buf, sizeof buf, "%u:%u %s", e.line, e.col,
                     e.line ? img->lines->procs[e.proc] : "start-up");
            return buf;
        }
    }
    return "(not found)";
}

/* The compiler records, for each instruction, the source it comes from: a
 * procedure's frame code at its name, an operator at the operator, a
 * receive at the port, a call at the called name; the start-up code at no
 * line. Each record has its own list (its main holds its own branch). */
static void compiled_positions(void)
{
    HexImage img;
    CHECK_EQ(compile_program("t.x", farm_like, strlen(farm_like), COMPILE_MEM_DEFAULT,
                             &img, NULL), 0);
    if (!img.lines) {
        check_fail(__FILE__, __LINE__, "no source lines");
        hex_free(&img);
        return;
    }
    CHECK_STR(img.lines->file, "t.x");
    CHECK_EQ(img.lines->count, 2);
    CHECK_STR(where_is(&img, 0, "SETSP", 0), "0:0 start-up");
    CHECK_STR(where_is(&img, 0, "ADJ", 1), "4:6 proc main");      /* main's frame */
    CHECK_STR(where_is(&img, 0, "CALL", 1), "7:8 proc main");     /* twice(3) */
    CHECK_STR(where_is(&img, 0, "DIV", 0), "9:13 proc main");     /* the '/' */
    CHECK_STR(where_is(&img, 0, "PRINT", 0), "9:5 proc main");
    CHECK_STR(where_is(&img, 0, "MUL", 0), "2:12 func twice");
    CHECK_STR(where_is(&img, 1, "IN", 0), "10:7 proc main");      /* 0 ? a */
    CHECK_STR(where_is(&img, 1, "PRINT", 0), "10:14 proc main");
    hex_free(&img);
}

/* A hex file has no source lines. */
static void hex_has_none(void)
{
    HexImage img;
    char err[256];
    CHECK_EQ(hex_parse("0100000000000000 30", 19, "t.hex", 256, &img, err, sizeof err), 0);
    CHECK(img.lines == NULL);
    hex_free(&img);
}

int main(void)
{
    RUN(lookups);
    RUN(shared_lists);
    RUN(compiled_positions);
    RUN(hex_has_none);
    return CHECK_EXIT();
}
