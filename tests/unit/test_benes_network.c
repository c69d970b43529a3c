/* The collision-free property of spec/routing.md, established through the
 * real network step: a batch whose destinations are distinct within each
 * plane, routed by `benes` or `benes-full` (router_route), injected in one
 * timestep into an empty network (net_inject) and stepped (net_step) meets
 * no collision and no wait, and every packet arrives exactly 4c - 1
 * timesteps after its OUT, c being its route's count. Everything is measured
 * by the network itself: its collision and port-wait counters, its latency
 * sum, and each packet's own record (the timestep it was created and the
 * one it entered its input port, and the links it crossed).
 *
 * Covered: all 40,320 permutations of 8 processors, on one plane and on two
 * (the sources split over the planes in four ways), for each algorithm,
 * duplex mode and buffer size 1, 2 and 5; random full and partial
 * permutations of 16 .. 1,024 processors; batches in which destinations
 * repeat (what routing.md promises then); and `greedy` and `dmodk`, which
 * fail the property on many permutations: their counts through the network
 * are compared with the route-level counts of test_route_conflicts.c, and the
 * smallest failing permutation of each is a regression test worked out by
 * hand. A single batch can even deadlock the network in half duplex once
 * its packets are delayed: greedy does so on most permutations with one
 * place per buffer, and benes on some batches with repeated destinations;
 * the tests count those and check that they are network deadlocks.
 *
 * make test runs the permutations of 8 under a third of the configurations
 * (tests/README.md, "Full size and samples"); make check under all.
 *
 * Packets to one processor use distinct input ports, so two packets arriving
 * on its two planes never wait for one port: a wait would then be a failure
 * of the network, not of the test's set-up. */
#include <stdlib.h>
#include <string.h>

#include "net/net.h"
#include "net/route.h"
#include "tests/check.h"
#include "tests/perm.h"
#include "tests/unit/route_walk.h"

enum { MAX_K = 10, MAX_N = 1 << MAX_K };

/* A network and a router of one configuration, used batch after batch: a
 * batch starts once the previous one has drained and been read, so each
 * meets an empty network. A batch that ends in a network deadlock (half
 * duplex allows one) leaves packets behind: the network is then replaced. */
typedef struct Rig {
    NetConfig cfg;
    Net *net;
    Router *router;
    unsigned k, planes;
    uint64_t t;                 /* the last timestep run */
} Rig;

/* One batch: the requests, the routes the router gave them, and what the
 * network measured. */
typedef struct Batch {
    size_t n;
    RouteRequest reqs[MAX_N];
    Route routes[MAX_N];
    uint64_t latency[MAX_N];    /* per request: timestep it entered its port - OUT */
    uint32_t links[MAX_N];      /* per request: links crossed */
    uint8_t plane[MAX_N];       /* per request: the plane it travelled on */
    uint64_t link_collisions, buffer_collisions, port_waits, latency_sum;
    uint64_t drained;           /* timesteps after the OUT until the network was empty */
    uint32_t delivered;         /* packets found in their input ports */
    bool stuck;                 /* it ended in a network deadlock */
} Batch;

static Batch batch;             /* large; one at a time */

/* When each packet entered its input port, by its data word (its request's
 * index), as the network reports it. */
static uint64_t arrival[MAX_N];

static void on_event(void *ctx, const NetEvent *ev)
{
    (void)ctx;
    if (ev->kind == EV_DELIVERED && ev->packet->data < MAX_N)
        arrival[ev->packet->data] = ev->timestep;
}

static Net *rig_net(const NetConfig *cfg)
{
    Net *net = net_new(cfg);
    if (net)
        net_observe(net, on_event, NULL);
    return net;
}

static Rig rig_new(RoutingAlgorithm alg, unsigned k, unsigned planes, bool full,
                   unsigned buffer)
{
    NetConfig cfg = { k, planes, full, buffer, 16, 1, alg == ROUTING_ADAPTIVE, 1, SWITCHING_WORMHOLE };
    Rig r = { cfg, rig_net(&cfg), router_new(alg, k, planes, 1), k, planes, 0 };
    CHECK(r.net && r.router);
    return r;
}

static void rig_free(Rig *r)
{
    net_free(r->net);
    router_free(r->router);
}

/* Reads every packet of the batch from its input port (each request's data
 * word is its index) and records what its packet says of its journey. */
static void collect(Rig *r, Batch *b)
{
    b->delivered = 0;
    for (size_t i = 0; i < b->n; i++) {
        b->latency[i] = UINT64_MAX;
        b->links[i] = 0;
        b->plane[i] = UINT8_MAX;
    }
    for (size_t i = 0; i < b->n; i++) {
        uint32_t word;
        uint32_t x = net_take(r->net, b->reqs[i].dst, b->reqs[i].port, &word);
        if (x == NET_NIL)
            continue;
        NetPacket pk;
        net_taken_packet(r->net, x, &pk);
        CHECK_EQ(word, i);
        CHECK_EQ(pk.src, b->reqs[i].src);
        b->latency[word] = arrival[word] - pk.created;
        b->links[word] = pk.links;
        b->plane[word] = pk.route.plane;
        b->delivered++;
        net_release_read(r->net, x);
    }
}

/* Routes, injects and runs b->reqs in one timestep into the rig's empty
 * network until it is empty again, or until a timestep in which nothing
 * moved (which, as no input port is ever full, must be a network deadlock),
 * then reads every packet that arrived. With `check_each`, the network's
 * invariants are verified after every timestep and at the end; else only
 * its packet count (all of net_check would take a third of the time of the
 * exhaustive tests). */
static void run_batch(Rig *r, Batch *b, bool check_each)
{
    Net *net = r->net;
    const NetStats *st = net_stats(net);
    NetStats before = *st;
    char err[256];
    uint64_t t0 = r->t + 1, t = t0;
    router_route(r->router, b->reqs, b->n, b->routes);
    for (size_t i = 0; i < b->n; i++) {
        net_reserve_out(net, b->reqs[i].src);
        net_inject(net, &b->reqs[i], &b->routes[i], &(uint32_t){ (uint32_t)i }, t0);
    }
    b->stuck = false;
    for (;; t++) {
        net_step(net, t);
        if (check_each && net_check(net, err, sizeof err) != 0) {
            printf("  t=%llu: %s\n", (unsigned long long)t, err);
            CHECK(!"network invariants hold");
        }
        if (!net_busy(net))
            break;
        if (!net_moved(net)) {
            b->stuck = true;
            CHECK(net_is_stuck(net));
            break;
        }
    }
    r->t = t;
    b->drained = t - t0;
    b->link_collisions = st->link_total - before.link_total;
    b->buffer_collisions = st->buffer_total - before.buffer_total;
    b->port_waits = st->port_waits - before.port_waits;
    b->latency_sum = st->latency_sum - before.latency_sum;
    collect(r, b);
    if ((check_each || b->stuck) && net_check(net, err, sizeof err) != 0) {
        printf("  after the batch: %s\n", err);
        CHECK(!"the network is consistent after a batch");
    }
    if (b->stuck) {
        net_free(r->net);
        r->net = rig_net(&r->cfg);
        CHECK(r->net != NULL);
    } else {
        CHECK_EQ(st->read, st->sent);      /* every packet read: none left */
    }
}

/* The property: no collision, no port wait, every packet delivered exactly
 * 4c - 1 timesteps after its OUT having crossed 2c links, and the network
 * empty as soon as the last one arrived. */
static bool on_time(const Batch *b)
{
    uint64_t sum = 0, last = 0;
    if (b->stuck || b->delivered != b->n || b->link_collisions || b->buffer_collisions ||
        b->port_waits)
        return false;
    for (size_t i = 0; i < b->n; i++) {
        uint64_t c = b->routes[i].count;
        if (b->latency[i] != 4 * c - 1 || b->links[i] != 2 * c)
            return false;
        sum += 4 * c - 1;
        last = 4 * c - 1 > last ? 4 * c - 1 : last;
    }
    return b->latency_sum == sum && b->drained == last;
}

/* Packets that arrived later than 4c - 1. */
static uint32_t late_packets(const Batch *b)
{
    uint32_t late = 0;
    for (size_t i = 0; i < b->n; i++)
        late += b->latency[i] != 4u * b->routes[i].count - 1;
    return late;
}

static void print_batch(const char *why, const Batch *b)
{
    printf("  %s: %zu packets, %llu link + %llu buffer collisions, %llu port waits,"
           " %u delivered%s; dst:", why, b->n, (unsigned long long)b->link_collisions,
           (unsigned long long)b->buffer_collisions, (unsigned long long)b->port_waits,
           b->delivered, b->stuck ? ", stuck" : "");
    for (size_t i = 0; i < b->n && i < 16; i++)
        printf(" %u->%u", b->reqs[i].src, b->reqs[i].dst);
    printf("%s\n", b->n > 16 ? " ..." : "");
}

/* The full permutation perm of n processors as the batch; the plane each
 * source alternates to (nth) by `split`: 0 all plane 0, 1 src % 2,
 * 2 (src >> 1) % 2, 3 random. Every packet goes to input port 0. */
static void perm_batch(Batch *b, const uint32_t *perm, uint32_t n, int split, uint64_t *x)
{
    b->n = n;
    for (uint32_t i = 0; i < n; i++) {
        b->reqs[i] = (RouteRequest){ i, perm[i], 0, 0, NULL, 0 };
        b->reqs[i].nth = split == 0 ? 0 : split == 1 ? i % 2 :
                         split == 2 ? (i >> 1) % 2 : test_rand(x) % 2;
    }
}

static const unsigned buffers[] = { 1, 2, 5 };
enum { NBUFFERS = sizeof buffers / sizeof buffers[0] };

/* Every permutation of 8 processors, for both algorithms, both duplex modes,
 * buffers of 1, 2 and 5 places, one plane and two. With two planes the four
 * splits take turns, permutation by permutation. 967,680 batches; make test
 * runs, for each algorithm and duplex mode, one number of planes and one
 * buffer size, in turn: 161,280 (TEST_FULL, tests/check.h). */
static void benes_every_permutation_of_8(void)
{
    uint64_t x = 8;
    for (int a = ROUTING_BENES; a <= ROUTING_BENES_FULL; a++)
        for (int full = 0; full <= 1; full++)
            for (int bi = 0; bi < NBUFFERS; bi++)
                for (unsigned planes = 1; planes <= 2; planes++) {
                    if (!test_full() && (bi != (a * 4 + full * 2 + (int)planes - 1) % NBUFFERS ||
                                         (int)planes - 1 != (a + full) % 2))
                        continue;
                    Rig r = rig_new((RoutingAlgorithm)a, 3, planes, full, buffers[bi]);
                    uint32_t perm[8] = { 0, 1, 2, 3, 4, 5, 6, 7 };
                    long count = 0, failed = 0;
                    do {
                        perm_batch(&batch, perm, 8, planes == 1 ? 0 : (int)(count % 4), &x);
                        run_batch(&r, &batch, false);
                        if (!on_time(&batch) && failed++ == 0)
                            print_batch(routing_name((RoutingAlgorithm)a), &batch);
                        count++;
                    } while (next_permutation(perm, 8));
                    CHECK_EQ(count, 40320);
                    CHECK_EQ(failed, 0);
                    rig_free(&r);
                }
}

/* A random batch of 2^k processors: a full permutation, or (partial) a
 * random share of the sources, 1/8 to 7/8, sent to distinct destinations;
 * random planes to alternate to. */
static void random_batch(Batch *b, unsigned k, bool partial, uint64_t *x)
{
    static uint32_t perm[MAX_N];
    uint32_t n = 1u << k;
    uint64_t keep = 1 + test_rand(x) % 7;
    test_shuffle(perm, n, x);
    b->n = 0;
    for (uint32_t s = 0; s < n; s++) {
        if (partial && test_rand(x) % 8 >= keep)
            continue;
        b->reqs[b->n++] = (RouteRequest){ s, perm[s], (uint32_t)(test_rand(x) % 16),
                                          test_rand(x) % 4, NULL, 0 };
    }
}

/* Random full and partial permutations of 16 .. 1,024 processors: for each
 * size, algorithm, duplex mode, buffer size and number of planes, two of
 * each. 672 batches; invariants checked after every timestep. */
static void benes_random_permutations(void)
{
    uint64_t x = 2015;
    long batches = 0, failed = 0;
    for (unsigned k = 4; k <= 10; k++)
        for (int a = ROUTING_BENES; a <= ROUTING_BENES_FULL; a++)
            for (int full = 0; full <= 1; full++)
                for (int bi = 0; bi < NBUFFERS; bi++)
                    for (unsigned planes = 1; planes <= 2; planes++) {
                        Rig r = rig_new((RoutingAlgorithm)a, k, planes, full, buffers[bi]);
                        for (int trial = 0; trial < 4; trial++) {
                            random_batch(&batch, k, trial % 2, &x);
                            run_batch(&r, &batch, k <= 6);
                            if (!on_time(&batch) && failed++ == 0)
                                print_batch(routing_name((RoutingAlgorithm)a), &batch);
                            batches++;
                        }
                        rig_free(&r);
                    }
    CHECK_EQ(batches, 7 * 2 * 2 * NBUFFERS * 2 * 4);
    CHECK_EQ(failed, 0);
}

/* ---- repeated destinations -------------------------------------------------- */

/* A batch of all 2^k sources to random destinations, each wanted by at most
 * `share` of them; the i-th request to a destination uses input port i, so
 * packets to one processor never wait for one port. */
static void shared_batch(Batch *b, unsigned k, unsigned share, uint64_t *x)
{
    static uint32_t slots[3 * MAX_N];
    static uint8_t seen[MAX_N];
    uint32_t n = 1u << k;
    test_shuffle(slots, share * n, x);
    memset(seen, 0, n);
    b->n = n;
    for (uint32_t s = 0; s < n; s++) {
        uint32_t d = slots[s] % n;
        b->reqs[s] = (RouteRequest){ s, d, seen[d]++, test_rand(x) % 2, NULL, 0 };
    }
}

/* Checks what routing.md promises when destinations repeat within a plane:
 * those packets "simply meet in the network". Nobody waits for a port; two
 * packets of one plane to one destination that turn at the same layer
 * cannot both be on time (they want the last buffer down at the same hop);
 * every late packet was held up by a collision (a packet is late only after
 * a failed claim, a refusal or a queue, each counted); and every packet
 * arrives -- except that in half duplex the delays can end in a network
 * deadlock (machine.md), which run_batch has verified to be one. Returns
 * the number of such pairs. */
static uint32_t check_meetings(const Batch *b, bool full)
{
    uint32_t pairs = 0;
    CHECK(!b->stuck || !full);
    if (!b->stuck)
        CHECK_EQ(b->delivered, b->n);
    CHECK_EQ(b->port_waits, 0);
    CHECK(late_packets(b) <= b->link_collisions + b->buffer_collisions);
    for (size_t i = 0; i < b->n; i++)
        for (size_t j = i + 1; j < b->n; j++)
            if (b->reqs[i].dst == b->reqs[j].dst && b->plane[i] == b->plane[j] &&
                b->routes[i].count == b->routes[j].count) {
                CHECK(b->latency[i] > 4u * b->routes[i].count - 1 ||
                      b->latency[j] > 4u * b->routes[j].count - 1);
                pairs++;
            }
    return pairs;
}

/* Two planes, each destination wanted by at most two sources: the plane
 * split separates every pair, each plane carries a partial permutation, and
 * the property holds. */
static void benes_pairs_on_two_planes(void)
{
    uint64_t x = 2;
    long batches = 0, failed = 0;
    for (unsigned k = 1; k <= 10; k++)
        for (int a = ROUTING_BENES; a <= ROUTING_BENES_FULL; a++)
            for (int full = 0; full <= 1; full++)
                for (int bi = 0; bi < NBUFFERS; bi++) {
                    Rig r = rig_new((RoutingAlgorithm)a, k, 2, full, buffers[bi]);
                    for (int trial = 0; trial < (k <= 4 ? 40 : 4); trial++) {
                        shared_batch(&batch, k, 2, &x);
                        run_batch(&r, &batch, k <= 6);
                        if (!on_time(&batch) && failed++ == 0)
                            print_batch(routing_name((RoutingAlgorithm)a), &batch);
                        for (size_t i = 0; i < batch.n; i++)
                            for (size_t j = i + 1; j < batch.n && k <= 6; j++)
                                if (batch.reqs[i].dst == batch.reqs[j].dst)
                                    CHECK(batch.plane[i] != batch.plane[j]);
                        batches++;
                    }
                    rig_free(&r);
                }
    CHECK_EQ(failed, 0);
    printf("  %ld batches with destinations wanted twice, all on time\n", batches);
}

/* A permutation of 2^k processors (k >= 2) but for one destination wanted
 * by three sources a < m < c, on ports 0, 1, 2. */
static void triple_batch(Batch *b, unsigned k, uint64_t *x)
{
    static uint32_t perm[MAX_N];
    uint32_t n = 1u << k, a = (uint32_t)(test_rand(x) % (n - 2));
    uint32_t c = n - 1 - (uint32_t)(test_rand(x) % (n - 2 - a)), m = a + 1;
    m += (uint32_t)(test_rand(x) % (c - a - 1));          /* a < m < c */
    test_shuffle(perm, n, x);
    b->n = n;
    for (uint32_t s = 0; s < n; s++)
        b->reqs[s] = (RouteRequest){ s, perm[s], 0, test_rand(x) % 2, NULL, 0 };
    b->reqs[m].dst = b->reqs[c].dst = perm[a];
    b->reqs[m].port = 1;
    b->reqs[c].port = 2;
}

/* After a triple_batch: the first two of the three go to different planes
 * (the split), the third joins one of them; every packet of the other plane
 * is on time, as that plane carries a partial permutation. */
static void check_clean_plane(const Batch *b)
{
    size_t three[3], found = 0;
    for (size_t i = 0; i < b->n && found < 3; i++)
        for (size_t j = 0; j < b->n; j++)
            if (j != i && b->reqs[j].dst == b->reqs[i].dst) {
                three[found++] = i;
                break;
            }
    CHECK_EQ(found, 3);
    if (found != 3)
        return;
    CHECK(b->plane[three[0]] != b->plane[three[1]]);
    unsigned clean = b->plane[three[2]] ^ 1u;
    for (size_t i = 0; i < b->n; i++)
        if (b->plane[i] == clean) {
            CHECK_EQ(b->latency[i], 4u * b->routes[i].count - 1);
            CHECK_EQ(b->links[i], 2u * b->routes[i].count);
        }
}

/* One plane with destinations wanted twice, and two planes with
 * destinations wanted three times: those packets meet (check_meetings).
 * With two planes, a batch that is a permutation but for one destination
 * wanted three times keeps the other plane clean: its packets are all on
 * time. Under benes-full every pair turns at the same layer, k. */
static void benes_repeats_meet(void)
{
    uint64_t x = 3;
    long pairs = 0, batches = 0, deadlocks = 0;
    for (unsigned k = 2; k <= 8; k++)
        for (int a = ROUTING_BENES; a <= ROUTING_BENES_FULL; a++)
            for (int full = 0; full <= 1; full++)
                for (int bi = 0; bi < NBUFFERS; bi++)
                    for (unsigned planes = 1; planes <= 2; planes++) {
                        Rig r = rig_new((RoutingAlgorithm)a, k, planes, full, buffers[bi]);
                        for (int trial = 0; trial < 6; trial++) {
                            shared_batch(&batch, k, planes + 1, &x);
                            run_batch(&r, &batch, k <= 5);
                            pairs += check_meetings(&batch, full);
                            deadlocks += batch.stuck;
                            batches++;
                        }
                        if (planes == 2)
                            for (int trial = 0; trial < 6; trial++) {
                                triple_batch(&batch, k, &x);
                                run_batch(&r, &batch, k <= 5);
                                check_meetings(&batch, full);
                                deadlocks += batch.stuck;
                                check_clean_plane(&batch);
                                batches++;
                            }
                        rig_free(&r);
                    }
    printf("  %ld batches with repeated destinations, %ld meeting pairs, %ld network "
           "deadlocks (half duplex)\n", batches, pairs, deadlocks);
    CHECK(pairs > 0);
}

/* ---- greedy and dmodk fail it ------------------------------------------------ */

/* Runs every permutation of 8 processors with `alg` on one plane through the
 * network; returns how many are not on time and stores the smallest of them
 * (lexicographic order of the destinations). Each verdict must agree with
 * the route-level one of route_walk.h (two packets on one link, or entering
 * one buffer, at the same hop): *disagree counts those that do not. */
static long network_failures(RoutingAlgorithm alg, bool full, unsigned buffer,
                             uint32_t *smallest, long *disagree, long *deadlocks)
{
    Rig r = rig_new(alg, 3, 1, full, buffer);
    uint32_t perm[8] = { 0, 1, 2, 3, 4, 5, 6, 7 };
    long failed = 0;
    do {
        perm_batch(&batch, perm, 8, 0, NULL);
        run_batch(&r, &batch, false);
        CHECK(batch.stuck ? !full : batch.delivered == 8);
        *deadlocks += batch.stuck;
        bool late = !on_time(&batch);
        Conflicts cf = check_batch(3, 1, batch.reqs, 8, batch.routes);
        *disagree += late != (cf.same_dir + cf.buffer != 0);
        if (late && failed++ == 0)
            memcpy(smallest, perm, sizeof perm);
    } while (next_permutation(perm, 8));
    rig_free(&r);
    return failed;
}

/* The route-level counts of test_route_conflicts.c, through the network,
 * for both duplex modes and every buffer size: a batch meets its first
 * collision while every packet is still on time, so only the routes decide
 * whether it meets one, and neither the link model nor the buffer size
 * changes the count. What happens after that first collision does depend
 * on them: greedy with half duplex and one place per buffer ends most of
 * those batches in a network deadlock. make test runs one buffer size, in
 * turn, for each algorithm and duplex mode (greedy in half duplex with one
 * place among them); make check all three (TEST_FULL, tests/check.h). */
static void greedy_and_dmodk_fail_through_the_network(void)
{
    static const struct { RoutingAlgorithm alg; long expect; uint32_t smallest[8]; } cases[] = {
        { ROUTING_GREEDY, 36224, { 0, 1, 2, 3, 4, 6, 5, 7 } },
        { ROUTING_DMODK, 23808, { 0, 1, 2, 4, 3, 7, 5, 6 } },
    };
    for (int c = 0; c < 2; c++)
        for (int full = 0; full <= 1; full++)
            for (int bi = 0; bi < NBUFFERS; bi++) {
                if (!test_full() && bi != (c * 2 + full) % NBUFFERS)
                    continue;
                uint32_t smallest[8] = { 0 };
                long disagree = 0, deadlocks = 0;
                long failed = network_failures(cases[c].alg, full, buffers[bi], smallest,
                                               &disagree, &deadlocks);
                printf("  %s, %s duplex, buffer %u: %ld of 40320 permutations of 8 "
                       "collide (%ld of them deadlock); smallest %u%u%u%u%u%u%u%u\n",
                       routing_name(cases[c].alg), full ? "full" : "half", buffers[bi], failed,
                       deadlocks, smallest[0], smallest[1], smallest[2], smallest[3],
                       smallest[4], smallest[5], smallest[6], smallest[7]);
                CHECK_EQ(failed, cases[c].expect);
                CHECK_EQ(disagree, 0);
                /* greedy_deadlock_01243567 says why these deadlock. */
                CHECK_EQ(deadlocks, cases[c].alg == ROUTING_GREEDY && !full &&
                                    buffers[bi] == 1 ? 31104 : 0);
                CHECK(memcmp(smallest, cases[c].smallest, sizeof smallest) == 0);
            }
}

/* Runs the permutation perm of 8 with `alg` on one plane in a fresh rig, so
 * that the network's statistics are the batch's; the caller frees the rig. */
static Rig run_perm8(RoutingAlgorithm alg, const uint32_t *perm, bool full, unsigned buffer)
{
    Rig r = rig_new(alg, 3, 1, full, buffer);
    perm_batch(&batch, perm, 8, 0, NULL);
    run_batch(&r, &batch, true);
    CHECK(!batch.stuck);
    CHECK_EQ(batch.delivered, 8);
    CHECK_EQ(batch.port_waits, 0);
    return r;
}

/* greedy's smallest failure: p5->p6 and p6->p5, every other processor to
 * itself; everything turns at layer 3 (latency 11 on time). Layer 1 sends
 * the even sources up port 0, the odd ones up port 1; layer 2 sends the
 * first packet into each switch up port 0, the second up port 1. Coming down,
 * p4 (to 4) and p6 (to 5) both reach switch (2,2), from (3,0) on its up port
 * u0 and from (3,2) on u1, at hop 4, and both want down port 0 (bit 1 of 4
 * and of 5); so do p5 (to 6) and p7 (to 7) at (2,3), both wanting d1. In
 * stage d the packet on the lower port enters first: p6 and p7 queue behind
 * p4 and p5 (one buffer collision each, layer 2 down) and leave one
 * timestep later (latency 12); nothing else ever meets. With one place per
 * buffer they are refused instead, at the timestep they arrive and the next
 * (the head's place counts as free only from the timestep after it leaves):
 * two buffer collisions each, latency 13. The link model plays no part:
 * nothing crosses those links the other way. */
static void greedy_regression_01234657(void)
{
    static const uint32_t perm[8] = { 0, 1, 2, 3, 4, 6, 5, 7 };
    for (int full = 0; full <= 1; full++)
        for (int bi = 0; bi < NBUFFERS; bi++) {
            Rig r = run_perm8(ROUTING_GREEDY, perm, full, buffers[bi]);
            uint64_t late = buffers[bi] == 1 ? 2 : 1;
            CHECK_EQ(net_stats(r.net)->link_total, 0);
            CHECK_EQ(net_stats(r.net)->buffer_total, 2 * late);
            CHECK_EQ(net_stats(r.net)->buffer_collisions[DIR_DOWN][2], 2 * late);
            for (uint32_t s = 0; s < 8; s++)
                CHECK_EQ(batch.latency[s], 11 + (s == 6 || s == 7 ? late : 0));
            rig_free(&r);
            r = run_perm8(ROUTING_BENES, perm, full, buffers[bi]);
            CHECK(on_time(&batch));
            rig_free(&r);
        }
}

/* dmodk's smallest failure: p3->p4, p4->p3, p5->p7, p6->p5, p7->p6, p0..p2
 * to themselves. Counts are cmin: 3 for p3 and p4, 2 for p5 and p6, 1 for
 * the rest; the up port at layer l is bit l-1 of the destination. p4 (to 3)
 * and p5 (to 7) share switch (1,2), and bit 0 of 3 and of 7 is 1: both enter
 * its buffer u1 at the first hop, p5 (port d1) behind p4 (d0): one buffer
 * collision, layer 1 up, and p5 arrives one timestep late (latency 8).
 * p5's next link, (1,2).u1 up to (2,3).d0, is the one p6 takes down after
 * turning at (2,3); p6 claims it as p5 leaves it, so they pass.
 * With one place per buffer p5 is refused twice and is two timesteps late
 * (latency 9), and climbs that link at the very timestep p6 claims it to
 * come down: in half duplex both claim its one temp slot, the upward claim
 * comes first in the spec's order and wins, and p6 meets a link collision
 * (layer 2, down) and is one timestep late (latency 8); in full duplex the
 * two directions are two links and p6 is on time. */
static void dmodk_regression_01243756(void)
{
    static const uint32_t perm[8] = { 0, 1, 2, 4, 3, 7, 5, 6 };
    static const uint64_t on_time_latency[8] = { 3, 3, 3, 11, 11, 7, 7, 3 };
    for (int full = 0; full <= 1; full++)
        for (int bi = 0; bi < NBUFFERS; bi++) {
            Rig r = run_perm8(ROUTING_DMODK, perm, full, buffers[bi]);
            bool one = buffers[bi] == 1;
            uint64_t p6_late = one && !full;
            CHECK_EQ(net_stats(r.net)->buffer_total, one ? 2 : 1);
            CHECK_EQ(net_stats(r.net)->buffer_collisions[DIR_UP][1], one ? 2 : 1);
            CHECK_EQ(net_stats(r.net)->link_total, p6_late);
            CHECK_EQ(net_stats(r.net)->link_collisions[DIR_DOWN][2], p6_late);
            for (uint32_t s = 0; s < 8; s++)
                CHECK_EQ(batch.latency[s], on_time_latency[s] + (s == 5 ? 1u + one : 0) +
                                           (s == 6 ? p6_late : 0));
            rig_free(&r);
            r = run_perm8(ROUTING_BENES, perm, full, buffers[bi]);
            CHECK(on_time(&batch));
            rig_free(&r);
        }
}

/* Where the packets from p3 and p7 are held (greedy_deadlock_01243567). */
typedef struct Places {
    Net *net;
    char name[2][64];
} Places;

static void name_held(void *ctx, const NetPacket *pk)
{
    Places *where = ctx;
    bool held = pk->place == PLACE_LINK || pk->place == PLACE_BUFFER;
    if (held && (pk->src == 3 || pk->src == 7))
        net_place_name(where->net, pk, where->name[pk->src == 7], sizeof where->name[0]);
}

/* Why greedy deadlocks so often in half duplex with one place per buffer
 * (31,104 of the permutations of 8): its packets all climb to layer k, a
 * packet to a nearby processor comes back down the link it went up, and
 * two packets that meet at a top switch can block each other for ever. The
 * first such permutation, p3->p4 and p4->p3 (the rest to themselves): p3
 * and p7 (to itself) both climb to switch (3,3), p3 on d0 and p7 on d1, and
 * both want its buffer d1 (bit 2 of 4 and of 7). p3 enters first; p7 is
 * refused and waits on the link it came up, p0.l2.s3.u1, which is the link
 * below d1, the one p3 must go down. In half duplex that link's one slot
 * holds p7, so neither can ever move: a network deadlock, with the other
 * six packets delivered. In full duplex the way down is a link of its own
 * and everything arrives. */
static void greedy_deadlock_01243567(void)
{
    static const uint32_t perm[8] = { 0, 1, 2, 4, 3, 5, 6, 7 };
    for (int full = 0; full <= 1; full++) {
        Rig r = rig_new(ROUTING_GREEDY, 3, 1, full, 1);
        perm_batch(&batch, perm, 8, 0, NULL);
        run_batch(&r, &batch, true);      /* replaces the network if stuck */
        CHECK_EQ(batch.stuck, !full);
        CHECK_EQ(batch.delivered, full ? 8 : 6);
        CHECK_EQ(batch.port_waits, 0);
        if (!full) {
            CHECK_EQ(batch.latency[3], UINT64_MAX);
            CHECK_EQ(batch.latency[7], UINT64_MAX);
        }
        rig_free(&r);
    }
    /* The same batch, stopped where it stands, shows the two places. */
    Rig r = rig_new(ROUTING_GREEDY, 3, 1, false, 1);
    perm_batch(&batch, perm, 8, 0, NULL);
    router_route(r.router, batch.reqs, 8, batch.routes);
    for (uint32_t s = 0; s < 8; s++) {
        net_reserve_out(r.net, s);
        net_inject(r.net, &batch.reqs[s], &batch.routes[s], &(uint32_t){ s }, 1);
    }
    for (uint64_t t = 1; t <= 20; t++)
        net_step(r.net, t);
    Places where = { r.net, { "", "" } };
    net_for_each_in_flight(r.net, name_held, &where);
    CHECK_STR(where.name[0], "buffer p0.l3.s3.d1 place 1 of 1");
    CHECK_STR(where.name[1], "link p0.l2.s3.u1 up");
    CHECK(!net_moved(r.net));
    CHECK(net_is_stuck(r.net));
    rig_free(&r);
}

int main(void)
{
    RUN(benes_every_permutation_of_8);
    RUN(benes_random_permutations);
    RUN(benes_pairs_on_two_planes);
    RUN(benes_repeats_meet);
    RUN(greedy_and_dmodk_fail_through_the_network);
    RUN(greedy_regression_01234657);
    RUN(dmodk_regression_01243756);
    RUN(greedy_deadlock_01243567);
    return CHECK_EXIT();
}
