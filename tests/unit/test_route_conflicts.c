/* The collision-free property of routing.md at the route level: a batch
 * whose destinations are distinct within each plane, sent in one timestep
 * into an empty network, routed by `benes` or `benes-full`, has no two
 * packets of one plane on the same link at the same hop (either direction)
 * nor entering the same output buffer at the same hop; route_walk.h says
 * why that is exactly "no collision and no wait". `greedy` and `dmodk` fail
 * it on many permutations of 8 processors: the counts are pinned here, and
 * the smallest failing permutation of each is a named regression test. */
#include <stdlib.h>

#include "net/route.h"
#include "tests/check.h"
#include "tests/unit/route_walk.h"

enum { MAX_N = 1 << 16 };

static RouteRequest reqs[MAX_N];
static Route routes[MAX_N];

/* Routes reqs[0..n) with `r` and checks the property; returns 1 if it
 * holds. Invalid routes and opposite-direction meetings are always
 * failures of the test. */
static int collision_free(Router *r, unsigned k, unsigned planes, size_t n)
{
    router_route(r, reqs, n, routes);
    Conflicts cf = check_batch(k, planes, reqs, n, routes);
    CHECK_EQ(cf.invalid, 0);
    CHECK_EQ(cf.opposite_dir, 0);
    return cf.same_dir == 0 && cf.buffer == 0;
}

/* Fills reqs with the full permutation `perm` of 2^k processors, and nth
 * by `pattern`: 0 all zero, 1 src % 2, 2 (src >> 1) % 2, 3 random. */
static void perm_batch(const uint32_t *perm, uint32_t n, int pattern, uint64_t *x)
{
    for (uint32_t i = 0; i < n; i++) {
        reqs[i].src = i;
        reqs[i].dst = perm[i];
        reqs[i].port = 0;
        reqs[i].nth = pattern == 0 ? 0 : pattern == 1 ? i % 2 :
                      pattern == 2 ? (i >> 1) % 2 : test_rand(x) % 2;
    }
}

/* Every one of the 40,320 permutations of 8 processors, with one plane and
 * with two (the sources split over the planes in three ways). */
static void benes_all_permutations_of_8(void)
{
    for (int a = ROUTING_BENES; a <= ROUTING_BENES_FULL; a++)
        for (int pattern = 0; pattern < 4; pattern++) {
            unsigned planes = pattern == 0 ? 1 : 2;
            Router *r = router_new((RoutingAlgorithm)a, 3, planes, 1);
            uint32_t perm[8] = {0, 1, 2, 3, 4, 5, 6, 7};
            uint64_t x = 3;
            long count = 0, failed = 0;
            do {
                perm_batch(perm, 8, pattern, &x);
                failed += !collision_free(r, 3, planes, 8);
                count++;
            } while (next_permutation(perm, 8));
            CHECK_EQ(count, 40320);
            CHECK_EQ(failed, 0);
            router_free(r);
        }
}

/* A random batch on 2^k processors: a full permutation, or a random subset
 * of the sources sent to distinct random destinations. */
static size_t random_batch(unsigned k, int partial, unsigned planes, uint64_t *x)
{
    static uint32_t perm[MAX_N];
    uint32_t n = 1u << k;
    size_t m = 0;
    uint64_t keep = 1 + test_rand(x) % 7;   /* partial: keep ~keep/8 of them */
    test_shuffle(perm, n, x);
    for (uint32_t s = 0; s < n; s++) {
        if (partial && test_rand(x) % 8 >= keep)
            continue;
        reqs[m].src = s;
        reqs[m].dst = perm[s];
        reqs[m].port = 0;
        reqs[m].nth = planes == 1 ? test_rand(x) % 3 : test_rand(x) % 2;
        m++;
    }
    return m;
}

/* Hundreds of random full and partial permutations, N = 16 .. 1,024. */
static void benes_random_permutations(void)
{
    uint64_t x = 2015;
    long batches = 0;
    for (unsigned k = 4; k <= 10; k++)
        for (int a = ROUTING_BENES; a <= ROUTING_BENES_FULL; a++)
            for (unsigned planes = 1; planes <= 2; planes++) {
                Router *r = router_new((RoutingAlgorithm)a, k, planes, 1);
                for (int trial = 0; trial < 24; trial++) {
                    size_t n = random_batch(k, trial % 2, planes, &x);
                    CHECK(collision_free(r, k, planes, n));
                    batches++;
                }
                router_free(r);
            }
    CHECK_EQ(batches, 7 * 2 * 2 * 24);
}

/* Each destination wanted by at most two sources, two planes: the plane
 * split separates each pair, so every plane carries a partial permutation
 * and the property holds. */
static void benes_doubled_destinations(void)
{
    uint64_t x = 4;
    for (unsigned k = 2; k <= 10; k++)
        for (int a = ROUTING_BENES; a <= ROUTING_BENES_FULL; a++) {
            Router *r = router_new((RoutingAlgorithm)a, k, 2, 1);
            for (int trial = 0; trial < 20; trial++) {
                static uint32_t perm[1024];
                uint32_t n = 1u << k;
                test_shuffle(perm, n, &x);
                for (uint32_t s = 0; s < n; s++) {
                    reqs[s].src = s;
                    reqs[s].dst = perm[s] / 2 * 2 + (uint32_t)(trial % 2);
                    reqs[s].port = 0;
                    reqs[s].nth = test_rand(&x) % 2;
                }
                CHECK(collision_free(r, k, 2, n));
                for (uint32_t s = 0; s < n; s++)
                    for (uint32_t t = s + 1; t < n; t++)
                        if (reqs[s].dst == reqs[t].dst && k <= 6)
                            CHECK(routes[s].plane != routes[t].plane);
            }
            router_free(r);
        }
}

/* A full permutation of 65,536 processors, on each number of planes (make
 * test: on two, which takes half the time). */
static void benes_large_permutation(void)
{
    uint64_t x = 65536;
    for (unsigned planes = test_full() ? 1 : 2; planes <= 2; planes++) {
        Router *r = router_new(ROUTING_BENES, 16, planes, 1);
        size_t n = random_batch(16, 0, planes, &x);
        CHECK_EQ(n, 65536);
        CHECK(collision_free(r, 16, planes, n));
        router_free(r);
    }
}

/* Counts the permutations of 8 processors on which `alg` fails the
 * property, with nth = 0 (every packet in plane 0, as with one plane), and
 * finds the smallest one in lexicographic order of the destinations. */
static long count_failures(RoutingAlgorithm alg, unsigned planes, uint32_t *smallest)
{
    Router *r = router_new(alg, 3, planes, 1);
    uint32_t perm[8] = {0, 1, 2, 3, 4, 5, 6, 7};
    long failed = 0;
    do {
        perm_batch(perm, 8, 0, NULL);
        if (!collision_free(r, 3, planes, 8) && failed++ == 0 && smallest)
            memcpy(smallest, perm, sizeof perm);
    } while (next_permutation(perm, 8));
    router_free(r);
    return failed;
}

static void greedy_and_dmodk_fail(void)
{
    uint32_t g[8], d[8];
    long greedy = count_failures(ROUTING_GREEDY, 1, g);
    long dmodk = count_failures(ROUTING_DMODK, 1, d);
    printf("  greedy fails on %ld of 40320 permutations of 8, smallest "
           "%u%u%u%u%u%u%u%u\n", greedy, g[0], g[1], g[2], g[3], g[4], g[5], g[6], g[7]);
    printf("  dmodk fails on %ld of 40320 permutations of 8, smallest "
           "%u%u%u%u%u%u%u%u\n", dmodk, d[0], d[1], d[2], d[3], d[4], d[5], d[6], d[7]);
    /* Also found by an independent script (output ports only, its own
     * wiring formulas), with the same smallest permutations. */
    CHECK_EQ(greedy, 36224);
    CHECK_EQ(dmodk, 23808);
    static const uint32_t g0[8] = {0, 1, 2, 3, 4, 6, 5, 7}, d0[8] = {0, 1, 2, 4, 3, 7, 5, 6};
    CHECK(memcmp(g, g0, sizeof g) == 0);
    CHECK(memcmp(d, d0, sizeof d) == 0);
    /* Two planes with nth = 0 put everything on plane 0: the same counts. */
    CHECK_EQ(count_failures(ROUTING_GREEDY, 2, NULL), greedy);
    CHECK_EQ(count_failures(ROUTING_DMODK, 2, NULL), dmodk);
}

/* Routes the permutation `perm` of 8 processors with `alg` (one plane) and
 * returns its meetings. */
static Conflicts route_perm8(RoutingAlgorithm alg, const uint32_t *perm)
{
    Router *r = router_new(alg, 3, 1, 1);
    perm_batch(perm, 8, 0, NULL);
    router_route(r, reqs, 8, routes);
    router_free(r);
    return check_batch(3, 1, reqs, 8, routes);
}

/* greedy's smallest failure, p5->p6 p6->p5 (the rest to themselves).
 * Layer 1 sends p4 and p6 up port 0 of their switches, p5 and p7 up port
 * 1; p4 and p6 meet at (2, 2) and take up ports 0 and 1, p5 and p7 at
 * (2, 3) likewise. Coming down, p4 and p6 are back at (2, 2) at hop 4 and
 * both want down port 0 (bit 1 of 4 and of 5), and p5 and p7 at (2, 3)
 * both want down port 1 (bit 1 of 6 and of 7): two buffers, then two links
 * at hop 5. */
static void greedy_regression_01234657(void)
{
    static const uint32_t perm[8] = {0, 1, 2, 3, 4, 6, 5, 7};
    Conflicts cf = route_perm8(ROUTING_GREEDY, perm);
    CHECK_EQ(cf.buffer, 2);
    CHECK_EQ(cf.same_dir, 2);
    CHECK_EQ(routes[4].routing, 0);
    CHECK_EQ(routes[6].routing, 2);
    cf = route_perm8(ROUTING_BENES, perm);
    CHECK(cf.buffer == 0 && cf.same_dir == 0);
    cf = route_perm8(ROUTING_BENES_FULL, perm);
    CHECK(cf.buffer == 0 && cf.same_dir == 0);
}

/* dmodk's smallest failure, p3->p4 p4->p3 p5->p7 p6->p5 p7->p6: p4 and p5
 * share switch (1, 2) and their destinations 3 and 7 share bit 0, so both
 * take its up port 1: one buffer at hop 1, one link at hop 2. (p5 turns at
 * layer 2, p4 goes on up: they part there.) */
static void dmodk_regression_01243756(void)
{
    static const uint32_t perm[8] = {0, 1, 2, 4, 3, 7, 5, 6};
    Conflicts cf = route_perm8(ROUTING_DMODK, perm);
    CHECK_EQ(cf.buffer, 1);
    CHECK_EQ(cf.same_dir, 1);
    CHECK_EQ(routes[4].count, 3);
    CHECK_EQ(routes[5].count, 2);
    CHECK_EQ(routes[4].routing & 1, 1);
    CHECK_EQ(routes[5].routing & 1, 1);
    cf = route_perm8(ROUTING_BENES, perm);
    CHECK(cf.buffer == 0 && cf.same_dir == 0);
}

/* No algorithm ever puts two packets on one link in opposite directions at
 * the same hop (route_walk.h: the hop numbers have different parities),
 * so half duplex changes none of the counts above. */
static void no_opposite_meetings(void)
{
    uint64_t x = 6;
    for (int a = 0; a < ROUTING_COUNT; a++)
        for (unsigned k = 1; k <= 8; k++) {
            Router *r = router_new((RoutingAlgorithm)a, k, 2, 1);
            for (int trial = 0; trial < 20; trial++) {
                size_t n = random_batch(k, trial % 2, 2, &x);
                for (size_t i = 0; i < n; i++)   /* anything goes: repeats too */
                    reqs[i].dst = (uint32_t)(test_rand(&x) % (1u << k));
                router_route(r, reqs, n, routes);
                Conflicts cf = check_batch(k, 2, reqs, n, routes);
                CHECK_EQ(cf.invalid, 0);
                CHECK_EQ(cf.opposite_dir, 0);
            }
            router_free(r);
        }
}

/* The link ids of route_walk.h name one link from both ends: going up from
 * (l, j) by port b and coming down from the switch above by the port it
 * arrived on lead back to (l, j), arriving on up port b. */
static void link_ids_agree(void)
{
    for (unsigned k = 2; k <= 6; k++)
        for (unsigned l = 1; l < k; l++)
            for (uint32_t j = 0; j < 1u << (k - 1); j++)
                for (unsigned b = 0; b < 2; b++) {
                    uint32_t above = topo_up_switch(l, j, b);
                    unsigned d = topo_up_arrival_port(l, j);
                    CHECK_EQ(topo_down_switch(l + 1, above, d), j);
                    CHECK_EQ(topo_down_arrival_port(l + 1, above), b);
                }
}

int main(void)
{
    RUN(benes_all_permutations_of_8);
    RUN(benes_random_permutations);
    RUN(benes_doubled_destinations);
    RUN(benes_large_permutation);
    RUN(greedy_and_dmodk_fail);
    RUN(greedy_regression_01234657);
    RUN(dmodk_regression_01243756);
    RUN(no_opposite_meetings);
    RUN(link_ids_agree);
    return CHECK_EXIT();
}
