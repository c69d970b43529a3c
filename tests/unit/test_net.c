/* Unit tests of the network's timestep through net.h, on crafted traffic:
 * each scenario injects packets with chosen routes, steps the network, and
 * checks collisions, waits, places and latencies that were worked out by
 * hand from spec/machine.md (the derivations are in the comments); the
 * reference stage runs beside, so every timestep is also compared with
 * the spec's own. Then conservation under random heavy traffic: no packet
 * lost or duplicated, every one delivered, or a real network deadlock. The
 * invariants are checked after every timestep (every 64th at N >= 1,024,
 * but in the debug build of `make check`). Switches are named (layer,
 * index) of plane 0; "L" is a link. */
#include <stdlib.h>

#include "net/net.h"
#include "tests/check.h"
#include "tests/unit/net_send.h"

static Net *make(unsigned k, unsigned planes, bool full, unsigned buffer, unsigned depth)
{
    NetConfig cfg = { k, planes, full, buffer, 16, depth, false, 1, SWITCHING_WORMHOLE };
    Net *net = net_new(&cfg);
    CHECK_EQ(net_compare_with_reference(net), 0);
    return net;
}

/* Timesteps between two invariant checks (random_traffic sets it). */
static unsigned check_period = 1;

static void step(Net *net, uint64_t t) { step_checked(net, t, t % check_period == 0); }

static const char *place(Net *net, uint64_t id)
{
    static char buf[128];
    NetPacket pk;
    if (!net_find_packet(net, id, &pk))
        return "(gone)";
    net_place_name(net, &pk, buf, sizeof buf);
    return buf;
}

static const NetStats *stats(Net *net) { return net_stats(net); }

static uint64_t collisions(Net *net) { return stats(net)->link_total + stats(net)->buffer_total; }

/* N = 4, one plane, half duplex. L is the link (1,0).u0 -- (2,0).d0.
 *   D = 2->0, count 2, up port 0, sent t1: p2 link t1, (1,1).u0 t2, up t3,
 *       enters (2,0) and turns into d0 t4, claims L from above at t5.
 *   U = 0->2, count 2, up port 0, sent t3: p0 link t3, (1,0).u0 t4, claims
 *       L from below at t5.
 *   E = 3->0 port 1, sent t2: p3 link t2; enters (1,1).u0 at t3 behind D,
 *       but D leaves in the same timestep, so that is no collision; up t4;
 *       at t5 enters (2,0).d0 behind D, which is still there: a buffer
 *       collision (layer 2, down).
 * At t5 both U and D claim L's one temp slot: U claims from below, first in
 * the spec's order, and wins; D collides (a link collision, layer 2, down)
 * and stays at the head of (2,0).d0, ahead of E. At t6 U moves on into
 * (2,0) in stage d while D claims L: they pass head-on without a collision.
 * Latencies: U 7 (4c - 1), D 8 (one timestep lost), E 8. */
static void half_duplex_claim_conflict(void)
{
    Net *net = make(2, 1, false, 5, 1);
    uint64_t d = send(net, 2, 0, 0, 0, 2, 0, 1);
    step(net, 1);
    uint64_t e = send(net, 3, 0, 1, 0, 2, 0, 2);
    step(net, 2);
    uint64_t u = send(net, 0, 2, 0, 0, 2, 0, 3);
    step(net, 3);
    CHECK_EQ(collisions(net), 0);
    step(net, 4);
    CHECK_STR(place(net, d), "buffer p0.l2.s0.d0 place 1 of 1");
    CHECK_STR(place(net, u), "buffer p0.l1.s0.u0 place 1 of 1");
    step(net, 5);
    CHECK_EQ(stats(net)->link_total, 1);
    CHECK_EQ(stats(net)->link_collisions[DIR_DOWN][2], 1);
    CHECK_EQ(stats(net)->buffer_total, 1);
    CHECK_EQ(stats(net)->buffer_collisions[DIR_DOWN][2], 1);
    CHECK_STR(place(net, u), "link p0.l1.s0.u0 up");
    CHECK_STR(place(net, d), "buffer p0.l2.s0.d0 place 1 of 2");
    CHECK_STR(place(net, e), "buffer p0.l2.s0.d0 place 2 of 2");
    step(net, 6);
    CHECK_EQ(collisions(net), 2);                 /* the head-on pass is free */
    CHECK_STR(place(net, d), "link p0.l1.s0.u0 down");
    CHECK_STR(place(net, u), "buffer p0.l2.s0.d1 place 1 of 1");
    CHECK_STR(place(net, e), "buffer p0.l2.s0.d0 place 1 of 1");
    for (uint64_t t = 7; t <= 10; t++)
        step(net, t);
    CHECK_EQ(collisions(net), 2);
    CHECK_EQ(stats(net)->delivered, 3);
    CHECK_EQ(stats(net)->latency_min, 7);
    CHECK_EQ(stats(net)->latency_max, 8);
    CHECK_EQ(stats(net)->latency_sum, 7 + 8 + 8);
    CHECK_STR(place(net, u), "input port 0 of p2");
    CHECK(!net_busy(net));
    net_free(net);
}

/* Two packets enter (1,0).u0 in one stage d: the one on port d0 (from p0)
 * goes first whatever the ids, the other queues: one buffer collision. */
static void two_packets_enter_one_buffer(void)
{
    Net *net = make(2, 1, false, 5, 1);
    uint64_t second = send(net, 1, 3, 0, 0, 2, 0, 1);     /* id 0, from d1 */
    uint64_t first = send(net, 0, 2, 0, 0, 2, 0, 1);      /* id 1, from d0 */
    step(net, 1);
    step(net, 2);
    CHECK_EQ(stats(net)->buffer_total, 1);
    CHECK_EQ(stats(net)->buffer_collisions[DIR_UP][1], 1);
    CHECK_STR(place(net, first), "buffer p0.l1.s0.u0 place 1 of 2");
    CHECK_STR(place(net, second), "buffer p0.l1.s0.u0 place 2 of 2");
    CHECK_EQ(stats(net)->max_buffer, 2);
    net_free(net);
}

/* With one place per buffer the second packet is refused at t2 and again at
 * t3 (the head's claim frees its place only at the end of t3): two buffer
 * collisions, and it arrives two timesteps late. */
static void refused_by_a_full_buffer(void)
{
    Net *net = make(2, 1, false, 1, 1);
    uint64_t a = send(net, 0, 2, 0, 0, 2, 0, 1);
    uint64_t b = send(net, 1, 3, 0, 0, 2, 0, 1);
    step(net, 1);
    step(net, 2);
    CHECK_EQ(stats(net)->buffer_total, 1);
    CHECK_STR(place(net, b), "link p0.cpu1 up");
    step(net, 3);
    CHECK_EQ(stats(net)->buffer_total, 2);
    CHECK_STR(place(net, a), "link p0.l1.s0.u0 up");
    step(net, 4);
    CHECK_EQ(stats(net)->buffer_total, 2);
    CHECK_STR(place(net, b), "buffer p0.l1.s0.u0 place 1 of 1");
    for (uint64_t t = 5; t <= 10; t++)
        step(net, t);
    CHECK_EQ(stats(net)->delivered, 2);
    CHECK_EQ(stats(net)->latency_min, 7);
    CHECK_EQ(stats(net)->latency_max, 9);
    CHECK_EQ(stats(net)->max_buffer, 1);
    net_free(net);
}

/* N = 2. Both p0 and p1 send to port 0 of p1 (depth 1) at t1; nobody reads.
 * t2: both turn into (1,0).d1, the second queues (one buffer collision).
 * t3: the first claims p1's link; t4 it is delivered (4c - 1 = 3) and the
 * second claims the link, emptied in stage c. t5, t6: the second waits on
 * the last link for the full port: port waits, not collisions, and nothing
 * moves. Once the port is read, it is delivered. */
static void blocked_by_a_full_input_port(void)
{
    Net *net = make(1, 1, false, 5, 1);
    uint64_t a = send(net, 0, 1, 0, 0, 1, 0, 1);
    uint64_t b = send(net, 1, 1, 0, 0, 1, 0, 1);
    step(net, 1);
    step(net, 2);
    CHECK_EQ(stats(net)->buffer_total, 1);
    step(net, 3);
    step(net, 4);
    CHECK_STR(place(net, a), "input port 0 of p1");
    CHECK_STR(place(net, b), "link p0.cpu1 down");
    CHECK_EQ(stats(net)->latency_max, 3);
    step(net, 5);
    CHECK(!net_moved(net));
    step(net, 6);
    CHECK_EQ(stats(net)->port_waits, 2);
    CHECK_EQ(collisions(net), 1);
    CHECK(!net_is_stuck(net));          /* reading the port would free it */
    uint32_t word;
    CHECK(net_in_take(net, 1, 0, &word));
    CHECK_EQ(word, 1000);               /* the oldest first */
    step(net, 7);
    CHECK_STR(place(net, b), "input port 0 of p1");
    CHECK(net_in_take(net, 1, 0, &word));
    CHECK_EQ(word, 1001);
    CHECK_EQ(stats(net)->read, stats(net)->sent);   /* nothing left */
    net_free(net);
}

/* Two packets reach p0 in the same timestep on its two links (one per
 * plane) for one port of depth 1: the older enters, although it comes on
 * plane 1, which the spec's link loop visits second. */
static void delivery_oldest_first(void)
{
    Net *net = make(2, 2, false, 5, 1);
    uint64_t older = send(net, 2, 0, 0, 1, 2, 0, 1);
    uint64_t younger = send(net, 3, 0, 0, 0, 2, 0, 1);
    for (uint64_t t = 1; t <= 8; t++)
        step(net, t);
    CHECK_STR(place(net, older), "input port 0 of p0");
    CHECK_STR(place(net, younger), "link p0.cpu0 down");
    CHECK_EQ(stats(net)->port_waits, 1);
    CHECK_EQ(collisions(net), 0);
    net_free(net);
}

/* The deadlock that half duplex allows. N = 4, one plane, one place per
 * buffer. D = 2->0 (count 2) sits in (2,0).d0 from t4 and wants L =
 * (1,0).u0 -- (2,0).d0 down; U = 0->1 sent up to layer 2 (count 2, a
 * non-minimal route, as benes-full or valiant make) is on L from t4 and
 * wants (2,0).d0. From t5 each waits for the other: nothing moves, and
 * reading ports cannot help: a network deadlock. With full duplex L has a
 * wire per direction and both arrive. */
static void half_duplex_network_deadlock(void)
{
    for (int full = 0; full <= 1; full++) {
        Net *net = make(2, 1, full, 1, 1);
        send(net, 2, 0, 0, 0, 2, 0, 1);
        step(net, 1);
        send(net, 0, 1, 0, 0, 2, 0, 2);
        for (uint64_t t = 2; t <= 4; t++)
            step(net, t);
        step(net, 5);
        if (!full) {
            CHECK(!net_moved(net));
            CHECK_EQ(stats(net)->link_total, 1);
            CHECK_EQ(stats(net)->buffer_total, 1);
            CHECK(net_is_stuck(net));
        } else {
            for (uint64_t t = 6; t <= 12; t++)
                step(net, t);
            CHECK_EQ(stats(net)->delivered, 2);
            CHECK(!net_busy(net));
        }
        net_free(net);
    }
}

/* ---- conservation under random heavy traffic --------------------------------- */

static uint64_t rng = 42;

static uint32_t rnd(uint32_t n)
{
    rng = rng * 6364136223846793005ull + 1442695040888963407ull;
    return (uint32_t)((rng >> 33) % n);
}

static unsigned msb(uint32_t x)
{
    unsigned b = 0;
    while (x >>= 1)
        b++;
    return b;
}

/* Random valid routes (any count from cmin to k, random up ports), random
 * injection and random reading, for `steps` timesteps, with every invariant
 * checked after every timestep; then the traffic drains and the pool must
 * empty. Half duplex may instead end in a network deadlock (non-minimal
 * routes make them likely): then every packet must still be accounted for,
 * and the deadlock must really be one. Full duplex must never deadlock. */
static void random_traffic(unsigned k, unsigned planes, bool full, bool adaptive,
                           unsigned steps)
{
    NetConfig cfg = { k, planes, full, 1 + rnd(4), 4, 1 + rnd(2), adaptive, 1, SWITCHING_WORMHOLE };
    Net *net = net_new(&cfg);
    uint32_t n = 1u << k;
#ifndef MACHINE_DEBUG
    check_period = n >= 1024 ? 64 : 1;
#endif
    int failures_before = check_failures_in_test;
    bool stuck = false;
    for (uint64_t t = 1; t <= steps + 10000ull; t++) {
        net_begin_timestep(net, t);
        for (uint32_t p = 0; p < n; p++) {
            for (unsigned port = 0; port < cfg.ports; port++) {
                uint32_t w;
                if (rnd(3) == 0)
                    net_in_take(net, p, port, &w);
            }
            if (t <= steps && net_out_free(net, p) && rnd(2) == 0) {
                uint32_t q = rnd(n);
                unsigned cmin = p == q ? 1 : msb(p ^ q) + 1;
                unsigned count = adaptive ? cmin : cmin + rnd(k - cmin + 1);
                uint32_t routing = adaptive ? 0 : rnd(1u << (count - 1));
                send(net, p, q, rnd(cfg.ports), planes == 2 ? rnd(2) : 0, count, routing, t);
            }
        }
        step(net, t);
        if (check_failures_in_test != failures_before)
            break;
        /* A network deadlock: a packet that cannot move even with every
         * port read. (Ports are read at random, so "nothing moved" alone is
         * not enough: test the network itself.) */
        if (!net_moved(net) && net_busy(net) && net_is_stuck(net)) {
            stuck = true;
            break;
        }
        if (t > steps && !net_busy(net))
            break;
    }
    for (uint32_t p = 0; p < n; p++)
        for (unsigned port = 0; port < cfg.ports; port++) {
            uint32_t w;
            while (net_in_take(net, p, port, &w))
                ;
        }
    const NetStats *st = net_stats(net);
    uint64_t by_layer = 0;
    for (unsigned l = 1; l <= k; l++)
        for (int d = 0; d < 2; d++)
            by_layer += st->link_collisions[d][l] + st->buffer_collisions[d][l];
    CHECK_EQ(by_layer, st->link_total + st->buffer_total);
    if (stuck) {
        CHECK(!full);
        CHECK_EQ(st->sent, st->read + net_in_flight(net));
    } else {
        CHECK(st->sent > (uint64_t)n * steps / 8);
        CHECK_EQ(st->delivered, st->sent);
        CHECK_EQ(st->read, st->sent);
        CHECK(!net_busy(net));
    }
    printf("  N=%u planes=%u %s%s B=%u D=%u: %llu packets, %llu collisions, "
           "%llu port waits%s\n", n, planes, full ? "full" : "half",
           adaptive ? " adaptive" : "", cfg.buffer, cfg.port_depth,
           (unsigned long long)st->sent, (unsigned long long)(st->link_total + st->buffer_total),
           (unsigned long long)st->port_waits, stuck ? ", ended in a network deadlock" : "");
    check_period = 1;
    net_free(net);
}

static void conservation_n64(void)
{
    random_traffic(6, 2, true, false, 3000);
    random_traffic(6, 1, true, true, 3000);
    random_traffic(6, 2, true, true, 3000);
    random_traffic(6, 2, false, false, 3000);
    random_traffic(6, 2, false, true, 3000);
}

static void conservation_n1024(void)
{
    random_traffic(10, 2, true, false, 1000);
    random_traffic(10, 2, false, false, 1000);
    random_traffic(10, 2, true, true, 1000);
}

int main(void)
{
    RUN(half_duplex_claim_conflict);
    RUN(two_packets_enter_one_buffer);
    RUN(refused_by_a_full_buffer);
    RUN(blocked_by_a_full_input_port);
    RUN(delivery_oldest_first);
    RUN(half_duplex_network_deadlock);
    RUN(conservation_n64);
    RUN(conservation_n1024);
    return CHECK_EXIT();
}
