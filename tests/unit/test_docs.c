/* The examples of docs/language.md are tested: every block fenced as ```x
 * is a whole program that must compile; when an ```output block follows,
 * the program is run on the machine double (machine_double.h) and must
 * print exactly that; when a ```fault block follows, it must stop with a
 * fault. Every ```x-error block must fail to compile with exactly the
 * messages of the ```errors block after it. Programs are named example.x. */
#include <stdlib.h>
#include <string.h>

#include "compiler/compiler.h"
#include "tests/check.h"
#include "tests/unit/machine_double.h"

static const char *doc_path = "docs/language.md";

/* Newlines in [from, to): to number the examples by their line. */
static int count_lines(const char *from, const char *to)
{
    int n = 0;
    for (; from < to; from++)
        n += *from == '\n';
    return n;
}

/* The next fenced block at or after *at: its tag (after ```), its body and
 * the line it starts on (*line counts the lines up to *at). Returns 0 when
 * there is none. */
static int next_block(const char **at, char *tag, size_t tag_size, char **body, int *line,
                      int *start)
{
    const char *p = *at;
    while ((p = strstr(p, "```")) != NULL && p != *at && p[-1] != '\n')
        p += 3;
    if (!p)
        return 0;
    const char *tag_end = strchr(p, '\n');
    const char *close = tag_end ? strstr(tag_end, "\n```") : NULL;
    if (!close)
        return 0;
    snprintf(tag, tag_size, "%.*s", (int)(tag_end - p - 3), p + 3);
    size_t n = (size_t)(close + 1 - (tag_end + 1));
    *body = malloc(n + 1);
    memcpy(*body, tag_end + 1, n);
    (*body)[n] = '\0';
    *start = *line + count_lines(*at, p);
    *line = *start + count_lines(p, close + 4);
    *at = close + 4;
    return 1;
}

/* Compiles a program; returns the number of errors, with the messages. */
static int compile_text(const char *text, HexImage *img, char **messages)
{
    size_t size = 0;
    FILE *f = open_memstream(messages, &size);
    int n = compile_program("example.x", text, strlen(text), COMPILE_MEM_DEFAULT, img, f);
    fclose(f);
    return n;
}

/* Checks one example program against the block that follows it (if any). */
static void check_example(const char *tag, const char *program, const char *next_tag,
                          const char *next_body, int line)
{
    HexImage img;
    char *messages = NULL, name[64];
    int errors = compile_text(program, &img, &messages);
    snprintf(name, sizeof name, "docs_example_at_line_%d", line);
    check_failures_in_test = 0;
    if (strcmp(tag, "x-error") == 0) {     /* the exact messages, carets and all */
        CHECK(errors > 0);
        CHECK_STR(messages, strcmp(next_tag, "errors") == 0 ? next_body : "(no errors block)");
    } else if (errors) {
        printf("  does not compile:\n%s", messages);
        check_failures_in_test++;
    } else if (strcmp(next_tag, "output") == 0 || strcmp(next_tag, "fault") == 0) {
        MdRun *r = malloc(sizeof *r);
        md_run(&img, COMPILE_MEM_DEFAULT, 10000000, r);
        if (strcmp(next_tag, "fault") == 0) {
            CHECK(r->faulted);
        } else {
            CHECK(!r->faulted && r->finished);
            CHECK_STR(r->out, next_body);
        }
        free(r);
    }
    if (!errors)
        hex_free(&img);
    free(messages);
    printf("%s %s\n", check_failures_in_test ? "FAIL" : "PASS", name);
    if (check_failures_in_test)
        check_failed_tests++;
}

/* All fenced blocks are read first; an example is then paired with the
 * block right after it. */
enum { MAX_BLOCKS = 256 };

int main(void)
{
    char err[256];
    size_t len;
    char *doc = read_whole_file(doc_path, &source_input, &len, err, sizeof err);
    if (!doc) {
        printf("FAIL docs: %s\n", err);
        return 1;
    }
    static char tags[MAX_BLOCKS][32];
    char *bodies[MAX_BLOCKS];
    int lines[MAX_BLOCKS], n = 0, line = 1, examples = 0;
    for (const char *at = doc; n < MAX_BLOCKS &&
         next_block(&at, tags[n], sizeof tags[n], &bodies[n], &line, &lines[n]); n++)
        ;
    for (int i = 0; i < n; i++) {
        if (strcmp(tags[i], "x") != 0 && strcmp(tags[i], "x-error") != 0)
            continue;
        const char *next = i + 1 < n ? tags[i + 1] : "";
        int paired = !strcmp(next, "output") || !strcmp(next, "fault") || !strcmp(next, "errors");
        check_example(tags[i], bodies[i], paired ? tags[i + 1] : "", paired ? bodies[i + 1] : "",
                      lines[i]);
        examples++;
    }
    for (int i = 0; i < n; i++)
        free(bodies[i]);
    printf("%s docs_has_examples (%d)\n", examples >= 10 ? "PASS" : "FAIL", examples);
    free(doc);
    return CHECK_EXIT() || examples < 10;
}
