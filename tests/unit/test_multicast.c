/* Multicast through the real network (spec/multicast.md): the routers
 * route a set as to its lowest member, the switches split it on the way
 * down, and the reference stage runs beside every network here, so every
 * timestep is also compared with the spec's own.
 *
 * The property of multicast.md: a lone multicast (random sets that may
 * name the sender, broadcasts, every routing, both duplex modes, N = 2 to
 * 1,024) meets no collision and every copy is in its input port 4c - 1
 * timesteps after the send, c its count. And: the links a lone broadcast
 * crosses, worked out by hand; every processor broadcasting at once;
 * conservation, delivered = sent + copies. */
#include <stdlib.h>

#include "net/net.h"
#include "net/route.h"
#include "net/topology.h"
#include "tests/check.h"

static uint64_t rng = 11;

static uint32_t rnd(uint32_t n)
{
    rng = rng * 6364136223846793005ull + 1442695040888963407ull;
    return (uint32_t)((rng >> 33) % n);
}

/* A network; beside the reference stage, but for the largest, where the
 * invariants are checked every 64th timestep instead of every one. */
static Net *make(unsigned k, bool full, RoutingAlgorithm alg)
{
    NetConfig cfg = { k, 2, full, 2, 4, 1, alg == ROUTING_ADAPTIVE, 1, SWITCHING_WORMHOLE };
    Net *net = net_new(&cfg);
    CHECK(net != NULL);
    if (k < 10)
        CHECK_EQ(net_compare_with_reference(net), 0);
    return net;
}

/* Steps the network from timestep t until it is empty (or `limit`
 * timesteps), reading every port of `readers` processors each timestep;
 * returns the last timestep. */
static uint64_t drain(Net *net, uint32_t n, uint64_t t, uint64_t limit)
{
    char err[256];
    uint64_t end = t + limit;
    for (; t < end; t++) {
        net_begin_timestep(net, t);
        for (uint32_t p = 0; p < n; p++)
            for (uint32_t port = 0; port < 4; port++) {
                uint32_t w;
                while (net_in_take(net, p, port, &w))
                    ;
            }
        const NetStepResult *r = net_step(net, t);
        if (net_reference_error(net)) {
            printf("  t=%llu: %s\n", (unsigned long long)t, net_reference_error(net));
            CHECK(!"the fast stage agrees with the reference stage");
            break;
        }
        if ((n < 1024 || t % 64 == 0) && net_check(net, err, sizeof err) != 0) {
            printf("  t=%llu: %s\n", (unsigned long long)t, err);
            CHECK(!"network invariants hold");
            break;
        }
        if (!r->busy)
            break;
    }
    return t;
}

/* A random set of m destinations (with repeats, and maybe the sender),
 * made distinct and ascending as the machine makes MOUT's. */
static uint32_t random_members(uint32_t n, uint32_t m, uint32_t *out)
{
    for (uint32_t i = 0; i < m; i++)
        out[i] = rnd(n);
    uint32_t kept = 0;
    for (uint32_t i = 0; i < m; i++) {              /* (insertion sort, dropping repeats) */
        uint32_t v = out[i], j = kept;
        bool seen = false;
        for (uint32_t a = 0; a < kept; a++)
            seen |= out[a] == v;
        if (seen)
            continue;
        while (j > 0 && out[j - 1] > v) {
            out[j] = out[j - 1];
            j--;
        }
        out[j] = v;
        kept++;
    }
    return kept;
}

/* One lone multicast from src to `set` at timestep 1: it must arrive
 * everywhere at 4c - 1 with no collision; returns its route's count. */
static unsigned lone(unsigned k, bool full, RoutingAlgorithm alg, uint32_t src,
                     const DestSet *set)
{
    uint32_t n = 1u << k;
    Net *net = make(k, full, alg);
    Router *router = router_new(alg, k, 2, 3);
    RouteRequest req = { src, dest_set_min(set), rnd(4), 0, set, 0 };
    Route route;
    router_route(router, &req, 1, &route);
    unsigned c = route.count;
    net_reserve_out(net, src);
    net_inject(net, &req, &route, &(uint32_t){ 77 }, 1);
    drain(net, n, 1, 20ull * k + 20);
    const NetStats *st = net_stats(net);
    bool ok = st->link_total + st->buffer_total == 0 && st->port_waits == 0 &&
              st->delivered == set->n && st->copies == set->n - 1 &&
              st->latency_min == 4 * c - 1 && st->latency_max == 4 * c - 1 &&
              st->multicasts == 1 && !net_busy(net);
    if (!ok) {
        printf("  N=%u %s %s from p%u to %u members, count %u: %llu collisions, %llu port "
               "waits, %llu delivered, %llu copies, latency %llu..%llu\n", n,
               full ? "full" : "half", routing_name(alg), src, set->n, c,
               (unsigned long long)(st->link_total + st->buffer_total),
               (unsigned long long)st->port_waits, (unsigned long long)st->delivered,
               (unsigned long long)st->copies, (unsigned long long)st->latency_min,
               (unsigned long long)st->latency_max);
        CHECK(!"a lone multicast arrives everywhere at 4c - 1");
    }
    unsigned want = alg == ROUTING_BENES_FULL || alg == ROUTING_GREEDY ||
                    alg == ROUTING_VALIANT ? k : dest_set_count(set, src);
    CHECK_EQ(c, want);
    router_free(router);
    net_free(net);
    return c;
}

static void lone_multicast_arrives_on_time(void)
{
    static uint32_t members[1024];
    for (unsigned k = 1; k <= 10; k++) {
        uint32_t n = 1u << k;
        for (int alg = 0; alg < ROUTING_COUNT; alg++)
            for (int full = 0; full <= 1; full++) {
                unsigned rounds = k <= 6 ? 4 : 1;
                for (unsigned r = 0; r < rounds; r++) {
                    uint32_t src = rnd(n);
                    uint32_t m = random_members(n, 2 + rnd(n < 16 ? n : 16), members);
                    DestSet list = { members, m, 0, 0, DEST_NONE, false };
                    if (m >= 2)
                        lone(k, full, (RoutingAlgorithm)alg, src, &list);
                    uint32_t bound = 1 + rnd(n);        /* every processor below it */
                    DestSet all = dest_set_broadcast(src, bound, bound == n);
                    if (all.n >= 2)
                        lone(k, full, (RoutingAlgorithm)alg, src, &all);
                }
            }
    }
}

/* The links a lone broadcast to every processor crosses, each once: from
 * p5 of 8 up 3 links to a top switch, then down to the 2 switches of
 * layer 2, the 4 of layer 1 and the 7 other processors: 16. Of 16
 * processors, from p0: 4 up, then 2 + 4 + 8 + 15 down: 33. */
static void broadcast_crosses_each_link_once(void)
{
    for (int alg = 0; alg < ROUTING_COUNT; alg++) {
        DestSet all8 = dest_set_broadcast(5, 8, true);
        DestSet all16 = dest_set_broadcast(0, 16, true);
        Net *net = make(3, false, (RoutingAlgorithm)alg);
        Router *router = router_new((RoutingAlgorithm)alg, 3, 2, 1);
        RouteRequest req = { 5, 0, 0, 0, &all8, 0 };
        Route route;
        router_route(router, &req, 1, &route);
        net_reserve_out(net, 5);
        net_inject(net, &req, &route, &(uint32_t){ 1 }, 1);
        drain(net, 8, 1, 100);
        CHECK_EQ(net_stats(net)->links_crossed, 16);
        CHECK_EQ(net_stats(net)->delivered, 7);
        router_free(router);
        net_free(net);
        net = make(4, true, (RoutingAlgorithm)alg);
        router = router_new((RoutingAlgorithm)alg, 4, 2, 1);
        req = (RouteRequest){ 0, 1, 0, 0, &all16, 0 };
        router_route(router, &req, 1, &route);
        net_reserve_out(net, 0);
        net_inject(net, &req, &route, &(uint32_t){ 1 }, 1);
        drain(net, 16, 1, 100);
        CHECK_EQ(net_stats(net)->links_crossed, 33);
        CHECK_EQ(net_stats(net)->delivered, 15);
        router_free(router);
        net_free(net);
    }
}

/* Every processor broadcasts at once, in full duplex: it completes, with
 * N - 2 copies of each broadcast and N - 1 deliveries. */
static void everyone_broadcasts(void)
{
    static const unsigned ks[] = { 4, 6, 10 };
    for (size_t i = 0; i < sizeof ks / sizeof ks[0]; i++) {
        unsigned k = ks[i];
        uint32_t n = 1u << k;
        Net *net = make(k, true, ROUTING_BENES);
        Router *router = router_new(ROUTING_BENES, k, 2, 1);
        DestSet *sets = malloc(n * sizeof *sets);
        RouteRequest *reqs = malloc(n * sizeof *reqs);
        Route *routes = malloc(n * sizeof *routes);
        for (uint32_t p = 0; p < n; p++) {
            sets[p] = dest_set_broadcast(p, n, true);
            reqs[p] = (RouteRequest){ p, dest_set_min(&sets[p]), p % 4, 0, &sets[p], 0 };
            net_reserve_out(net, p);
        }
        router_route(router, reqs, n, routes);
        for (uint32_t p = 0; p < n; p++)
            net_inject(net, &reqs[p], &routes[p], &(uint32_t){ p }, 1);
        drain(net, n, 1, 100000);
        const NetStats *st = net_stats(net);
        CHECK(!net_busy(net));
        CHECK_EQ(st->copies, (uint64_t)n * (n - 2));
        CHECK_EQ(st->delivered, (uint64_t)n * (n - 1));
        CHECK_EQ(st->delivered, st->sent + st->copies);
        free(sets);
        free(reqs);
        free(routes);
        router_free(router);
        net_free(net);
    }
}

/* Sets that a packet's record cannot keep as a range (one that leaves out
 * another processor than the sender, one that names the sender, all of
 * the machine without being `all`) reach exactly their members, and
 * report what they were given. */
static void odd_ranges_reach_their_members(void)
{
    static const struct { uint32_t src, lo, hi, except; bool all; } cases[] = {
        { 5, 2, 14, 9, false },             /* but another processor */
        { 5, 2, 14, DEST_NONE, false },     /* the sender too */
        { 3, 0, 16, 3, false },             /* the machine, not written `all` */
        { 3, 0, 16, 3, true },              /* `all`: a range */
        { 20, 4, 12, DEST_NONE, false },    /* (k = 4: no processor 20) */
    };
    for (size_t i = 0; i < sizeof cases / sizeof cases[0]; i++) {
        uint32_t src = cases[i].src % 16, lo = cases[i].lo, hi = cases[i].hi;
        uint32_t except = cases[i].except;
        bool has_except = except >= lo && except < hi;
        DestSet set = { NULL, hi - lo - has_except, lo, hi, except, cases[i].all };
        Net *net = make(4, true, ROUTING_BENES);
        Router *router = router_new(ROUTING_BENES, 4, 2, 1);
        RouteRequest req = { src, dest_set_min(&set), 1, 0, &set, 0 };
        Route route;
        router_route(router, &req, 1, &route);
        net_reserve_out(net, src);
        net_inject(net, &req, &route, &(uint32_t){ 5 }, 1);
        NetPacket made;
        CHECK(net_slot_packet(net, src, &made));
        CHECK(made.multicast);
        CHECK_EQ(made.set.n, set.n);
        CHECK_EQ(made.set.all, cases[i].all);
        for (uint32_t d = 0; d < 16; d++)
            CHECK_EQ(dest_set_has(&made.set, d), dest_set_has(&set, d));
        uint32_t got[16] = { 0 };
        for (uint64_t t = 1; t < 100 && net_busy(net); t++) {
            net_begin_timestep(net, t);
            net_step(net, t);
            for (uint32_t p = 0; p < 16; p++) {
                uint32_t w, x;
                while ((x = net_take(net, p, 1, &w)) != NET_NIL) {
                    NetPacket pk;
                    net_taken_packet(net, x, &pk);
                    CHECK_EQ(pk.dst, p);
                    got[p]++;
                    net_release_read(net, x);
                }
            }
        }
        for (uint32_t d = 0; d < 16; d++)
            CHECK_EQ(got[d], dest_set_has(&set, d) ? 1u : 0u);
        CHECK_EQ(net_reference_error(net) == NULL, true);
        router_free(router);
        net_free(net);
    }
}

int main(void)
{
    RUN(lone_multicast_arrives_on_time);
    RUN(broadcast_crosses_each_link_once);
    RUN(everyone_broadcasts);
    RUN(odd_ranges_reach_their_members);
    return CHECK_EXIT();
}
