/* Unit tests of the routing algorithms (spec/routing.md, net/route.h): names,
 * the printed form, the validity of every route of every algorithm
 * (exhaustively for small N), the plane rules, golden routes worked out by
 * hand, repeated destinations, and the random routings' seeds. The
 * collision-free property is in test_route_conflicts.c. */
#include <stdlib.h>

#include "net/route.h"
#include "net/route_internal.h"
#include "tests/check.h"
#include "tests/unit/route_walk.h"

enum { MAX_BATCH = 1 << 14 };

static RouteRequest reqs[MAX_BATCH];
static Route routes[MAX_BATCH];

/* Makes a batch: request i from srcs[i] (or i if srcs is NULL) to dsts[i],
 * having made nths[i] requests before (0 if nths is NULL). */
static void make_batch(const uint32_t *srcs, const uint32_t *dsts,
                       const uint64_t *nths, size_t n)
{
    for (size_t i = 0; i < n; i++) {
        reqs[i].src = srcs ? srcs[i] : (uint32_t)i;
        reqs[i].dst = dsts[i];
        reqs[i].port = 0;
        reqs[i].nth = nths ? nths[i] : 0;
    }
}

/* Routes the batch in reqs[0..n) with a new router. */
static void route_once(RoutingAlgorithm alg, unsigned k, unsigned planes,
                       uint64_t seed, size_t n)
{
    Router *r = router_new(alg, k, planes, seed);
    CHECK(r != NULL);
    if (!r)
        return;
    router_route(r, reqs, n, routes);
    router_free(r);
}

/* Compares the batch's printed routes with `expected` (packet ids 0..). */
static void check_lines(RoutingAlgorithm alg, size_t n, const char *const *expected)
{
    char line[160];
    for (size_t i = 0; i < n; i++) {
        route_format(line, sizeof line, i, &reqs[i], &routes[i],
                     alg == ROUTING_ADAPTIVE);
        CHECK_STR(line, expected[i]);
    }
}

static void names(void)
{
    static const char *const all[] = {"benes", "benes-full", "greedy", "valiant",
                                       "random", "dmodk", "adaptive"};
    CHECK_EQ(ROUTING_COUNT, 7);
    for (int a = 0; a < ROUTING_COUNT; a++) {
        RoutingAlgorithm alg = (RoutingAlgorithm)ROUTING_COUNT;
        CHECK_STR(routing_name((RoutingAlgorithm)a), all[a]);
        CHECK_EQ(routing_parse(all[a], &alg), 0);
        CHECK_EQ(alg, a);
    }
    RoutingAlgorithm alg = ROUTING_DMODK;
    CHECK_EQ(routing_parse("Benes", &alg), -1);
    CHECK_EQ(routing_parse("", &alg), -1);
    CHECK_EQ(routing_parse("benes-", &alg), -1);
    CHECK_EQ(alg, ROUTING_DMODK);
    CHECK(routing_name((RoutingAlgorithm)ROUTING_COUNT) == NULL);
}

static void bad_router_arguments(void)
{
    CHECK(router_new(ROUTING_BENES, 0, 2, 1) == NULL);
    CHECK(router_new(ROUTING_BENES, 32, 2, 1) == NULL);
    CHECK(router_new(ROUTING_BENES, 3, 0, 1) == NULL);
    CHECK(router_new(ROUTING_BENES, 3, 3, 1) == NULL);
    CHECK(router_new((RoutingAlgorithm)ROUTING_COUNT, 3, 2, 1) == NULL);
    router_free(NULL);
}

/* The example line of routing.md, and the forms of the routing field. */
static void format(void)
{
    char line[160];
    RouteRequest q = {3, 1, 0, 0, NULL, 0 };
    Route r = {0, 2, 1, 1};
    route_format(line, sizeof line, 3, &q, &r, 0);
    CHECK_STR(line, "route #3 p3->p1 port 0 plane 0 count 2 routing 0b1 addressing 0b01");
    route_format(line, sizeof line, 3, &q, &r, 1);
    CHECK_STR(line, "route #3 p3->p1 port 0 plane 0 count 2 routing (adaptive) addressing 0b01");
    RouteRequest self = {5, 5, 255, 7, NULL, 0 };
    Route turn1 = {1, 1, 0, 1};
    route_format(line, sizeof line, 18446744073709551615u, &self, &turn1, 0);
    CHECK_STR(line, "route #18446744073709551615 p5->p5 port 255 plane 1 count 1 routing - addressing 0b1");
    /* No up port to choose: "-" even under adaptive routing. */
    route_format(line, sizeof line, 0, &self, &turn1, 1);
    CHECK_CONTAINS(line, "count 1 routing - addressing 0b1");
    RouteRequest far = {0, 65535, 3, 0, NULL, 0 };
    Route top = {0, 16, 0x5555, 0xFFFF};
    route_format(line, sizeof line, 9, &far, &top, 0);
    CHECK_STR(line, "route #9 p0->p65535 port 3 plane 0 count 16 routing "
                    "0b101010101010101 addressing 0b1111111111111111");
    /* A short buffer gets a terminated prefix. */
    route_format(line, 10, 3, &q, &r, 0);
    CHECK_STR(line, "route #3 ");
}

/* The spec's example line comes out of benes: p2 (lower source) takes
 * sub-network 0 at layer 1, so p3, from the same switch, takes 1. */
static void spec_example(void)
{
    static const uint32_t srcs[] = {2, 3}, dsts[] = {0, 1};
    make_batch(srcs, dsts, NULL, 2);
    route_once(ROUTING_BENES, 3, 1, 1, 2);
    char line[160];
    route_format(line, sizeof line, 3, &reqs[1], &routes[1], 0);
    CHECK_STR(line, "route #3 p3->p1 port 0 plane 0 count 2 routing 0b1 addressing 0b01");
}

/* Every route valid, and the algorithm's own rules on count, plane and up
 * ports (the benes plane split is checked in plane_split_rule). */
static void check_rules(RoutingAlgorithm alg, unsigned k, unsigned planes, size_t n)
{
    for (size_t i = 0; i < n; i++) {
        const RouteRequest *q = &reqs[i];
        const Route *r = &routes[i];
        unsigned cmin = topo_cmin(q->src, q->dst);
        CHECK(route_valid(k, planes, q, r));
        int full = alg == ROUTING_BENES_FULL || alg == ROUTING_GREEDY ||
                   alg == ROUTING_VALIANT;
        CHECK_EQ(r->count, full ? k : cmin);
        if (alg != ROUTING_BENES && alg != ROUTING_BENES_FULL)
            CHECK_EQ(r->plane, planes == 2 ? q->nth % 2 : 0);
        if (alg == ROUTING_DMODK)
            CHECK_EQ(r->routing, q->dst & ((1u << (r->count - 1)) - 1));
        if (alg == ROUTING_ADAPTIVE)
            CHECK_EQ(r->routing, 0);
    }
}

/* Every single-packet batch for N = 2 .. 32. */
static void valid_single_packets(void)
{
    for (unsigned k = 1; k <= 5; k++)
        for (int a = 0; a < ROUTING_COUNT; a++)
            for (unsigned planes = 1; planes <= 2; planes++)
                for (uint32_t s = 0; s < 1u << k; s++)
                    for (uint32_t d = 0; d < 1u << k; d++)
                        for (uint64_t nth = 0; nth < 2; nth++) {
                            make_batch(&s, &d, &nth, 1);
                            route_once((RoutingAlgorithm)a, k, planes, s + d, 1);
                            check_rules((RoutingAlgorithm)a, k, planes, 1);
                        }
}

/* Every full permutation of N = 2, 4, 8 with one router per algorithm (so
 * the random ones keep drawing), nth alternating by permutation. */
static void valid_all_permutations(void)
{
    for (unsigned k = 1; k <= 3; k++)
        for (int a = 0; a < ROUTING_COUNT; a++)
            for (unsigned planes = 1; planes <= 2; planes++) {
                uint32_t n = 1u << k, perm[8];
                uint64_t nths[8];
                Router *r = router_new((RoutingAlgorithm)a, k, planes, 7);
                for (uint32_t i = 0; i < n; i++)
                    perm[i] = i;
                uint64_t count = 0;
                do {
                    for (uint32_t i = 0; i < n; i++)
                        nths[i] = (count >> i) & 1;
                    make_batch(NULL, perm, nths, n);
                    router_route(r, reqs, n, routes);
                    check_rules((RoutingAlgorithm)a, k, planes, n);
                    count++;
                } while (next_permutation(perm, n));
                CHECK_EQ(count, k == 1 ? 2 : k == 2 ? 24 : 40320);
                router_free(r);
            }
}

/* Random batches with any destinations (repeats allowed), random subsets
 * of sources, random nth, N = 2 .. 4096. */
static void valid_random_batches(void)
{
    uint64_t x = 12345;
    for (unsigned k = 1; k <= 12; k++)
        for (int a = 0; a < ROUTING_COUNT; a++)
            for (unsigned planes = 1; planes <= 2; planes++) {
                Router *r = router_new((RoutingAlgorithm)a, k, planes, x);
                for (int trial = 0; trial < 4; trial++) {
                    size_t n = 0;
                    uint64_t keep = test_rand(&x) % 4;   /* sources kept: 1/4 .. all */
                    for (uint32_t s = 0; s < 1u << k; s++) {
                        if (test_rand(&x) % 4 > keep)
                            continue;
                        reqs[n].src = s;
                        reqs[n].dst = (uint32_t)(test_rand(&x) % (1u << k));
                        reqs[n].port = 0;
                        reqs[n].nth = test_rand(&x) % 5;
                        n++;
                    }
                    router_route(r, reqs, n, routes);
                    check_rules((RoutingAlgorithm)a, k, planes, n);
                }
                router_free(r);
            }
}

/* Small batches on N = 65,536 and N = 2^20: valid, for every algorithm. */
static void valid_large_machines(void)
{
    static const uint32_t srcs[] = {0, 1, 40000, 65535}, dsts[] = {65535, 0, 40001, 1};
    static const uint64_t nths[] = {0, 3, 1, 2};
    for (int a = 0; a < ROUTING_COUNT; a++) {
        make_batch(srcs, dsts, nths, 4);
        route_once((RoutingAlgorithm)a, 16, 2, 1, 4);
        check_rules((RoutingAlgorithm)a, 16, 2, 4);
        uint32_t big_s[] = {5, 1u << 19, (1u << 20) - 1}, big_d[] = {(1u << 20) - 2, 5, 5};
        make_batch(big_s, big_d, NULL, 3);
        route_once((RoutingAlgorithm)a, 20, 1, 1, 3);
        check_rules((RoutingAlgorithm)a, 20, 1, 3);
    }
}

/* The batch of the golden tests: p0->p5 p1->p4 p2->p0 p3->p1 p4->p7 p5->p6
 * p6->p2 p7->p3 on N = 8, nobody has sent before (nth = 0). */
static const uint32_t golden_dsts[8] = {5, 4, 0, 1, 7, 6, 2, 3};

/* Routes the golden batch with `alg` and compares the printed routes. */
static void check_golden(RoutingAlgorithm alg, unsigned planes, const uint64_t *nths,
                         const char *const *expected)
{
    make_batch(NULL, golden_dsts, nths, 8);
    route_once(alg, 3, planes, 1, 8);
    check_lines(alg, 8, expected);
}

/* Derived by hand. Level 1: the source pairs (p0,p1) (p2,p3) (p4,p5)
 * (p6,p7) are also destination pairs ({5,4} {0,1} {7,6} {2,3}), so each
 * pair is a linked set of two and its lower source takes 0: b1 = 0 1 0 1
 * 0 1 0 1. Level 2, sub-network 0: p0 (s0 d2), p2 (s1 d0), p4 (s2 d3),
 * p6 (s3 d1); p0 takes 0, then its source partner p2 takes 1 and its
 * destination partner p4 (d3) takes 1; p2's destination partner p6 (d1)
 * takes 0. Sub-network 1 is the same with p1 p3 p5 p7. So b2 = 0 0 1 1 1 1
 * 0 0. benes keeps the bits below cmin = 3 3 2 2 2 2 3 3. */
static void golden_benes(void)
{
    static const char *const expected[] = {
        "route #0 p0->p5 port 0 plane 0 count 3 routing 0b00 addressing 0b101",
        "route #1 p1->p4 port 0 plane 0 count 3 routing 0b01 addressing 0b100",
        "route #2 p2->p0 port 0 plane 0 count 2 routing 0b0 addressing 0b00",
        "route #3 p3->p1 port 0 plane 0 count 2 routing 0b1 addressing 0b01",
        "route #4 p4->p7 port 0 plane 0 count 2 routing 0b0 addressing 0b11",
        "route #5 p5->p6 port 0 plane 0 count 2 routing 0b1 addressing 0b10",
        "route #6 p6->p2 port 0 plane 0 count 3 routing 0b00 addressing 0b010",
        "route #7 p7->p3 port 0 plane 0 count 3 routing 0b01 addressing 0b011",
    };
    check_golden(ROUTING_BENES, 2, NULL, expected);
    check_golden(ROUTING_BENES, 1, NULL, expected);
}

/* By hand: the same up ports as golden_benes, all turning at layer 3. */
static void golden_benes_full(void)
{
    static const char *const expected[] = {
        "route #0 p0->p5 port 0 plane 0 count 3 routing 0b00 addressing 0b101",
        "route #1 p1->p4 port 0 plane 0 count 3 routing 0b01 addressing 0b100",
        "route #2 p2->p0 port 0 plane 0 count 3 routing 0b10 addressing 0b000",
        "route #3 p3->p1 port 0 plane 0 count 3 routing 0b11 addressing 0b001",
        "route #4 p4->p7 port 0 plane 0 count 3 routing 0b10 addressing 0b111",
        "route #5 p5->p6 port 0 plane 0 count 3 routing 0b11 addressing 0b110",
        "route #6 p6->p2 port 0 plane 0 count 3 routing 0b00 addressing 0b010",
        "route #7 p7->p3 port 0 plane 0 count 3 routing 0b01 addressing 0b011",
    };
    check_golden(ROUTING_BENES_FULL, 2, NULL, expected);
}

/* By hand. Layer 1: each switch sends its first packet up port 0, its
 * second up port 1. Layer 2: the switches are (src >> 1) with bit 0 = b1:
 * 0 1 0 1 2 3 2 3, so p0 p1 p4 p5 come first and take 0, p2 p3 p6 p7 take 1.
 * (p0 and p4 then meet at top switch 0, both going down port 1.) */
static void golden_greedy(void)
{
    static const char *const expected[] = {
        "route #0 p0->p5 port 0 plane 0 count 3 routing 0b00 addressing 0b101",
        "route #1 p1->p4 port 0 plane 0 count 3 routing 0b01 addressing 0b100",
        "route #2 p2->p0 port 0 plane 0 count 3 routing 0b10 addressing 0b000",
        "route #3 p3->p1 port 0 plane 0 count 3 routing 0b11 addressing 0b001",
        "route #4 p4->p7 port 0 plane 0 count 3 routing 0b00 addressing 0b111",
        "route #5 p5->p6 port 0 plane 0 count 3 routing 0b01 addressing 0b110",
        "route #6 p6->p2 port 0 plane 0 count 3 routing 0b10 addressing 0b010",
        "route #7 p7->p3 port 0 plane 0 count 3 routing 0b11 addressing 0b011",
    };
    check_golden(ROUTING_GREEDY, 2, NULL, expected);
}

/* By hand: with nth = src % 2 the even sources use plane 0 and the odd ones
 * plane 1, so at layer 1 every packet is alone in its switch (up port 0);
 * at layer 2 all of them are at switch 0 (p0-p3) or 2 (p4-p7), two per
 * plane, the lower source first. */
static void golden_greedy_planes(void)
{
    static const uint64_t nths[8] = {0, 1, 0, 1, 0, 1, 0, 1};
    static const char *const expected[] = {
        "route #0 p0->p5 port 0 plane 0 count 3 routing 0b00 addressing 0b101",
        "route #1 p1->p4 port 0 plane 1 count 3 routing 0b00 addressing 0b100",
        "route #2 p2->p0 port 0 plane 0 count 3 routing 0b10 addressing 0b000",
        "route #3 p3->p1 port 0 plane 1 count 3 routing 0b10 addressing 0b001",
        "route #4 p4->p7 port 0 plane 0 count 3 routing 0b00 addressing 0b111",
        "route #5 p5->p6 port 0 plane 1 count 3 routing 0b00 addressing 0b110",
        "route #6 p6->p2 port 0 plane 0 count 3 routing 0b10 addressing 0b010",
        "route #7 p7->p3 port 0 plane 1 count 3 routing 0b10 addressing 0b011",
    };
    check_golden(ROUTING_GREEDY, 2, nths, expected);
}

/* By hand: the up ports are the destination's low bits, below cmin. */
static void golden_dmodk(void)
{
    static const char *const expected[] = {
        "route #0 p0->p5 port 0 plane 0 count 3 routing 0b01 addressing 0b101",
        "route #1 p1->p4 port 0 plane 0 count 3 routing 0b00 addressing 0b100",
        "route #2 p2->p0 port 0 plane 0 count 2 routing 0b0 addressing 0b00",
        "route #3 p3->p1 port 0 plane 0 count 2 routing 0b1 addressing 0b01",
        "route #4 p4->p7 port 0 plane 0 count 2 routing 0b1 addressing 0b11",
        "route #5 p5->p6 port 0 plane 0 count 2 routing 0b0 addressing 0b10",
        "route #6 p6->p2 port 0 plane 1 count 3 routing 0b10 addressing 0b010",
        "route #7 p7->p3 port 0 plane 1 count 3 routing 0b11 addressing 0b011",
    };
    static const uint64_t nths[8] = {0, 0, 0, 0, 0, 0, 1, 5};
    check_golden(ROUTING_DMODK, 2, nths, expected);
}

/* By hand: cmin as dmodk, up ports left to the network. */
static void golden_adaptive(void)
{
    static const char *const expected[] = {
        "route #0 p0->p5 port 0 plane 0 count 3 routing (adaptive) addressing 0b101",
        "route #1 p1->p4 port 0 plane 0 count 3 routing (adaptive) addressing 0b100",
        "route #2 p2->p0 port 0 plane 0 count 2 routing (adaptive) addressing 0b00",
        "route #3 p3->p1 port 0 plane 0 count 2 routing (adaptive) addressing 0b01",
        "route #4 p4->p7 port 0 plane 0 count 2 routing (adaptive) addressing 0b11",
        "route #5 p5->p6 port 0 plane 0 count 2 routing (adaptive) addressing 0b10",
        "route #6 p6->p2 port 0 plane 0 count 3 routing (adaptive) addressing 0b010",
        "route #7 p7->p3 port 0 plane 0 count 3 routing (adaptive) addressing 0b011",
    };
    check_golden(ROUTING_ADAPTIVE, 2, NULL, expected);
}

/* The top bits of the first draws of splitmix64 from seed 1, computed by an
 * independent implementation (a few lines of Python) from routing.md's
 * code: 1 1 1 0 0 1 1 1 0 1 0 1. valiant takes two per packet (layers 1
 * and 2); random takes cmin - 1 = 2 2 1 1 1 1 2 2. */
static void golden_valiant(void)
{
    static const char *const expected[] = {
        "route #0 p0->p5 port 0 plane 0 count 3 routing 0b11 addressing 0b101",
        "route #1 p1->p4 port 0 plane 0 count 3 routing 0b01 addressing 0b100",
        "route #2 p2->p0 port 0 plane 0 count 3 routing 0b10 addressing 0b000",
        "route #3 p3->p1 port 0 plane 0 count 3 routing 0b11 addressing 0b001",
        "route #4 p4->p7 port 0 plane 0 count 3 routing 0b10 addressing 0b111",
        "route #5 p5->p6 port 0 plane 0 count 3 routing 0b10 addressing 0b110",
        "route #6 p6->p2 port 0 plane 0 count 3 routing 0b10 addressing 0b010",
        "route #7 p7->p3 port 0 plane 0 count 3 routing 0b00 addressing 0b011",
    };
    check_golden(ROUTING_VALIANT, 2, NULL, expected);
}

static void golden_random(void)
{
    static const char *const expected[] = {
        "route #0 p0->p5 port 0 plane 0 count 3 routing 0b11 addressing 0b101",
        "route #1 p1->p4 port 0 plane 0 count 3 routing 0b01 addressing 0b100",
        "route #2 p2->p0 port 0 plane 0 count 2 routing 0b0 addressing 0b00",
        "route #3 p3->p1 port 0 plane 0 count 2 routing 0b1 addressing 0b01",
        "route #4 p4->p7 port 0 plane 0 count 2 routing 0b1 addressing 0b11",
        "route #5 p5->p6 port 0 plane 0 count 2 routing 0b1 addressing 0b10",
        "route #6 p6->p2 port 0 plane 0 count 3 routing 0b10 addressing 0b010",
        "route #7 p7->p3 port 0 plane 0 count 3 routing 0b10 addressing 0b011",
    };
    check_golden(ROUTING_RANDOM, 2, NULL, expected);
}

/* By hand, N = 8, two planes. p0 (nth 0) takes plane 0; p1 (nth 0) finds
 * plane 0 carrying p5 and takes plane 1; p2 and p3 (nth 1) find plane 1
 * carrying p5 and take plane 0; p4 (nth 1) takes plane 1. Plane 0 loops p0
 * p2 p3, all to 5: p0 takes 0 and has no partner (no source 1, no packet
 * to 4 in this plane); p2 takes 0 and p3, its source partner, 1. Level 2,
 * sub-network 0: p0 (s0) takes 0 and p2 (s1) 1. */
static void golden_plane_split(void)
{
    static const uint32_t dsts[] = {5, 5, 5, 5, 2};
    static const uint64_t nths[] = {0, 0, 1, 1, 1};
    static const char *const expected[] = {
        "route #0 p0->p5 port 0 plane 0 count 3 routing 0b00 addressing 0b101",
        "route #1 p1->p5 port 0 plane 1 count 3 routing 0b00 addressing 0b101",
        "route #2 p2->p5 port 0 plane 0 count 3 routing 0b10 addressing 0b101",
        "route #3 p3->p5 port 0 plane 0 count 3 routing 0b01 addressing 0b101",
        "route #4 p4->p2 port 0 plane 1 count 3 routing 0b00 addressing 0b010",
    };
    make_batch(NULL, dsts, nths, 5);
    route_once(ROUTING_BENES, 3, 2, 1, 5);
    check_lines(ROUTING_BENES, 5, expected);
    /* One plane: everything in plane 0, whatever nth says. */
    route_once(ROUTING_BENES, 3, 1, 1, 5);
    for (int i = 0; i < 5; i++)
        CHECK_EQ(routes[i].plane, 0);
}

/* By hand, N = 8, one plane: p0->p0 p1->p2 p2->p1 p3->p1. Level 1: p0 takes
 * 0; its source partner p1 takes 1, then its destination partners (both
 * packets to 1, in increasing s) p2 and p3 take 1. When p2 is visited its
 * source partner p3 is already given 1: skipped, so p2 and p3 share
 * sub-network 1. Level 2, sub-network 1: p1 (s0 d1) takes 0, its source
 * partners (both with s1) p2 and p3 take 1. */
static void golden_skipped_partners(void)
{
    static const uint32_t dsts[] = {0, 2, 1, 1};
    static const char *const turn_early[] = {
        "route #0 p0->p0 port 0 plane 0 count 1 routing - addressing 0b0",
        "route #1 p1->p2 port 0 plane 0 count 2 routing 0b1 addressing 0b10",
        "route #2 p2->p1 port 0 plane 0 count 2 routing 0b1 addressing 0b01",
        "route #3 p3->p1 port 0 plane 0 count 2 routing 0b1 addressing 0b01",
    };
    static const char *const full[] = {
        "route #0 p0->p0 port 0 plane 0 count 3 routing 0b00 addressing 0b000",
        "route #1 p1->p2 port 0 plane 0 count 3 routing 0b01 addressing 0b010",
        "route #2 p2->p1 port 0 plane 0 count 3 routing 0b11 addressing 0b001",
        "route #3 p3->p1 port 0 plane 0 count 3 routing 0b11 addressing 0b001",
    };
    make_batch(NULL, dsts, NULL, 4);
    route_once(ROUTING_BENES, 3, 1, 1, 4);
    check_lines(ROUTING_BENES, 4, turn_early);
    route_once(ROUTING_BENES_FULL, 3, 1, 1, 4);
    check_lines(ROUTING_BENES_FULL, 4, full);
}

/* By hand, N = 8, one plane: p0->p0 p1->p6 p2->p0 p3->p7 p5->p1, where
 * breadth first and depth first disagree. Level 1: p0 takes 0; queue its
 * source partner p1 (1) and its destination partner p5 (to 1: 1). From p1:
 * its destination partner p3 (to 7) takes 0. From p5: the packets to 0 are
 * p0 (given) and p2, which takes 0. From p3: its source partner p2 is
 * already given 0 and is skipped (depth first would have reached p3 from
 * p2 first and given it 1). Level 2, sub-network 0 holds p0 (s0 d0), p2
 * (s1 d0), p3 (s1 d3): p0 takes 0, its source partners p2 and p3 take 1.
 * Sub-network 1 holds p1 (s0 d3) and p5 (s2 d0), unlinked: both take 0. */
static void golden_breadth_first(void)
{
    static const uint32_t srcs[] = {0, 1, 2, 3, 5}, dsts[] = {0, 6, 0, 7, 1};
    static const char *const full[] = {
        "route #0 p0->p0 port 0 plane 0 count 3 routing 0b00 addressing 0b000",
        "route #1 p1->p6 port 0 plane 0 count 3 routing 0b01 addressing 0b110",
        "route #2 p2->p0 port 0 plane 0 count 3 routing 0b10 addressing 0b000",
        "route #3 p3->p7 port 0 plane 0 count 3 routing 0b10 addressing 0b111",
        "route #4 p5->p1 port 0 plane 0 count 3 routing 0b01 addressing 0b001",
    };
    static const char *const turn_early[] = {
        "route #0 p0->p0 port 0 plane 0 count 1 routing - addressing 0b0",
        "route #1 p1->p6 port 0 plane 0 count 3 routing 0b01 addressing 0b110",
        "route #2 p2->p0 port 0 plane 0 count 2 routing 0b0 addressing 0b00",
        "route #3 p3->p7 port 0 plane 0 count 3 routing 0b10 addressing 0b111",
        "route #4 p5->p1 port 0 plane 0 count 3 routing 0b01 addressing 0b001",
    };
    make_batch(srcs, dsts, NULL, 5);
    route_once(ROUTING_BENES_FULL, 3, 1, 1, 5);
    check_lines(ROUTING_BENES_FULL, 5, full);
    route_once(ROUTING_BENES, 3, 1, 1, 5);
    check_lines(ROUTING_BENES, 5, turn_early);
}

/* The benes plane split against its definition, on random batches with
 * many repeated destinations: in source order, a request takes plane nth % 2
 * unless an earlier request to its destination is on that plane. */
static void plane_split_rule(void)
{
    uint64_t x = 99;
    for (int trial = 0; trial < 200; trial++) {
        unsigned k = 1 + (unsigned)(test_rand(&x) % 6);
        size_t n = 0;
        for (uint32_t s = 0; s < 1u << k; s++) {
            if (test_rand(&x) % 3 == 0)
                continue;
            reqs[n].src = s;
            reqs[n].dst = (uint32_t)(test_rand(&x) % ((1u << k) / 2 + 1));
            reqs[n].port = 0;
            reqs[n].nth = test_rand(&x) % 4;
            n++;
        }
        for (int a = ROUTING_BENES; a <= ROUTING_BENES_FULL; a++) {
            route_once((RoutingAlgorithm)a, k, 2, 1, n);
            check_rules((RoutingAlgorithm)a, k, 2, n);
            for (size_t i = 0; i < n; i++) {
                unsigned p = reqs[i].nth % 2;
                for (size_t j = 0; j < i; j++)
                    if (reqs[j].dst == reqs[i].dst && routes[j].plane == p) {
                        p ^= 1;
                        break;
                    }
                CHECK_EQ(routes[i].plane, p);
            }
        }
    }
}

/* Routes the batch reqs[0..n) with `r` and returns a hash of the routes. */
static uint64_t route_hash(Router *r, size_t n)
{
    router_route(r, reqs, n, routes);
    uint64_t h = 14695981039346656037u;
    for (size_t i = 0; i < n; i++)
        h = (h ^ (routes[i].routing | (uint64_t)routes[i].count << 32 |
                  (uint64_t)routes[i].plane << 40)) * 1099511628211u;
    return h;
}

/* valiant and random: the same seed gives the same routes, another seed
 * other routes; the generator runs on across batches, so two batches
 * routed one after the other get what one batch of both would get. */
static void seeds(void)
{
    uint32_t perm[256];
    uint64_t x = 5;
    test_shuffle(perm, 256, &x);
    make_batch(NULL, perm, NULL, 256);
    for (int a = ROUTING_VALIANT; a <= ROUTING_RANDOM; a++) {
        RoutingAlgorithm alg = (RoutingAlgorithm)a;
        Router *r1 = router_new(alg, 8, 2, 1), *r2 = router_new(alg, 8, 2, 1);
        Router *r3 = router_new(alg, 8, 2, 2), *r0 = router_new(alg, 8, 2, 0);
        uint64_t first = route_hash(r1, 256);
        CHECK_EQ(route_hash(r2, 256), first);
        CHECK(route_hash(r3, 256) != first);
        CHECK(route_hash(r0, 256) != first);
        uint64_t second = route_hash(r1, 256);   /* the state has moved on */
        CHECK(second != first);
        CHECK_EQ(route_hash(r2, 256), second);
        /* Two halves one after the other = the whole batch at once. */
        Router *whole = router_new(alg, 8, 2, 77), *halves = router_new(alg, 8, 2, 77);
        router_route(whole, reqs, 256, routes);
        Route all[256];
        memcpy(all, routes, sizeof all);
        router_route(halves, reqs, 100, routes);
        router_route(halves, reqs + 100, 156, routes + 100);
        CHECK(memcmp(all, routes, sizeof all) == 0);
        router_free(r0);
        router_free(r1);
        router_free(r2);
        router_free(r3);
        router_free(whole);
        router_free(halves);
    }
}

/* The deterministic algorithms give the same routes from the same router
 * for the same batch, whatever came before. */
static void repeatable(void)
{
    uint32_t perm[64];
    uint64_t x = 8;
    for (int a = 0; a < ROUTING_COUNT; a++) {
        if (a == ROUTING_VALIANT || a == ROUTING_RANDOM)
            continue;
        Router *r = router_new((RoutingAlgorithm)a, 6, 2, 1);
        test_shuffle(perm, 64, &x);
        make_batch(NULL, perm, NULL, 64);
        uint64_t h = route_hash(r, 64);
        for (uint32_t i = 0; i < 64; i++)
            perm[i] = 63 - perm[i];
        make_batch(NULL, perm, NULL, 64);
        route_hash(r, 64);
        for (uint32_t i = 0; i < 64; i++)
            perm[i] = 63 - perm[i];
        make_batch(NULL, perm, NULL, 64);
        CHECK_EQ(route_hash(r, 64), h);
        router_free(r);
    }
}

/* How many of the m routes in a and b differ. */
static size_t routes_differ(const Route *a, const Route *b, size_t m)
{
    size_t differ = 0;
    for (size_t i = 0; i < m; i++)
        differ += a[i].plane != b[i].plane || a[i].routing != b[i].routing ||
                  a[i].addressing != b[i].addressing || a[i].count != b[i].count;
    return differ;
}

/* Routes the batch in reqs[0..m) with r the reference way (group by
 * group, breadth first) and the way it would take, into routes; returns
 * how many of the m routes differ. */
static size_t differ_from_reference(Router *r, size_t m)
{
    static Route reference[MAX_BATCH];
    r->reference_only = true;
    router_route(r, reqs, m, reference);
    r->reference_only = false;
    router_route(r, reqs, m, routes);
    return routes_differ(reference, routes, m);
}

/* benes routes a batch whose sources and destinations (within each plane)
 * are distinct by walking each linked set instead of colouring it breadth
 * first (route_benes.c, benes_levels): the routes must be the same
 * as the general colouring's, for whole and partial permutations of every
 * size up to 16,384, on one plane and two, early turns or not, with the
 * sub-networks of the deeper levels walked together or one by one; and a
 * batch with a repeated destination, which takes the general way, too. */
static void benes_walk_equals_breadth_first(void)
{
    static uint32_t perm[MAX_BATCH], srcs[MAX_BATCH];
    static uint64_t nths[MAX_BATCH];
    uint64_t x = 21;
    size_t compared = 0, differ = 0;
    /* Sub-networks of 2^group_bits terminals and fewer are walked one by
     * one, with keys of their own: at 12 (the default) only above 4,096
     * processors, at 2 to 4 here for every k above them. */
    static const unsigned group_bits[] = { ROUTE_GROUP_BITS, 2, 3, 4 };
    for (unsigned k = 1; k <= 14; k++)
        for (unsigned planes = 1; planes <= 2; planes++)
            for (size_t g = 0; g < (k <= 12 ? 8 : 2); g++) {   /* above 12: the default */
                /* One router for all the trials: what a batch leaves in its
                 * scratch arrays must not change the next one's routes. */
                int full = g & 1;
                RoutingAlgorithm alg = full ? ROUTING_BENES_FULL : ROUTING_BENES;
                Router *r = router_new(alg, k, planes, 1);
                r->group_bits = group_bits[g / 2];
                for (int trial = 0; trial < 6; trial++) {
                    uint32_t n = 1u << k;
                    test_shuffle(perm, n, &x);
                    test_shuffle(srcs, n, &x);
                    for (uint32_t i = 0; i < n; i++)
                        nths[i] = test_rand(&x) % 3;
                    /* whole, half, a few; the last trial repeats a destination */
                    size_t m = trial < 2 ? n : trial < 4 ? (n + 1) / 2 : 1 + test_rand(&x) % n;
                    if (trial == 5 && m >= 3)
                        perm[m - 1] = perm[0];
                    make_batch(srcs, perm, nths, m);
                    differ += differ_from_reference(r, m);
                    compared += m;
                }
                router_free(r);
            }
    CHECK(compared > 400000);
    CHECK_EQ(differ, 0);
}

/* benes routes a batch with repeated terminals -- destinations that a
 * plane carries twice or more, as random traffic has, and sources repeated
 * in a batch made by hand -- by colouring every sub-network of a level at
 * once (route_benes.c, benes_bfs_levels): its routes must be those of the
 * reference way, group by group, for every size up to 4,096, one plane and
 * two, early turns or not, few repeats and many, the sub-networks of the
 * deeper levels routed together or one by one (of 4 to 16 terminals), one
 * router for all the batches of a size. */
static void benes_general_equals_reference(void)
{
    static uint32_t dsts[MAX_BATCH], srcs[MAX_BATCH];
    static uint64_t nths[MAX_BATCH];
    static const unsigned group_bits[] = { ROUTE_GROUP_BITS, 2, 3, 4 };
    uint64_t x = 99;
    size_t compared = 0, differ = 0, repeated = 0;
    for (unsigned k = 1; k <= 12; k++)
        for (unsigned planes = 1; planes <= 2; planes++)
            for (unsigned g = 0; g < 8; g++) {
                int full = g & 1;
                Router *r = router_new(full ? ROUTING_BENES_FULL : ROUTING_BENES, k, planes, 1);
                r->group_bits = group_bits[g / 2];
                uint32_t n = 1u << k;
                for (int trial = 0; trial < 6; trial++) {
                    /* sources distinct but for the last two trials; destinations
                     * drawn from all N, from a quarter of them, or from two */
                    test_shuffle(srcs, n, &x);
                    size_t m = trial % 2 ? n : 1 + test_rand(&x) % n;
                    uint32_t range = trial < 2 ? n : trial < 4 ? (n + 3) / 4 : 2;
                    for (size_t i = 0; i < m; i++) {
                        dsts[i] = (uint32_t)(test_rand(&x) % range) * (n / range);
                        nths[i] = test_rand(&x) % 3;
                        if (trial >= 4 && i > 0 && test_rand(&x) % 4 == 0)
                            srcs[i] = srcs[i - 1];
                    }
                    make_batch(srcs, dsts, nths, m);
                    differ += differ_from_reference(r, m);
                    compared += m;
                    /* (whether it takes the general way: a destination
                     * more times than there are planes, or a source twice) */
                    static uint32_t times[MAX_BATCH], from[MAX_BATCH];
                    bool general = false;
                    for (size_t i = 0; i < m; i++)
                        general |= ++times[dsts[i]] > planes || ++from[srcs[i]] > 1;
                    for (size_t i = 0; i < m; i++)
                        times[dsts[i]] = from[srcs[i]] = 0;
                    repeated += general;
                }
                router_free(r);
            }
    CHECK(compared > 300000);
    CHECK(repeated > 800);
    CHECK_EQ(differ, 0);
}

/* The walk's heads are never cleared: their values grow from a base,
 * and when the base would pass 2^32 the heads are cleared and it starts
 * again at 0 (route_benes.c, benes_levels). So after every batch no head
 * may be above the base (a value above it would name a packet of the next
 * batch); and batches routed across that point, whole and sparse, with
 * sub-networks walked together and one by one, destinations repeated or
 * not, and the point reached anywhere in a batch, get the reference
 * colouring's routes. */
static void benes_walk_base_starts_again(void)
{
    static uint32_t perm[MAX_BATCH], srcs[MAX_BATCH];
    uint64_t x = 77;
    size_t differ = 0, compared = 0, above = 0, restarted = 0;
    for (unsigned k = 6; k <= 10; k += 4)
        for (int trial = 0; trial < 24; trial++) {
            Router *r = router_new(ROUTING_BENES, k, 2, 1);
            uint32_t n = 1u << k;
            if (trial % 2)
                r->group_bits = 3;
            uint32_t start = UINT32_MAX - (uint32_t)(test_rand(&x) % (2 * k * n));
            r->walk_base[0] = start;
            for (int batch = 0; batch < 5; batch++) {
                test_shuffle(perm, n, &x);
                test_shuffle(srcs, n, &x);
                size_t m = batch % 3 == 0 ? n : 1 + n / 8;
                if (batch == 4)             /* destinations repeated: the general way */
                    for (size_t i = 0; i < m; i++)
                        perm[i] = perm[i / 4];
                make_batch(srcs, perm, NULL, m);
                differ += differ_from_reference(r, m);
                compared += m;
                for (size_t key = 0; key < 2 * (size_t)n; key++)
                    above += r->walk_heads[0][key] > r->walk_base[0];
            }
            restarted += r->walk_base[0] < start;
            router_free(r);
        }
    CHECK(restarted > 30);
    CHECK(compared > 20000);
    CHECK_EQ(above, 0);
    CHECK_EQ(differ, 0);
}

/* A runner for router_use_runner that runs the jobs one after another, the
 * last first: if the two planes shared anything, the order would show. */
static void backwards_runner(void *ctx, ParallelFn *fn, void *arg)
{
    unsigned *rounds = ctx;
    (*rounds)++;
    fn(arg, 2);
    fn(arg, 1);
    fn(arg, 0);
}

/* With a runner, benes routes the two planes of a batch of distinct
 * terminals as two jobs; the routes are those of one thread, batch after
 * batch (the heads each job clears must be zero for the next), and a batch
 * below the runner's minimum or with a repeated destination is routed
 * without it. */
static void benes_planes_as_two_jobs(void)
{
    static uint32_t perm[MAX_BATCH];
    static uint64_t nths[MAX_BATCH];
    static Route alone[MAX_BATCH];
    uint64_t x = 5;
    for (size_t i = 0; i < MAX_BATCH; i++)
        nths[i] = test_rand(&x) % 2;        /* both planes */
    for (int variant = 0; variant < 4; variant++) {
        int full = variant & 1;
        RoutingAlgorithm alg = full ? ROUTING_BENES_FULL : ROUTING_BENES;
        Router *one = router_new(alg, 10, 2, 1), *two = router_new(alg, 10, 2, 1);
        if (variant >= 2)       /* the planes' sub-networks walked one by one */
            one->group_bits = two->group_bits = 3;
        unsigned rounds = 0;
        CHECK_EQ(router_use_runner(two, backwards_runner, &rounds, 64), 0);
        size_t differ = 0, batches = 0;
        for (int trial = 0; trial < 8; trial++) {
            test_shuffle(perm, 1024, &x);
            size_t m = trial % 4 == 3 ? 40 : 1024 - 100 * (size_t)trial;
            if (trial == 6)                  /* one destination three times: */
                perm[5] = perm[9] = perm[0]; /* a plane carries it twice */
            make_batch(NULL, perm, nths, m);
            router_route(one, reqs, m, alone);
            router_route(two, reqs, m, routes);
            batches++;
            differ += routes_differ(alone, routes, m);
        }
        CHECK_EQ(differ, 0);
        CHECK_EQ(rounds, 5);                 /* 8 batches: two too small, one repeats */
        CHECK_EQ(batches, 8);
        router_free(one);
        router_free(two);
    }
}

/* Sets as reports show them (multicast.md): members ascending, at most 8
 * then "...+N"; "all" for a broadcast to every processor but the sender,
 * a set otherwise; and the counts that reach them. */
static void destination_sets(void)
{
    char buf[160];
    static const uint32_t few[] = { 1, 4, 5 }, many[] = { 0, 1, 2, 3, 4, 5, 6, 7, 8, 9, 10 };
    DestSet set = { few, 3, 0, 0, DEST_NONE, false };
    dest_set_format(buf, sizeof buf, &set);
    CHECK_STR(buf, "{1,4,5}");
    CHECK_EQ(dest_set_count(&set, 3), 3);        /* 3 and 4 meet at layer 3 */
    CHECK_EQ(dest_set_count(&set, 4), 3);
    CHECK(dest_set_has(&set, 4) && !dest_set_has(&set, 3) && !dest_set_has(&set, 6));
    set = (DestSet){ many, 11, 0, 0, DEST_NONE, false };
    dest_set_format(buf, sizeof buf, &set);
    CHECK_STR(buf, "{0,1,2,3,4,5,6,7,...+3}");
    set = dest_set_broadcast(3, 8, true);
    dest_set_format(buf, sizeof buf, &set);
    CHECK_STR(buf, "all");
    CHECK_EQ(set.n, 7);
    CHECK_EQ(dest_set_min(&set), 0);
    CHECK_EQ(dest_set_max(&set), 7);
    set = dest_set_broadcast(0, 5, false);       /* below 5: a set, not "all" */
    dest_set_format(buf, sizeof buf, &set);
    CHECK_STR(buf, "{1,2,3,4}");
    CHECK_EQ(dest_set_min(&set), 1);
    set = dest_set_broadcast(4, 5, false);
    CHECK_EQ(dest_set_max(&set), 3);
    CHECK(!dest_set_has(&set, 4) && dest_set_has(&set, 0));
    set = dest_set_broadcast(9, 5, false);       /* the sender is above the bound */
    CHECK_EQ(set.n, 5);
    RouteRequest req = { 2, 1, 3, 0, &set, 0 };
    Route r = { 0, 3, 5, 1 };
    route_format(buf, sizeof buf, 3, &req, &r, 0);
    CHECK_STR(buf, "route #3 p2->{0,1,2,3,4} port 3 plane 0 count 3 routing 0b01 "
                   "addressing -");
    /* A range's members skip its exception, which a copy's part of a
     * broadcast may leave below or above the range. */
    set = (DestSet){ NULL, 3, 4, 8, 6, false };
    CHECK(dest_set_member(&set, 0) == 4 && dest_set_member(&set, 1) == 5 &&
          dest_set_member(&set, 2) == 7);
    set = (DestSet){ NULL, 4, 4, 8, 2, false };
    CHECK(dest_set_member(&set, 0) == 4 && dest_set_member(&set, 3) == 7);
    set = (DestSet){ NULL, 4, 4, 8, 9, false };
    CHECK_EQ(dest_set_max(&set), 7);
    dest_name(buf, sizeof buf, NULL, 5);
    CHECK_STR(buf, "p5");
}

/* A multicast is routed as a unicast to its lowest member at the same
 * place in the batch, turning at the layer that reaches its whole set
 * (multicast.md): benes keeps the up ports its loop gave the lowest
 * member (those of benes-full below the count), dmodk takes the lowest
 * member's bits, benes-full, greedy and valiant turn at k anyway. */
static void multicast_routes(void)
{
    static const uint32_t members[] = { 1, 6 };     /* count 3 from 0, where 1 alone is 1 */
    DestSet set = { members, 2, 0, 0, DEST_NONE, false };
    RouteRequest batch[4] = { { 0, 1, 0, 0, &set, 0 }, { 2, 3, 0, 0, NULL, 0 },
                             { 5, 0, 0, 0, NULL, 0 }, { 7, 4, 0, 0, NULL, 0 } };
    RouteRequest unicast[4];
    memcpy(unicast, batch, sizeof batch);
    unicast[0].set = NULL;
    for (int a = 0; a < ROUTING_COUNT; a++) {
        Route mc[4], uc[4], full[4];
        Router *r = router_new((RoutingAlgorithm)a, 4, 2, 9), *u = router_new((RoutingAlgorithm)a, 4, 2, 9);
        Router *f = router_new(ROUTING_BENES_FULL, 4, 2, 9);
        router_route(r, batch, 4, mc);
        router_route(u, unicast, 4, uc);
        router_route(f, unicast, 4, full);
        unsigned want = a == ROUTING_BENES_FULL || a == ROUTING_GREEDY || a == ROUTING_VALIANT
                      ? 4 : 3;
        CHECK_EQ(mc[0].count, want);
        CHECK_EQ(mc[0].plane, uc[0].plane);
        for (int i = 1; i < 4; i++)              /* the others are as they were */
            if (a != ROUTING_RANDOM && a != ROUTING_VALIANT)
                CHECK(mc[i].count == uc[i].count && mc[i].routing == uc[i].routing);
        if (a == ROUTING_BENES)
            CHECK_EQ(mc[0].routing, full[0].routing & 3u);
        if (a == ROUTING_DMODK)
            CHECK_EQ(mc[0].routing, 1u);         /* bits of 1, the lowest member */
        router_free(r);
        router_free(u);
        router_free(f);
    }
}

int main(void)
{
    RUN(names);
    RUN(bad_router_arguments);
    RUN(format);
    RUN(spec_example);
    RUN(valid_single_packets);
    RUN(valid_all_permutations);
    RUN(valid_random_batches);
    RUN(valid_large_machines);
    RUN(golden_benes);
    RUN(golden_benes_full);
    RUN(golden_greedy);
    RUN(golden_greedy_planes);
    RUN(golden_dmodk);
    RUN(golden_adaptive);
    RUN(golden_valiant);
    RUN(golden_random);
    RUN(golden_plane_split);
    RUN(golden_skipped_partners);
    RUN(golden_breadth_first);
    RUN(benes_walk_equals_breadth_first);
    RUN(benes_planes_as_two_jobs);
    RUN(benes_walk_base_starts_again);
    RUN(benes_general_equals_reference);
    RUN(plane_split_rule);
    RUN(seeds);
    RUN(repeatable);
    RUN(destination_sets);
    RUN(multicast_routes);
    return CHECK_EXIT();
}
