/* Self-checking programs: every tests/programs/NAME.x is compiled and run
 * on the machine double (machine_double.h), and what it prints must equal
 * tests/programs/NAME.expected. Each program prints what it computes, so a
 * wrong instruction anywhere shows up as a wrong line.
 *
 *   test_programs            runs them all (make test)
 *   test_programs FILE.x     runs one and prints its output, for writing
 *                            a new .expected */
#include <dirent.h>
#include <stdlib.h>
#include <string.h>

#include "compiler/compiler.h"
#include "tests/check.h"
#include "tests/unit/machine_double.h"

enum { MAX_STEPS = 20000000 };

static const char *program_dir = "tests/programs";

/* Compiles and runs one program; returns 0, or -1 with a reason in r->fault. */
static int run_program(const char *path, MdRun *r)
{
    HexImage img;
    if (compile_file(path, COMPILE_MEM_DEFAULT, &img, stdout, "test_programs") != 0) {
        memset(r, 0, sizeof *r);
        snprintf(r->fault, sizeof r->fault, "does not compile");
        return -1;
    }
    md_run(&img, COMPILE_MEM_DEFAULT, MAX_STEPS, r);
    hex_free(&img);
    if (r->faulted)
        return -1;
    if (!r->finished) {
        snprintf(r->fault, sizeof r->fault, "still running after %d timesteps", MAX_STEPS);
        return -1;
    }
    return 0;
}

/* One program: compiled, run and compared with its .expected; one PASS or
 * FAIL line named after it. */
static void check_one(const char *name)
{
    char path[512], expected_path[512], err[256];
    snprintf(path, sizeof path, "%s/%s", program_dir, name);
    snprintf(expected_path, sizeof expected_path, "%.*s.expected", (int)strlen(path) - 2, path);
    size_t len;
    char *expected = read_whole_file(expected_path, &source_input, &len, err, sizeof err);
    MdRun *r = malloc(sizeof *r);
    check_failures_in_test = 0;
    if (!expected) {
        check_fail(__FILE__, __LINE__, err);
    } else if (run_program(path, r) != 0) {
        check_fail(__FILE__, __LINE__, r->fault);
    } else if (strcmp(r->out, expected) != 0) {
        printf("  %s printed:\n%s  expected:\n%s", name, r->out, expected);
        check_failures_in_test++;
    }
    printf("%s program_%.*s\n", check_failures_in_test ? "FAIL" : "PASS",
           (int)strlen(name) - 2, name);
    if (check_failures_in_test)
        check_failed_tests++;
    free(expected);
    free(r);
}

/* Programs run in name order, so the output is the same on every host. */
static int by_name(const void *a, const void *b)
{
    return strcmp(*(char *const *)a, *(char *const *)b);
}

int main(int argc, char **argv)
{
    if (argc == 2) {
        MdRun *r = malloc(sizeof *r);
        int rc = run_program(argv[1], r);
        fputs(r->out, stdout);
        if (rc != 0)
            fprintf(stderr, "%s: %s\n", argv[1], r->fault);
        free(r);
        return rc != 0;
    }
    DIR *dir = opendir(program_dir);
    char *names[1024];
    size_t n = 0;
    if (!dir) {
        printf("FAIL programs: cannot open %s\n", program_dir);
        return 1;
    }
    for (struct dirent *e; (e = readdir(dir)) != NULL && n < 1024;) {
        size_t len = strlen(e->d_name);
        if (len > 2 && strcmp(e->d_name + len - 2, ".x") == 0)
            names[n++] = strdup(e->d_name);
    }
    closedir(dir);
    qsort(names, n, sizeof *names, by_name);
    for (size_t i = 0; i < n; i++) {
        check_one(names[i]);
        free(names[i]);
    }
    return CHECK_EXIT();
}
