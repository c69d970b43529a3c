/* bin/xc: the compiler's command line (spec/cli.md).
 *
 *     xc [options] prog.x        writes prog.hex beside it
 *     xc -o out.hex prog.x
 *     xc -S prog.x               prints the listing (a file only with -o)
 *     xc -D n=1024 prog.x        with the global val n set to 1024
 *
 * A hex image given to compile (a .hex file, or a file of hex digits) is
 * one line saying so. Exit status 0, or 1 on any error. On a compile error
 * no image is left: one that an earlier run wrote is removed, so that a
 * stale image is never run by mistake; no other file is ever removed. */
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include "common/outfile.h"
#include "compiler/compiler.h"

#define XC_VERSION "1.0"

static const char usage_line[] = "usage: xc [-S] [-o out.hex] [--mem M] [-D NAME=VALUE] prog.x";

static const char help_text[] =
    "xc - the compiler of the parallel language (docs/language.md)\n"
    "\n"
    "Usage:\n"
    "  xc prog.x                 compile prog.x into prog.hex, beside it\n"
    "  xc -o out.hex prog.x      compile prog.x into out.hex\n"
    "  xc -S prog.x              show the compiled code on the screen (no file)\n"
    "  xc -S -o out.hex prog.x   show the code and write out.hex\n"
    "\n"
    "Options:\n"
    "  -o FILE     write the hex image to FILE instead of prog.hex\n"
    "  -S          print an assembly listing: for each processor, one line per\n"
    "              instruction with its address, bytes and meaning, each line\n"
    "              of the source before the instructions made from it\n"
    "  --mem M     words of memory of each processor, from 256 to 268435456\n"
    "              (default 200000); give the emulator the same --mem\n"
    "  -D NAME=VALUE\n"
    "              compile as if the program's global 'val NAME' were VALUE\n"
    "              (an integer: 1024, -3, #FF); repeatable, the last -D of a\n"
    "              name counts; a NAME that is no global val is an error\n"
    "  --help      show this help\n"
    "  --version   show the compiler's version\n"
    "\n"
    "Then run the program with:  bin/emu prog.hex   (or simply bin/emu prog.x)\n"
    "\n"
    "Errors name the file, line and column, like gcc:\n"
    "  prog.x:3:14: error: expected ';' before 'x'\n"
    "then show the line with a caret (^) under the place. When there is any\n"
    "error no hex file is written (an image written before is removed).\n"
    "Exit status: 0 when the program compiled, 1 otherwise.\n";

/* The command line, parsed. */
typedef struct Options {
    const char *input;    /* the .x file */
    const char *output;   /* -o, or NULL */
    int listing;          /* -S */
    uint32_t mem;         /* --mem */
    CompileDefine *defs;  /* -D, in order (argc places) */
    size_t ndefs;
} Options;

/* Reads --mem's value; returns 0, or -1 after a one-line message. */
static int parse_mem(const char *text, uint32_t *mem)
{
    char *end;
    errno = 0;
    unsigned long long v = text[0] >= '0' && text[0] <= '9' ? strtoull(text, &end, 10) : 0;
    if (text[0] < '0' || text[0] > '9' || *end || errno || v < COMPILE_MEM_MIN ||
        v > COMPILE_MEM_MAX) {
        fprintf(stderr, "xc: --mem: '%s' is not a number of words from %d to %d\n", text,
                COMPILE_MEM_MIN, COMPILE_MEM_MAX);
        return -1;
    }
    *mem = (uint32_t)v;
    return 0;
}

/* Parses argv into *o. Returns 0 to go on, 1 when the run is over (help,
 * version) with status 0, or -1 after a message (status 1). */
static int parse_args(int argc, char **argv, Options *o)
{
    int only_files = 0;
    for (int i = 1; i < argc; i++) {
        const char *a = argv[i];
        if (only_files || a[0] != '-' || a[1] == '\0') {
            if (o->input) {
                fprintf(stderr, "xc: more than one input file ('%s' and '%s'); give one "
                        "(%s)\n", o->input, a, usage_line);
                return -1;
            }
            o->input = a;
        } else if (strcmp(a, "--") == 0) {
            only_files = 1;
        } else if (strcmp(a, "--help") == 0 || strcmp(a, "-h") == 0) {
            fputs(help_text, stdout);
            return 1;
        } else if (strcmp(a, "--version") == 0) {
            printf("xc %s (compiler of the parallel language; docs/language.md)\n",
                   XC_VERSION);
            return 1;
        } else if (strcmp(a, "-S") == 0) {
            o->listing = 1;
        } else if (strncmp(a, "-D", 2) == 0) {
            /* -D NAME=VALUE or -DNAME=VALUE, as a C compiler takes it */
            const char *def = a[2] ? a + 2 : i + 1 < argc ? argv[++i] : NULL;
            char err[512];
            if (!def) {
                fprintf(stderr, "xc: option '-D' needs a NAME=VALUE, as in '-D n=1024'\n");
                return -1;
            }
            if (compile_define_parse(def, &o->defs[o->ndefs++], err, sizeof err) != 0) {
                fprintf(stderr, "xc: %s\n", err);
                return -1;
            }
        } else if (strcmp(a, "-o") == 0 || strcmp(a, "--mem") == 0) {
            if (i + 1 >= argc) {
                fprintf(stderr, "xc: option '%s' needs a value: %s\n", a, a[1] == 'o' ?
                        "the output file, as in '-o out.hex'" :
                        "a number of words from 256 to 268435456");
                return -1;
            }
            if (a[1] == 'o')
                o->output = argv[++i];
            else if (parse_mem(argv[++i], &o->mem) != 0)
                return -1;
        } else if (strncmp(a, "--mem=", 6) == 0) {
            if (parse_mem(a + 6, &o->mem) != 0)
                return -1;
        } else {
            fprintf(stderr, "xc: unknown option '%s' (options: -o FILE, -S, --mem M, "
                    "-D NAME=VALUE, --help, --version)\n", a);
            return -1;
        }
    }
    if (!o->input) {
        fprintf(stderr, "xc: no input file (%s; xc --help explains)\n", usage_line);
        return -1;
    }
    return 0;
}

/* prog.x -> prog.hex; any other name gets ".hex" added. Free the result. */
static char *default_output(const char *input)
{
    size_t n = strlen(input);
    char *out = malloc(n + 5);
    if (!out)
        return NULL;
    memcpy(out, input, n + 1);
    if (n > 2 && strcmp(input + n - 2, ".x") == 0 && input[n - 3] != '/')
        out[n - 2] = '\0';
    strcat(out, ".hex");
    return out;
}

/* Writes the hex file whole or not at all: on failure the file of that
 * name is as it was. */
static int write_output(const char *path, const HexImage *img, const Options *o)
{
    OutFile f;
    char err[1024];
    if (outfile_open(&f, path, err, sizeof err) != 0) {
        fprintf(stderr, "xc: %s\n", err);
        return -1;
    }
    if (compile_write_hex(f.f, img, o->input, o->mem, o->defs, o->ndefs) != 0) {
        fprintf(stderr, "xc: cannot write '%s': %s\n", path, strerror(errno));
        outfile_abort(&f);
        return -1;
    }
    if (outfile_commit(&f, err, sizeof err) != 0) {
        fprintf(stderr, "xc: %s\n", err);
        return -1;
    }
    return 0;
}

/* After a compile error: removes the image an earlier run wrote at path,
 * so that a stale image is never run by mistake. Only a regular file that
 * begins as every image xc writes does is removed: a device, a link, a
 * directory or any other file stays as it is. */
static void remove_stale_image(const char *path)
{
    static const char header[] = "# compiled from ";
    char first[sizeof header - 1];
    struct stat st;
    if (lstat(path, &st) != 0 || !S_ISREG(st.st_mode))
        return;
    FILE *f = fopen(path, "rb");
    size_t n = f ? fread(first, 1, sizeof first, f) : 0;
    if (f)
        fclose(f);
    if (n == sizeof first && memcmp(first, header, sizeof first) == 0 && unlink(path) != 0)
        fprintf(stderr, "xc: %s: cannot remove the old output: %s\n", path, strerror(errno));
}

/* Whether `path` is named as a hex image is, "prog.hex", and exists (a
 * missing file is said to be missing, by the read). */
static int named_hex(const char *path)
{
    size_t n = strlen(path);
    return n > 4 && strcmp(path + n - 4, ".hex") == 0 && access(path, F_OK) == 0;
}

/* Whether text is a hex image's: hex digits, white space and '#' comments
 * to the end of the line, with at least one digit (docs/processor.md). No
 * program is: every one has letters beyond a-f, in 'proc main'. */
static int hex_text(const char *text, size_t len)
{
    int digits = 0;
    for (size_t i = 0; i < len; i++) {
        char c = text[i];
        if (c == '#')
            while (i + 1 < len && text[i + 1] != '\n')
                i++;
        else if ((c >= '0' && c <= '9') || (c >= 'a' && c <= 'f') || (c >= 'A' && c <= 'F'))
            digits = 1;
        else if (c != ' ' && c != '\t' && c != '\n' && c != '\r')
            return 0;
    }
    return digits;
}

/* One line for a hex image given to compile, instead of an error for each
 * of its digits; `named` when its name says so (bin/emu compiles a .x
 * file, whatever it holds). */
static void hex_given(const char *path, int named)
{
    if (named)
        fprintf(stderr, "xc: %s is a hex image, a program compiled already: bin/emu runs it "
                "('bin/emu %s'), and xc compiles a program's source, a .x file\n", path, path);
    else
        fprintf(stderr, "xc: %s holds a hex image, a program compiled already, not a "
                "program's source: bin/emu runs it from a file named .hex\n", path);
}

/* Reads and compiles the input as compile_file_with does, but refuses a
 * hex image's text (hex_text) first. Returns the number of errors. */
static int compile_input(const Options *o, HexImage *img)
{
    char err[512];
    size_t len = 0;
    memset(img, 0, sizeof *img);
    char *text = read_whole_file(o->input, &source_input, &len, err, sizeof err);
    if (!text) {
        fprintf(stderr, "xc: %s\n", err);
        return 1;
    }
    int n = 1;
    if (hex_text(text, len))
        hex_given(o->input, 0);
    else
        n = compile_program_with(o->input, text, len, o->mem, o->defs, o->ndefs, img, stderr);
    free(text);
    return n;
}

/* Whether what was written to stdout got there (0), or -1 after a message
 * naming `what` (or nothing, when NULL): stdout is buffered, so a full disk
 * shows only when it is flushed. `errno` is cleared before the writing
 * starts, so that it names the failure. */
static int stdout_written(const char *what)
{
    if (fflush(stdout) == 0 && !ferror(stdout))
        return 0;
    fprintf(stderr, "xc: cannot write %s%sto standard output: %s\n", what ? what : "",
            what ? " " : "", errno ? strerror(errno) : "write error");
    return -1;
}

int main(int argc, char **argv)
{
    Options o = { .mem = COMPILE_MEM_DEFAULT, .defs = calloc((size_t)argc, sizeof *o.defs) };
    if (!o.defs) {
        fprintf(stderr, "xc: out of memory\n");
        return 1;
    }
    errno = 0;
    int r = parse_args(argc, argv, &o);
    if (r != 0) {
        free(o.defs);
        return r > 0 && stdout_written(NULL) == 0 ? 0 : 1;
    }
    if (named_hex(o.input)) {
        hex_given(o.input, 1);
        free(o.defs);
        return 1;
    }
    char *own = NULL;
    const char *out = o.output;
    if (!out && !o.listing)
        out = own = default_output(o.input);
    if (!o.output && !o.listing && !out) {
        fprintf(stderr, "xc: out of memory\n");
        free(o.defs);
        return 1;
    }
    if (out && outfile_same(out, o.input)) {
        fprintf(stderr, "xc: the output file '%s' would overwrite the source\n", out);
        free(own);
        free(o.defs);
        return 1;
    }
    HexImage img;
    int status = 0;
    if (compile_input(&o, &img) != 0) {
        if (out)
            remove_stale_image(out);
        status = 1;
    } else {
        errno = 0;
        if (o.listing) {
            int rc = compile_write_listing(stdout, &img);
            if (stdout_written("the listing") != 0 || rc != 0)
                status = 1;
        }
        if (out && write_output(out, &img, &o) != 0)
            status = 1;
        hex_free(&img);
    }
    free(own);
    free(o.defs);
    return status;
}
