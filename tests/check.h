/* A minimal unit-test harness shared by every unit-test program in tests/unit.
 *
 * A test is a function `static void name(void)` that makes CHECKs. Each
 * program's main() runs its tests with RUN(name); every test prints one line,
 * "PASS name" or "FAIL name", after the failed checks' messages, and
 * tests/run.sh adds those lines up into "N passed, N failed". A program exits
 * non-zero when any test failed, so it can also be run on its own. */
#ifndef TESTS_CHECK_H
#define TESTS_CHECK_H

#include <inttypes.h>
#include <stdbool.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

/* Whether the long property runs go at their full size: under make check
 * (TEST_FULL=1), where the sanitizers and the invariants look at every
 * step of them. make test runs a sample of each, which tests/README.md
 * names. */
static inline bool test_full(void)
{
    const char *s = getenv("TEST_FULL");
    return s && *s && strcmp(s, "0") != 0;
}

static int check_failures_in_test; /* failed checks in the running test */
static int check_failed_tests;     /* failed tests in this program */

enum { CHECK_MAX_MESSAGES = 12 };  /* failed checks shown per test */

static inline int check_should_print(void)
{
    check_failures_in_test++;
    if (check_failures_in_test == CHECK_MAX_MESSAGES + 1)
        printf("  (more failed checks in this test are not shown)\n");
    return check_failures_in_test <= CHECK_MAX_MESSAGES;
}

static inline void check_fail(const char *file, int line, const char *what)
{
    if (check_should_print())
        printf("  %s:%d: check failed: %s\n", file, line, what);
}

/* CHECK(cond): the condition must hold. */
#define CHECK(cond) \
    do { if (!(cond)) check_fail(__FILE__, __LINE__, #cond); } while (0)

/* CHECK_EQ(a, b): two integers must be equal; both values are printed. */
#define CHECK_EQ(a, b) do { \
        long long check_a_ = (long long)(a), check_b_ = (long long)(b); \
        if (check_a_ != check_b_) { \
            char check_msg_[256]; \
            snprintf(check_msg_, sizeof check_msg_, "%s == %s (%lld != %lld)", \
                     #a, #b, check_a_, check_b_); \
            check_fail(__FILE__, __LINE__, check_msg_); \
        } } while (0)

/* CHECK_STR(a, b): two C strings must be equal; both are printed. */
#define CHECK_STR(a, b) do { \
        const char *check_a_ = (a), *check_b_ = (b); \
        if (!check_a_ || !check_b_ || strcmp(check_a_, check_b_) != 0) { \
            if (check_should_print()) \
                printf("  %s:%d: check failed: %s == %s\n    got:      \"%s\"\n" \
                       "    expected: \"%s\"\n", __FILE__, __LINE__, #a, #b, \
                       check_a_ ? check_a_ : "(null)", check_b_ ? check_b_ : "(null)"); \
        } } while (0)

/* CHECK_CONTAINS(haystack, needle): a string must contain another. */
#define CHECK_CONTAINS(h, n) do { \
        const char *check_h_ = (h), *check_n_ = (n); \
        if (!check_h_ || !strstr(check_h_, check_n_)) { \
            if (check_should_print()) \
                printf("  %s:%d: check failed: \"%s\" contains \"%s\"\n", \
                       __FILE__, __LINE__, check_h_ ? check_h_ : "(null)", check_n_); \
        } } while (0)

static inline void check_run(const char *name, void (*fn)(void))
{
    check_failures_in_test = 0;
    fn();
    printf("%s %s\n", check_failures_in_test ? "FAIL" : "PASS", name);
    if (check_failures_in_test)
        check_failed_tests++;
    fflush(stdout);
}

#define RUN(name) check_run(#name, name)
#define CHECK_EXIT() (check_failed_tests ? 1 : 0)

#endif
