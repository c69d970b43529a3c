/* Fuzzer of the compiler's front end: random text, soups of the language's
 * tokens (multicast's lists and `all`, messages' lists and slices, and
 * the C habits the parser names among them), mutations of real
 * programs (programs/ and tests/programs/) and deeply nested inputs must never crash, hang or break the compiler's
 * promises, with or without -D (a quarter of the inputs get one or two, of
 * names that the programs use or not, and values in range or not):
 *   - a rejected input gets messages that each start "fuzz.x:L:C: error: "
 *     with L and C inside the input (or "fuzz.x: error: -D " about a -D,
 *     or are a note "fuzz.x:L:C: note: "), and none is an internal error;
 *   - an accepted input gets one record per processor, each with entry word
 *     1, mem[0] = M - G, every instruction complete and in its fewest bytes
 *     and every branch landing on an instruction, and its hex file reads back
 *     to the same records.
 *
 *   fuzz_compiler --iterations N   N inputs from fixed seeds (make test, check)
 *   fuzz_compiler --forever        until interrupted (make fuzz); each input
 *                                  is first written to fuzz-compiler-crash.x
 *   fuzz_compiler --seed S         writes input S to fuzz-compiler-crash.x
 * An input that breaks a promise is written to fuzz-compiler-crash.x; make it
 * a regression test by adding it to tests/data/compiler_regress/, which
 * tests/cli/xc_regress.sh compiles. Open-ended, the input is written before
 * it is compiled, so that one that crashes the fuzzer stays in the file;
 * one that runs for HANG_SECONDS is a hang, and stops the fuzzer with
 * status 1, the file kept; interrupted (SIGINT, SIGTERM), the fuzzer
 * removes the file, which then holds no failure, and dies of the signal. */
#include <dirent.h>
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>
#include <unistd.h>

#include "compiler/compiler.h"
#include "cpu/isa.h"
#include "tests/fuzz/fuzz.h"


enum { CAP = 64 * 1024, MAX_SEEDS = 64 };

static char *seeds[MAX_SEEDS];
static size_t seed_len[MAX_SEEDS], nseeds;

static const char *const tokens[] = {
    "val", "var", "array", "proc", "func", "is", "skip", "stop", "return", "if",
    "then", "else", "while", "do", "network", "for", "print", "true", "false", "and",
    "or", "xor", "procid", "nprocs", "timestep", ":=", "~=", "<=", ">=", "<<", ">>",
    "+", "-", "*", "/", "%", "=", "<", ">", "~", ":", "!", "?", ";", ",", "(", ")",
    "[", "]", "{", "}", "&", "main", "x", "y", "a", "f", "i", "n", "0", "1", "22",
    "#FF", "#", "4294967295", "4294967296", "'a'", "'\\n'", "''", "'ab", "'\\q'",
    "| comment\n", "\n", "\t", "@", "\"", "proc main() is", "func f(val x) is",
    "array a[4];", "var x;", "val n = 3;", "network i for n do", "x := 1",
    "all", "[1, 2] ! 3", "all : 1 ! x", "[x] : x ! 2",
    "1 ! [x, 2]", "x : 1 ! a[0 for 2]", "0 ? a[x for 3]", "a[1 for", "for x]", "! [",
    "int", "unsigned", "int x;", "var a[2];", "for (", "for", "0x1F", "//", "/*", "*/",
    "\"s\"", "<>", "procedure main() is", "function f(val x) is", "void main(", "var print;",
    "'\xC3\xA9'", "\xEF\xBB\xBF", "a[5]", "a[-1]", "1 / 0", "% 0",
};

/* The -D a compilation may get: vals of programs/, other names, values
 * that make sizes and counts too small or too large. */
static const char *const define_args[] = {
    "n=1", "n=0", "n=-1", "n=16", "n=1048577", "n=#FFFFFFFF", "x=3", "a=2", "main=1",
    "i=7", "k=2147483648", "c0=5", "laps=0", "m=4", "workers=1000", "rounds=40",
};

/* Appends s to buf (of length *n) if it fits. */
static void add(char *buf, size_t *n, const char *s, size_t len)
{
    if (*n + len < CAP) {
        memcpy(buf + *n, s, len);
        *n += len;
    }
}

static void add_token(char *buf, size_t *n)
{
    const char *t = tokens[fuzz_below(sizeof tokens / sizeof tokens[0])];
    add(buf, n, t, strlen(t));
    add(buf, n, fuzz_below(5) ? " " : "\n", 1);
}

/* Deeply nested constructs, usually past the 1,000 limit, closed or not. */
static size_t make_nested(char *buf)
{
    static const char *const open[] = { "(", "{ ", "if x then ", "while x do ", "a[",
                                        "f(", "-(", "network { " };
    static const char *const close[] = { ")", " }", "", "", "]", ")", ")", " }" };
    size_t n = 0, depth = 500 + fuzz_below(3000);
    int kind = (int)fuzz_below(8), mixed = fuzz_below(3) == 0;
    uint8_t *stack = malloc(depth);
    add(buf, &n, "proc main() is print ", 21);
    for (size_t i = 0; i < depth; i++) {
        stack[i] = (uint8_t)(mixed ? fuzz_below(8) : (size_t)kind);
        add(buf, &n, open[stack[i]], strlen(open[stack[i]]));
    }
    add(buf, &n, "1", 1);
    for (size_t i = depth; i-- > 0 && fuzz_below(50) != 0;)
        add(buf, &n, close[stack[i]], strlen(close[stack[i]]));
    free(stack);
    return n;
}

/* A real program with a few edits. */
static size_t make_mutant(char *buf)
{
    size_t s = fuzz_below(nseeds), n = seed_len[s] < CAP / 2 ? seed_len[s] : CAP / 2;
    memcpy(buf, seeds[s], n);
    for (int e = 1 + (int)fuzz_below(5); e > 0 && n > 0; e--) {
        size_t at = fuzz_below(n), len = 1 + fuzz_below(n - at < 40 ? n - at : 40);
        switch (fuzz_below(6)) {
        case 0: memmove(buf + at, buf + at + len, n - at - len); n -= len; break;
        case 1: if (n + len < CAP) { memmove(buf + at + len, buf + at, n - at); n += len; } break;
        case 2: buf[at] = (char)fuzz_below(256); break;
        case 3: n = at; break;
        default: {
            char tmp[CAP / 2];
            size_t m = n - at;
            memcpy(tmp, buf + at, m);
            n = at;
            add_token(buf, &n);
            add(buf, &n, tmp, m);
            break;
        }
        }
    }
    return n;
}

/* One input into buf; returns its length. */
static size_t make_input(char *buf)
{
    size_t n = 0;
    switch (fuzz_below(10)) {
    case 0:                                     /* random bytes */
        n = fuzz_below(2000);
        for (size_t i = 0; i < n; i++)
            buf[i] = (char)(fuzz_below(4) ? " \n;:=(){}[]!?&|#'abcdefxyz0123456789+-*/<>~"[fuzz_below(44)]
                                     : (int)fuzz_below(256));
        return n;
    case 1: case 2: case 3:                     /* a soup of tokens */
        for (size_t k = fuzz_below(400); k > 0; k--)
            add_token(buf, &n);
        return n;
    case 4:
        return make_nested(buf);
    default:
        return nseeds ? make_mutant(buf) : 0;
    }
}

/* Every line of the messages is a message "fuzz.x:L:C: error: ..." with L
 * and C inside the input, a source line, a caret line, or the closing note;
 * none is an internal error. */
static int messages_ok(const char *msgs, const char *text, size_t n)
{
    unsigned lines = 1;
    for (size_t i = 0; i < n; i++)
        lines += text[i] == '\n';
    if (!*msgs || strstr(msgs, "internal compiler error"))
        return 0;
    for (const char *l = msgs; *l; l = strchr(l, '\n') + 1) {
        unsigned line, col;
        int used = 0;
        if (l[0] == ' ' || strncmp(l, "fuzz.x: note: stopped after", 27) == 0 ||
            strncmp(l, "fuzz.x: error: out of memory", 28) == 0 ||
            strncmp(l, "fuzz.x: error: -D ", 18) == 0) {
            /* a source or caret line, a closing note, or about a -D */
        } else {
            /* (sscanf counts the numbers read, whether the words after them match or not) */
            if (sscanf(l, "fuzz.x:%u:%u: error: %n", &line, &col, &used) != 2 || !used)
                sscanf(l, "fuzz.x:%u:%u: note: %n", &line, &col, &used);
            if (!used || line < 1 || line > lines || col < 1 || col > n + 1)
                return 0;
        }
        if (!strchr(l, '\n'))
            return 0;
    }
    return 1;
}

/* The promises about one record of an accepted program. */
static int record_ok(const HexRecord *r, uint32_t mem)
{
    static const uint8_t startup[] = { 0x30, 0x60, 0xfd, 0xef, 0xae, 0x22, 0x11, 0x53 };
    if (r->entry != 1 || r->length < 15 || memcmp(r->image + 4, startup, sizeof startup) != 0)
        return 0;
    uint32_t sp0 = r->image[0] | r->image[1] << 8 | r->image[2] << 16 |
                   (uint32_t)r->image[3] << 24;
    if (sp0 > mem || sp0 < (r->length + 3) / 4 + 64)
        return 0;
    uint8_t *start = calloc(r->length + 1, 1);
    int ok = 1;
    for (size_t pos = 4; pos < r->length && ok;) {
        IsaInsn in;
        pos += isa_decode(r->image, r->length, pos, &in);
        start[in.addr] = 1;
        ok = in.complete && in.length == isa_encoded_length(in.op, in.operand);
    }
    for (size_t pos = 4; pos < r->length && ok;) {
        IsaInsn in;
        pos += isa_decode(r->image, r->length, pos, &in);
        if (in.op == OP_BR || in.op == OP_BRT || in.op == OP_LDAP) {
            uint32_t target = in.addr + in.length + in.operand;
            ok = target >= 4 && target < r->length && start[target];
        }
    }
    free(start);
    return ok;
}

/* The image's records, and its hex file read back. */
static int image_ok(const HexImage *img, uint32_t mem)
{
    if (img->count < 1 || img->count > (1u << 20))
        return 0;
    for (uint32_t p = 0; p < img->count; p++)
        if (!record_ok(&img->records[p], mem))
            return 0;
    char *buf = NULL, err[256];
    size_t size = 0;
    FILE *f = open_memstream(&buf, &size);
    int ok = compile_write_hex(f, img, "fuzz.x", mem, NULL, 0) == 0;
    fclose(f);
    HexImage back;
    ok = ok && hex_parse(buf, size, "fuzz.hex", mem, &back, err, sizeof err) == 0;
    if (ok) {
        ok = back.count == img->count;
        for (uint32_t p = 0; ok && p < img->count; p++)
            ok = back.records[p].length == img->records[p].length &&
                 memcmp(back.records[p].image, img->records[p].image,
                        img->records[p].length) == 0;
        hex_free(&back);
    }
    free(buf);
    return ok;
}

/* Compiles one input; returns whether every promise held. */
static int check_one(const char *text, size_t n, uint32_t mem, const CompileDefine *defs,
                     size_t ndefs, int *accepted)
{
    char *msgs = NULL;
    size_t size = 0;
    HexImage img;
    FILE *f = open_memstream(&msgs, &size);
    int errors = compile_program_with("fuzz.x", text, n, mem, defs, ndefs, &img, f);
    fclose(f);
    int ok = errors >= 0;
    *accepted = errors == 0;
    if (errors > 0)
        ok = messages_ok(msgs, text, n) && img.count == 0;
    else if (errors == 0) {
        ok = size == 0 && image_ok(&img, mem);
        hex_free(&img);
    }
    free(msgs);
    return ok;
}

/* Reads the seed programs: the .x files of programs/ and tests/programs/. */
static void read_seeds(const char *dir)
{
    DIR *d = opendir(dir);
    if (!d)
        return;
    for (struct dirent *e; (e = readdir(d)) != NULL && nseeds < MAX_SEEDS;) {
        size_t len = strlen(e->d_name);
        char path[512], err[256];
        if (len < 3 || strcmp(e->d_name + len - 2, ".x") != 0)
            continue;
        snprintf(path, sizeof path, "%s/%s", dir, e->d_name);
        if ((seeds[nseeds] = read_whole_file(path, &source_input, &seed_len[nseeds], err, sizeof err)))
            nseeds++;
    }
    closedir(d);
}

#define CRASH_FILE "fuzz-compiler-crash.x"

/* An input compiles in milliseconds, even under the sanitizers. */
enum { HANG_SECONDS = 20 };

static void on_hang(int sig)
{
    (void)sig;
    static const char msg[] = "FAIL fuzz_compiler: an input did not finish (a hang); "
                              "written to " CRASH_FILE "\n";
    ssize_t written = write(STDOUT_FILENO, msg, sizeof msg - 1);
    (void)written;
    _exit(1);
}

static void on_stop(int sig)
{
    unlink(CRASH_FILE);
    signal(sig, SIG_DFL);
    raise(sig);
}

static void save(const char *buf, size_t n)
{
    FILE *f = fopen(CRASH_FILE, "wb");
    if (f) {
        fwrite(buf, 1, n, f);
        fclose(f);
    }
}

int main(int argc, char **argv)
{
    long iterations = 2000, only = -1;
    int forever = 0;
    uint64_t seed = 4242;
    if (argc >= 2 && strcmp(argv[1], "--forever") == 0) {
        forever = 1;
        seed = (uint64_t)time(NULL);
        signal(SIGALRM, on_hang);
        signal(SIGINT, on_stop);
        signal(SIGTERM, on_stop);
    } else if (argc >= 3 && strcmp(argv[1], "--iterations") == 0) {
        iterations = atol(argv[2]);
    } else if (argc >= 3 && strcmp(argv[1], "--seed") == 0) {
        only = atol(argv[2]);
    }
    read_seeds("programs");
    read_seeds("tests/programs");
    char *buf = malloc(CAP);
    long accepted = 0;
    for (long i = only >= 0 ? only - (long)seed : 0; forever || only >= 0 || i < iterations; i++) {
        fuzz_rng = seed + (uint64_t)i;
        size_t n = make_input(buf);
        uint32_t mem = fuzz_below(4) ? COMPILE_MEM_DEFAULT : (uint32_t)(256 + fuzz_below(2000));
        CompileDefine defs[2];
        size_t ndefs = fuzz_below(4) ? 0 : 1 + fuzz_below(2);
        char err[256], shown[64] = "";
        for (size_t d = 0; d < ndefs; d++) {
            const char *arg = define_args[fuzz_below(sizeof define_args / sizeof *define_args)];
            if (compile_define_parse(arg, &defs[d], err, sizeof err) != 0) {
                printf("FAIL fuzz_compiler: -D %s: %s\n", arg, err);
                return 1;
            }
            snprintf(shown + strlen(shown), sizeof shown - strlen(shown), " -D %s", arg);
        }
        int ok_accepted;
        if (forever || only >= 0)
            save(buf, n);
        if (only >= 0) {
            if (ndefs)
                fprintf(stderr, "fuzz_compiler: compile it with%s\n", shown);
            break;
        }
        if (forever)
            alarm(HANG_SECONDS);
        if (!check_one(buf, n, mem, defs, ndefs, &ok_accepted)) {
            save(buf, n);
            printf("FAIL fuzz_compiler: input %ld (seed %llu, --mem %u%s) broke a promise; "
                   "written to " CRASH_FILE "\n", i, (unsigned long long)(seed + i), mem,
                   shown);
            return 1;
        }
        accepted += ok_accepted;
        if (forever && i % 10000 == 0)
            fprintf(stderr, "fuzz_compiler: %ld inputs, %ld accepted\n", i, accepted);
    }
    if (only < 0)
        printf("PASS fuzz_compiler (%ld inputs from seed %llu, %ld accepted)\n", iterations,
               (unsigned long long)seed, accepted);
    for (size_t s = 0; s < nseeds; s++)
        free(seeds[s]);
    free(buf);
    return 0;
}
