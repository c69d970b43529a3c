/* The conformance cases of tests/data/conformance (copied from
 * shared/conformance/cases; 061-070 use multicast): each is run with its options, through the same
 * option parser, machine and report writer as bin/emu, and must give exactly
 * the expected exit status, PRINT lines (in order), closing lines and the
 * values of the listed JSON keys (as the cases' README asks: the rest of the
 * report is the emulator's own). A case that cannot run at all (its
 * expectation or image unreadable, its options refused, its machine not
 * built, e.g. for a routing that does not exist) is a failure that says why:
 * a case must never drop out of the count.
 *
 * Each case is run again with 2 and with 3 threads and once in pure lockstep
 * (no processor running ahead); everything it prints -- the program's
 * output, the whole text report and the JSON -- must be byte-identical to the
 * run with one thread. The threaded runs set parallel_min to 1, so that even
 * in these small machines the processor stage (and, with two planes, the
 * network's and the router's two planes) is split across the threads
 * (make test: those of a quarter of the cases, run_case). Every run checks
 * the network's invariants after every timestep. */
#include <stdlib.h>

#include "cpu/hex.h"
#include "emu/machine.h"
#include "emu/options.h"
#include "emu/report.h"
#include "tests/check.h"

typedef struct Expected {
    char options[512];
    int exit_status;
    char json[2048];
    char *stdout_text;     /* the PRINT lines and the two closing lines */
} Expected;

static int read_expected(const char *path, Expected *e)
{
    char err[256];
    size_t len;
    char *text = read_whole_file(path, &source_input, &len, err, sizeof err);
    if (!text)
        return -1;
    char *line = text, *body = strstr(text, "\nstdout:\n");
    if (!body) {
        free(text);
        return -1;
    }
    *body = 0;
    e->stdout_text = strdup(body + 9);
    for (char *next; line && *line; line = next) {
        next = strchr(line, '\n');
        if (next)
            *next++ = 0;
        if (!strncmp(line, "options: ", 9))
            snprintf(e->options, sizeof e->options, "%s", line + 9);
        else if (!strncmp(line, "exit: ", 6))
            e->exit_status = atoi(line + 6);
        else if (!strncmp(line, "json: ", 6))
            snprintf(e->json, sizeof e->json, "%s", line + 6);
    }
    free(text);
    return 0;
}

typedef struct Capture { FILE *f; } Capture;

static void on_print(void *ctx, uint64_t t, uint32_t proc, int32_t value)
{
    (void)t;
    fprintf(((Capture *)ctx)->f, "p%u: %d\n", proc, value);
}

/* Each "key": value of the expected JSON must appear, with the same value,
 * in the report's JSON. */
static void check_json(const char *name, const char *expected, const char *actual)
{
    const char *p = expected;
    while ((p = strchr(p, '"')) != NULL) {
        const char *key_end = strchr(p + 1, '"');
        if (!key_end)
            break;
        const char *value = key_end + 3;         /* skip '": ' */
        size_t vlen = strcspn(value, ",}");
        char want[160];
        snprintf(want, sizeof want, "%.*s%.*s", (int)(value - p), p, (int)vlen, value);
        const char *hit = strstr(actual, want);
        if (!hit || (hit[strlen(want)] != ',' && hit[strlen(want)] != '}')) {
            printf("  %s: expected %s\n", name, want);
            check_fail(__FILE__, __LINE__, "a JSON value differs");
        }
        p = value + vlen;
    }
}

/* Everything one run printed. */
typedef struct Output { char *prints, *text, *json; int status; } Output;

static void output_free(Output *o)
{
    free(o->prints);
    free(o->text);
    free(o->json);
}

/* One report of the finished run, as a string. */
static char *report_string(Machine *m, const ReportOptions *ro)
{
    char *text = NULL;
    size_t len = 0;
    FILE *f = open_memstream(&text, &len);
    report_write(f, m, ro);
    fclose(f);
    return text;
}

/* Where the last two lines of text (which ends with a newline) start. */
static const char *last_two_lines(const char *text)
{
    const char *p = text + strlen(text);
    int newlines = 0;
    while (p > text && !(p[-1] == '\n' && ++newlines == 3))
        p--;
    return p;
}

/* Runs the built machine to its end and checks it against the case's
 * expectation; *out is the memory stream cap writes to. Keeps everything
 * the run printed in *result. */
static void run_and_check(const char *name, Machine *m, Capture *cap, char **out,
                          const Expected *e, Output *result)
{
    while (machine_step(m) == END_RUNNING)
        ;
    fflush(cap->f);
    result->prints = strdup(*out);
    ReportOptions quiet = { .quiet = true }, js = { .json = true }, full = { .histogram = true };
    /* What a case expects of stdout: the PRINT lines, then the last two
     * lines of the report (which -q may precede with halt statuses). */
    char *short_report = report_string(m, &quiet);
    fputs(last_two_lines(short_report), cap->f);
    free(short_report);
    fflush(cap->f);
    result->json = report_string(m, &js);
    result->text = report_string(m, &full);
    result->status = machine_exit_status(m->end);
    if (m->end == END_INTERNAL)
        printf("  %s: internal error: %s\n", name, m->internal_error);
    CHECK_EQ(result->status, e->exit_status);
    if (strcmp(*out, e->stdout_text) != 0) {
        printf("  %s: output differs:\n--- expected\n%s--- got\n%s", name, e->stdout_text, *out);
        check_fail(__FILE__, __LINE__, "stdout differs");
    }
    check_json(name, e->json, result->json);
}

/* Runs case n once (with `threads` threads, running ahead or in lockstep)
 * and checks it. Returns 0, or -1 when the case cannot run at all, after a
 * line that names the case, the run and why. */
static int run_case_with(int n, unsigned threads, bool run_ahead, Output *result)
{
    char path[128], name[32], run[32], err[1024];
    Expected e = { 0 };
    snprintf(name, sizeof name, "case%03d", n);
    snprintf(run, sizeof run, "%u thread%s%s", threads, threads == 1 ? "" : "s",
             run_ahead ? "" : ", lockstep");
    memset(result, 0, sizeof *result);
    snprintf(path, sizeof path, "tests/data/conformance/%s.expected", name);
    if (read_expected(path, &e) != 0) {
        printf("  %s: cannot run: cannot read %s\n", name, path);
        return -1;
    }
    /* argv: emu <options> --json file.hex */
    char *argv[64], *save = NULL;
    int argc = 0;
    argv[argc++] = "emu";
    for (char *tok = strtok_r(e.options, " ", &save); tok && argc < 60; tok = strtok_r(NULL, " ", &save))
        argv[argc++] = tok;
    snprintf(path, sizeof path, "tests/data/conformance/%s.hex", name);
    argv[argc++] = "--json";
    argv[argc++] = path;
    EmuOptions opt;
    HexImage img = { 0 };
    int rc = -1;
    if (options_parse(argc, argv, &opt, err, sizeof err) != 0) {
        printf("  %s (%s): cannot run: its options are refused: %s\n", name, run, err);
    } else if (hex_read_file(path, opt.machine.mem_words, &img, err, sizeof err) != 0) {
        printf("  %s (%s): cannot run: %s\n", name, run, err);
    } else {
        opt.machine.check_invariants = true;
        opt.machine.threads = threads;
        opt.machine.run_ahead = run_ahead;
        opt.machine.parallel_min = 1;
        char *out = NULL;
        size_t out_len = 0;
        Capture cap = { open_memstream(&out, &out_len) };
        MachineObserver obs = { &cap, on_print, NULL, NULL };
        Machine m;
        if (machine_init(&m, &opt.machine, &img, &obs, err, sizeof err) != 0) {
            printf("  %s (%s): cannot run: its machine is not built: %s\n", name, run, err);
        } else {
            run_and_check(name, &m, &cap, &out, &e, result);
            machine_free(&m);
            rc = 0;
        }
        fclose(cap.f);
        free(out);
    }
    free(e.stdout_text);
    hex_free(&img);
    options_free(&opt);
    return rc;
}

/* Runs case n with one thread, then the variants that must print the same.
 * Returns 0, or -1 when some run of it could not start. make test runs the
 * threaded variants of every fourth case only, 2 threads and 3 in turn
 * (cases 1, 9, 17, ... with 2, 5, 13, 21, ... with 3): the threads of a run
 * wait for each other every timestep, which on a busy machine of two cores
 * takes a thousand times as long as the timestep, and both variants of every
 * case took half a minute there. make check runs both of every case
 * (TEST_FULL). */
static int run_case(int n)
{
    Output one, many;
    if (run_case_with(n, 1, true, &one) != 0)
        return -1;
    int rc = 0;
    /* variant 1: lockstep; 2, 3: threads */
    for (unsigned variant = 1; variant <= 3; variant++) {
        if (variant > 1 && !test_full() && (n % 4 != 1 || variant != 2 + (unsigned)(n % 8 == 5)))
            continue;
        unsigned threads = variant == 1 ? 1 : variant;
        if (run_case_with(n, threads, variant != 1, &many) != 0) {
            rc = -1;
            continue;
        }
        if (strcmp(one.prints, many.prints) || strcmp(one.text, many.text) ||
            strcmp(one.json, many.json) || one.status != many.status) {
            printf("  case%03d: %s differs\n", n, variant == 1 ? "lockstep" : "--threads");
            check_fail(__FILE__, __LINE__, "output independent of threads and run-ahead");
        }
        output_free(&many);
    }
    output_free(&one);
    return rc;
}

/* Cases 061-070 use multicast, 071-090 virtual channels (--vcs), some
 * both, 091-110 messages of several words (SEND, --switching). */
enum { CASES = 110 };

int main(void)
{
    for (int n = 1; n <= CASES; n++) {
        char name[32];
        snprintf(name, sizeof name, "case%03d", n);
        check_failures_in_test = 0;
        bool failed = run_case(n) != 0 || check_failures_in_test;
        printf("%s %s\n", failed ? "FAIL" : "PASS", name);
        if (failed)
            check_failed_tests++;
    }
    return CHECK_EXIT();
}
