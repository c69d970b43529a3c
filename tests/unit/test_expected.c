/* Where the expected outputs of the example programs (programs/NAME.x,
 * tests/programs/examples/NAME.expected) and of the baseline benchmark
 * (bench/programs/baseline.x, tests/programs/baseline.expected) come from:
 * each is worked out here in plain C, apart from the compiler and the
 * emulator, and must equal its file. tests/cli/programs.sh then checks
 * that the programs print exactly these files on the machine.
 *
 * The C follows what each program computes, not how: sorts are qsort, a
 * distributed reduction is a loop, determinants are expanded by minors,
 * the knapsack is solved by trying every subset. 32-bit wrapping is done in
 * uint32_t, as the processor does it. */
#include <stdint.h>
#include <stdlib.h>
#include <string.h>

#include "tests/check.h"

typedef uint32_t u32;

/* ---- output: lines "pN: value" collected in a buffer ---------------------------- */

typedef struct {
    char text[8192];
    size_t len;
} Out;

static void out_line(Out *o, int proc, int32_t v)
{
    o->len += (size_t)snprintf(o->text + o->len, sizeof o->text - o->len, "p%d: %d\n",
                               proc, (int)v);
}

/* The file's whole contents must equal o's text. */
static void check_file(const char *path, const Out *o)
{
    static char file[8192];
    FILE *f = fopen(path, "r");
    size_t n = 0;
    if (f) {
        n = fread(file, 1, sizeof file - 1, f);
        fclose(f);
    }
    file[n] = '\0';
    CHECK(f != NULL);
    CHECK_STR(file, o->text);
}

static int cmp_int(const void *a, const void *b)
{
    int x = *(const int *)a, y = *(const int *)b;
    return (x > y) - (x < y);
}

/* ---- the example programs ---------------------------------------------------- */

static void token_ring(void)        /* 12 processors each add i + 1, three laps */
{
    Out o = {0};
    int token = 0;
    for (int lap = 0; lap < 3; lap++) {
        for (int i = 0; i < 12; i++)
            token += i + 1;
        out_line(&o, 0, token);
    }
    check_file("tests/programs/examples/token_ring.expected", &o);
}

static void reduce_tree(void)       /* 1 + 2 + ... + 32 */
{
    Out o = {0};
    out_line(&o, 0, 32 * 33 / 2);
    check_file("tests/programs/examples/reduce_tree.expected", &o);
}

static void all_to_all(void)        /* col[j] = 100 j + i; sum of (j + 1) col[j] */
{
    Out o = {0};
    for (int i = 0; i < 16; i++) {
        int check = 0;
        for (int j = 0; j < 16; j++)
            check += (j + 1) * (100 * j + i);
        out_line(&o, i, check);
    }
    check_file("tests/programs/examples/all_to_all.expected", &o);
}

static void odd_even_sort(void)     /* the 16 values, sorted */
{
    Out o = {0};
    int v[16];
    for (int i = 0; i < 16; i++)
        v[i] = (37 * i + 11) % 101 - 50;
    qsort(v, 16, sizeof v[0], cmp_int);
    for (int i = 0; i < 16; i++)
        out_line(&o, i, v[i]);
    check_file("tests/programs/examples/odd_even_sort.expected", &o);
}

static void matvec(void)            /* y = A x */
{
    Out o = {0};
    for (int i = 0; i < 16; i++) {
        int y = 0;
        for (int j = 0; j < 16; j++)
            y += ((i * j + 3 * i + 5 * j) % 11 - 5) * (j - 5);
        out_line(&o, i, y);
    }
    check_file("tests/programs/examples/matvec.expected", &o);
}

static void prefix_sum(void)        /* running sums of 2i + 1: the squares */
{
    Out o = {0};
    for (int i = 0; i < 32; i++)
        out_line(&o, i, (i + 1) * (i + 1));
    check_file("tests/programs/examples/prefix_sum.expected", &o);
}

static int collatz_steps(long m)
{
    int steps = 0;
    for (; m != 1; steps++)
        m = m % 2 ? 3 * m + 1 : m / 2;
    return steps;
}

static void farm(void)              /* Collatz steps of 1 .. 90: total, most, where */
{
    Out o = {0};
    int total = 0, most = -1, most_m = 0;
    for (int m = 1; m <= 90; m++) {
        int s = collatz_steps(m);
        total += s;
        if (s > most) {
            most = s;
            most_m = m;
        }
    }
    out_line(&o, 0, total);
    out_line(&o, 0, most);
    out_line(&o, 0, most_m);
    check_file("tests/programs/examples/farm.expected", &o);
}

static void primes(void)            /* primes below 10000, by a sieve */
{
    Out o = {0};
    static char composite[10000];
    int count = 0;
    for (int k = 2; k < 10000; k++)
        if (!composite[k]) {
            count++;
            for (int m = 2 * k; m < 10000; m += k)
                composite[m] = 1;
        }
    out_line(&o, 0, count);
    check_file("tests/programs/examples/primes.expected", &o);
}

/* p(x) = 7 - 3x + 2x^2 + x^3, the cubic whose coefficients broadcast.x and
 * broadcast_tree.x send from processor 0 to every processor. */
static int cubic(int x)
{
    return 7 - 3 * x + 2 * x * x + x * x * x;
}

static void broadcast(void)         /* p(0) + p(1) + ... + p(31) */
{
    Out o = {0};
    int sum = 0;
    for (int i = 0; i < 32; i++)
        sum += cubic(i);
    out_line(&o, 0, sum);
    check_file("tests/programs/examples/broadcast.expected", &o);
}

static void broadcast_tree(void)    /* the same job, the same output */
{
    Out o = {0};
    int sum = 0;
    for (int i = 0; i < 32; i++)
        sum += cubic(i);
    out_line(&o, 0, sum);
    check_file("tests/programs/examples/broadcast_tree.expected", &o);
}

/* multicast_sets.x sends 2 to processors 8 .. 15, 3 to 1, 5, ..., 29 and 5 to
 * 3, 9, 12, 30; each member multiplies what it gets by its own number. The
 * two sub-cubes' products are summed; the scattered set's come back one by
 * one, in the order of the list. */
static void multicast_sets(void)
{
    static const int scattered[] = {3, 9, 12, 30};
    Out o = {0};
    int block = 0, spread = 0;
    for (int i = 8; i <= 15; i++)
        block += 2 * i;
    for (int i = 1; i < 32; i += 4)
        spread += 3 * i;
    out_line(&o, 0, block);
    out_line(&o, 0, spread);
    for (int j = 0; j < 4; j++)
        out_line(&o, 0, 5 * scattered[j]);
    check_file("tests/programs/examples/multicast_sets.expected", &o);
}

/* The fast stream's shortest and longest trip with two virtual channels,
 * where nothing holds it up: both are a lone packet's trip, 7 timesteps
 * in the network (4c - 1, c = 2) and 13 of the sender's and the reader's
 * instructions around it, from the sender's TIME to its OUT and from the
 * reader's IN to its TIME (a run of the program with the slow stream
 * taken out, traced, shows the 13). Then the slow reader's sum. */
static void head_of_line(void)
{
    Out o = {0};
    int lone_trip = 7 + 13, sum = 0;
    for (int k = 0; k < 60; k++)
        sum += k;
    out_line(&o, 3, lone_trip);
    out_line(&o, 3, lone_trip);
    out_line(&o, 2, sum);
    check_file("tests/programs/examples/head_of_line.expected", &o);
}

static void appendix_c(void)        /* prints nothing */
{
    Out o = {0};
    check_file("tests/programs/examples/appendix_c.expected", &o);
}

#include "tests/unit/baseline_model.h"

int main(void)
{
    RUN(token_ring);
    RUN(reduce_tree);
    RUN(all_to_all);
    RUN(odd_even_sort);
    RUN(matvec);
    RUN(prefix_sum);
    RUN(farm);
    RUN(primes);
    RUN(broadcast);
    RUN(broadcast_tree);
    RUN(multicast_sets);
    RUN(head_of_line);
    RUN(appendix_c);
    RUN(baseline);
    return check_failed_tests != 0;
}
