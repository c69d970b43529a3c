/* The fast network stage (net/step.c) against the reference stage
 * (net/reference.c: stage 4 of machine.md as written, on a state of its
 * own). Random traffic of every kind -- N = 2 to 1,024, every routing
 * algorithm and explicit random routes (non-minimal ones too, which make
 * half duplex deadlock), both duplex modes, buffers of 1 to 5 places, input
 * ports of depth 1 and 2, read sparsely so that packets pile up -- runs
 * through a network that compares the two stages after every timestep:
 * every packet's place, order and route, and every statistic. Each run is
 * made three ways: plain (packets sleep), watched by an observer (nothing
 * sleeps) and, with two planes, with a share per plane run backwards.
 *
 * tests/cli/mutant.sh runs this program again, built with a fast stage
 * that makes a deliberate mistake (NET_MUTANT in sweep.c), and it must fail:
 * the comparison catches a wrong stage. With --first-difference it stops
 * at the first difference, which is all that run needs to see.
 *
 * make test runs each traffic one of the three ways, in turn, at N = 128
 * and 256 each routing in one duplex mode, and two of the N = 1,024 runs
 * with channels; make check runs them all (TEST_FULL, tests/check.h). */
#include <stdlib.h>

#include "net/net.h"
#include "net/route.h"
#include "net/topology.h"
#include "tests/check.h"

static uint64_t rng = 7;

static uint32_t rnd(uint32_t n)
{
    rng = rng * 6364136223846793005ull + 1442695040888963407ull;
    return (uint32_t)((rng >> 33) % n);
}

enum { EXPLICIT = ROUTING_COUNT };   /* random routes of any count, not a router's */
enum { PLAIN, OBSERVED, SHARES };

typedef struct Traffic {
    unsigned k, planes;
    bool full;
    unsigned buffer, depth;
    unsigned alg;          /* a RoutingAlgorithm, or EXPLICIT */
    unsigned steps;        /* timesteps with sends; then it drains */
    uint64_t t0;           /* the first timestep is t0 + 1 */
    bool mcast;            /* a quarter of the sends are multicasts */
    unsigned vcs;          /* virtual channels (0: 1) */
} Traffic;

static uint64_t deadlocks, events;
static bool stop_at_first_difference;   /* --first-difference */

static void count_event(void *ctx, const NetEvent *ev)
{
    (void)ctx, (void)ev;
    events++;
}

static void shares_backwards(void *ctx, ParallelFn *fn, void *arg)
{
    (void)ctx;
    fn(arg, 1);
    fn(arg, 0);
}

/* A random route from p to q (or a set: lowest member q), count from the
 * lowest that reaches them to k, random up ports. */
static Route explicit_route(unsigned k, unsigned planes, const RouteRequest *req)
{
    uint32_t p = req->src, q = req->dst;
    unsigned cmin = topo_cmin(p, q);
    if (route_is_multicast(req) && dest_set_count(req->set, p) > cmin)
        cmin = dest_set_count(req->set, p);
    unsigned count = cmin + rnd(k - cmin + 1);
    Route r = { (uint8_t)(planes == 2 ? rnd(2) : 0), (uint8_t)count,
                rnd(1u << (count - 1)), q & ((1u << count) - 1) };
    return r;
}

/* Makes request req a multicast: a broadcast below a random bound (one in
 * four), or a list of up to 8 random members (repeats dropped, ascending), kept in
 * `set` and `members`. A set of one member is a unicast but for the
 * count of multicasts. */
static void random_set(RouteRequest *req, uint32_t n, DestSet *set, uint32_t *members)
{
    if (rnd(4) == 0) {
        uint32_t bound = 1 + rnd(n);
        *set = dest_set_broadcast(req->src, bound, bound == n);
        if (set->n == 0)
            return;                 /* (the empty set: no multicast) */
    } else {
        uint32_t m = 0;
        for (uint32_t i = 0, want = 1 + rnd(8); i < want; i++) {
            uint32_t d = rnd(n), j = m;
            bool seen = false;
            for (uint32_t a = 0; a < m; a++)
                seen |= members[a] == d;
            if (seen)
                continue;
            while (j > 0 && members[j - 1] > d) {
                members[j] = members[j - 1];
                j--;
            }
            members[j] = d;
            m++;
        }
        *set = (DestSet){ members, m, 0, 0, DEST_NONE, false };
    }
    req->set = set;
    req->dst = dest_set_min(set);
}

/* Runs one traffic one way; returns false after reporting a difference. */
static bool run(const Traffic *tr, int way)
{
    NetConfig cfg = { tr->k, tr->planes, tr->full, tr->buffer, tr->vcs > 4 ? 8 : 4, tr->depth,
                      tr->alg == ROUTING_ADAPTIVE, tr->vcs, SWITCHING_WORMHOLE };
    Net *net = net_new(&cfg);
    Router *router = router_new(tr->alg == EXPLICIT ? ROUTING_BENES : (RoutingAlgorithm)tr->alg,
                                tr->k, tr->planes, 1);
    CHECK(net && router);
    if (!net || !router)
        return false;
    if (way == OBSERVED)
        net_observe(net, count_event, NULL);
    if (way == SHARES)
        CHECK_EQ(net_use_shares(net, shares_backwards, NULL, 0), 0);
    CHECK_EQ(net_compare_with_reference(net), 0);
    uint32_t n = 1u << tr->k;
    RouteRequest *reqs = malloc(n * sizeof *reqs);
    DestSet *sets = malloc(n * sizeof *sets);
    uint32_t *members = malloc(8 * n * sizeof *members);
    Route *routes = malloc(n * sizeof *routes);
    bool ok = true;
    char err[256];
    uint64_t last_send = tr->t0 + tr->steps;
    for (uint64_t t = tr->t0 + 1; t <= last_send + 20000ull && ok; t++) {
        net_begin_timestep(net, t);
        size_t batch = 0;
        for (uint32_t p = 0; p < n; p++) {
            uint32_t w;
            for (unsigned port = 0; port < cfg.ports; port++)
                if (rnd(6) == 0)
                    net_in_take(net, p, port, &w);
            if (t <= last_send && net_out_free(net, p) && rnd(3) == 0) {
                net_reserve_out(net, p);
                reqs[batch] = (RouteRequest){ p, rnd(n), rnd(cfg.ports),
                                              net_count_request(net, p), NULL, 0 };
                if (tr->mcast && rnd(4) == 0)
                    random_set(&reqs[batch], n, &sets[batch], members + 8 * batch);
                batch++;
            }
        }
        if (tr->alg == EXPLICIT)
            for (size_t i = 0; i < batch; i++)
                routes[i] = explicit_route(tr->k, tr->planes, &reqs[i]);
        else
            router_route(router, reqs, batch, routes);
        for (size_t i = 0; i < batch; i++)
            net_inject(net, &reqs[i], &routes[i], &(uint32_t){ (uint32_t)i }, t);
        net_step(net, t);
        const char *differs = net_reference_error(net);
        if (differs) {
            printf("  N=%u planes=%u %s B=%u D=%u %s, %s: t=%llu: %s\n", n, tr->planes,
                   tr->full ? "full" : "half", tr->buffer, tr->depth,
                   tr->alg == EXPLICIT ? "explicit routes" : routing_name(tr->alg),
                   way == PLAIN ? "plain" : way == OBSERVED ? "observed" : "shares",
                   (unsigned long long)t, differs);
            CHECK(!"the fast stage agrees with the reference stage");
            ok = false;
            if (stop_at_first_difference) {
                printf("FAIL first_difference\n");
                exit(1);
            }
        }
        /* The invariants too: every timestep while small, then now and then. */
        if (ok && (n < 1024 || t % 64 == 0) && net_check(net, err, sizeof err) != 0) {
            printf("  t=%llu: %s\n", (unsigned long long)t, err);
            CHECK(!"network invariants hold");
            ok = false;
        }
        if (ok && !net_moved(net) && net_busy(net) && net_is_stuck(net)) {
            deadlocks++;
            CHECK(!tr->full);           /* full duplex cannot deadlock by itself */
            break;
        }
        if (t > last_send && !net_busy(net))
            break;
    }
    const NetStats *st = net_stats(net);
    CHECK(st->sent > n / 4);            /* there was traffic to compare */
    free(reqs);
    free(sets);
    free(members);
    free(routes);
    router_free(router);
    net_free(net);
    return ok;
}

/* Runs a traffic plain, observed and (two planes, one channel) with shares.
 * make test runs each traffic one of those ways, the ways in turn from one
 * traffic to the next; make check all of them (TEST_FULL). */
static void run_every_way(const Traffic *tr)
{
    static unsigned turn;
    if (!test_full()) {
        run(tr, (int)(turn++ % (tr->planes == 2 && tr->vcs <= 1 ? 3 : 2)));
        return;
    }
    if (run(tr, PLAIN) && run(tr, OBSERVED) && tr->planes == 2 && tr->vcs <= 1)
        run(tr, SHARES);
}

/* Every routing and explicit routes, on N = 2 to 256, both duplex modes,
 * buffers 1 to 5 (in turn), depth 1 and 2. (make test: at N = 128 and 256,
 * which take two thirds of the time, each routing in one duplex mode, the
 * modes in turn.) */
static void small_networks_agree(void)
{
    unsigned turn = 0;
    for (unsigned k = 1; k <= 8; k++)
        for (unsigned alg = 0; alg <= EXPLICIT; alg++)
            for (int full = 0; full <= 1; full++) {
                Traffic tr = { k, 1 + (turn % 3 != 0), full, 1 + turn % 5, 1 + turn % 2, alg,
                               k <= 4 ? 300 : 120, 0, false, 0 };
                turn++;
                if (!test_full() && k >= 7 && (unsigned)full != (k + alg) % 2)
                    continue;
                run_every_way(&tr);
            }
}

/* N = 1,024: heavy traffic through the deepest of the tested networks.
 * (make test: the middle two, adaptive routes in full duplex and explicit
 * ones in half, with shares.) */
static void large_networks_agree(void)
{
    static const Traffic big[] = {
        { 10, 2, false, 5, 1, ROUTING_BENES, 60, 0, false, 0 },
        { 10, 2, true, 2, 2, ROUTING_ADAPTIVE, 60, 0, false, 0 },
        { 10, 2, false, 1, 1, EXPLICIT, 60, 0, false, 0 },
        { 10, 1, true, 3, 1, ROUTING_VALIANT, 60, 0, false, 0 },
    };
    for (size_t i = 0; i < sizeof big / sizeof big[0]; i++)
        if (test_full() || i == 1 || i == 2)
            run(&big[i], i % 2 ? PLAIN : SHARES);
}

/* Buffers deeper than the fast stage keeps in a line of its own (it keeps
 * their places in rings that grow); and timesteps beyond 2^32, which
 * nothing may keep in 32 bits. */
static void deep_buffers_and_late_timesteps_agree(void)
{
    static const Traffic deep[] = {
        { 5, 2, false, 13, 2, ROUTING_BENES, 400, 0, false, 0 },
        { 5, 2, true, 9, 2, ROUTING_ADAPTIVE, 400, 0, false, 0 },
        { 5, 2, true, 1024, 2, ROUTING_VALIANT, 400, 0, false, 0 },
        { 4, 2, false, 7, 1, EXPLICIT, 400, 0, false, 0 },
        { 5, 2, true, 1, 2, ROUTING_DMODK, 300, (1ull << 32) - 150, false, 0 },
        { 5, 2, false, 2, 1, EXPLICIT, 300, (1ull << 32) - 150, false, 0 },
    };
    for (size_t i = 0; i < sizeof deep / sizeof deep[0]; i++)
        run_every_way(&deep[i]);
}

/* Multicasts among the traffic: every routing and explicit routes, both
 * duplex modes, N = 4 to 64; then N = 256. */
static void multicasts_agree(void)
{
    unsigned turn = 0;
    for (unsigned k = 2; k <= 6; k += 2)
        for (unsigned alg = 0; alg <= EXPLICIT; alg++)
            for (int full = 0; full <= 1; full++) {
                Traffic tr = { k, 1 + (turn % 3 != 0), full, 1 + turn % 5, 1 + turn % 2, alg,
                               k <= 4 ? 150 : 60, 0, true, 0 };
                turn++;
                run_every_way(&tr);
            }
    Traffic big = { 8, 2, true, 2, 2, ROUTING_BENES, 30, 0, true, 0 };
    run(&big, PLAIN);
}

/* Virtual channels (channels.md): V = 2 to 8 with every routing and
 * explicit routes, both duplex modes, N = 2 to 64, multicasts among the
 * traffic in turn; then N = 1,024 with V = 2 to 8, both duplex modes. The
 * comparison after every timestep, and the invariants -- conservation,
 * never more than B packets in a channel buffer -- hold throughout. */
static void virtual_channels_agree(void)
{
    unsigned turn = 0;
    for (unsigned k = 1; k <= 6; k++)
        for (unsigned alg = 0; alg <= EXPLICIT; alg++)
            for (int full = 0; full <= 1; full++) {
                Traffic tr = { k, 1 + (turn % 3 != 0), full, 1 + turn % 4, 1 + turn % 2, alg,
                               k <= 4 ? 200 : 100, 0, turn % 2 == 0, 2 + turn % 7 };
                turn++;
                run_every_way(&tr);
            }
    for (unsigned v = 2; v <= 8; v++)
        for (int full = 0; full <= 1; full++) {
            /* (make test: V = 2 in full duplex, under benes, and 7 in half,
             * adaptive, with 8 ports; V = 3, with multicasts, takes five
             * seconds in half duplex and twenty-five in full, and runs in
             * make check) */
            if (!test_full() && !(v == 2 && full) && !(v == 7 && !full))
                continue;
            Traffic big = { 10, 2, full, 1 + v % 3, 1, v % 2 ? ROUTING_ADAPTIVE : ROUTING_BENES,
                            40, 0, v == 3, v };
            run(&big, PLAIN);
        }
}

/* The runs met what makes the fast stage differ from the spec's words:
 * deadlocks in half duplex, and events for observers. */
static void the_runs_were_hard(void)
{
    printf("  %llu runs ended in a network deadlock; %llu events observed\n",
           (unsigned long long)deadlocks, (unsigned long long)events);
    CHECK(deadlocks > 0);
    CHECK(events > 0);
}

int main(int argc, char **argv)
{
    stop_at_first_difference = argc > 1 && strcmp(argv[1], "--first-difference") == 0;
    RUN(small_networks_agree);
    RUN(large_networks_agree);
    RUN(deep_buffers_and_late_timesteps_agree);
    RUN(multicasts_agree);
    RUN(virtual_channels_agree);
    RUN(the_runs_were_hard);
    return CHECK_EXIT();
}
