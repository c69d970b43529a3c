/* Unit tests of the network's timestep (net/step.c) on crafted traffic:
 * each scenario injects packets with chosen routes through the Net
 * interface, steps the network, and checks collisions, waits, places and
 * latencies that were worked out by hand from spec/machine.md (the
 * derivations are in the comments). The invariants are checked after every
 * timestep. Switches are named (layer, index) of plane 0; "L" is a link. */
#include <stdlib.h>

#include "net/net.h"
#include "net/net_internal.h"
#include "tests/check.h"

static Net *make(unsigned k, unsigned planes, bool full, unsigned buffer, unsigned depth)
{
    NetConfig cfg = { k, planes, full, buffer, 16, depth, false };
    return net_new(&cfg);
}

/* Injects src->dst with an explicit route at timestep t; returns its id. */
static uint64_t send(Net *net, uint32_t src, uint32_t dst, unsigned port, unsigned plane,
                     unsigned count, uint32_t routing, uint64_t t)
{
    RouteRequest req = { src, dst, port, 0 };
    Route r = { (uint8_t)plane, (uint8_t)count, routing, dst & ((1u << count) - 1) };
    net_reserve_out(net, src);
    return net_inject(net, &req, &r, 1000 + src, t);
}

static void step(Net *net, uint64_t t)
{
    char err[256];
    net->timestep = t;
    net_step(net, t);
    if (net_check(net, err, sizeof err) != 0) {
        printf("  t=%llu: %s\n", (unsigned long long)t, err);
        CHECK(!"network invariants hold");
    }
}

static const Packet *packet(Net *net, uint64_t id)
{
    for (uint32_t x = 0; x < net->pool_cap; x++)
        if (net->pool[x].place != PLACE_FREE && net->info[x].id == id)
            return &net->pool[x];
    return NULL;
}

static const char *place(Net *net, uint64_t id)
{
    static char buf[128];
    const Packet *pk = packet(net, id);
    if (!pk)
        return "(gone)";
    net_place_name(net, pk, buf, sizeof buf);
    return buf;
}

static uint64_t collisions(Net *net) { return net->stats.link_total + net->stats.buffer_total; }

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
    CHECK_EQ(net->stats.link_total, 1);
    CHECK_EQ(net->stats.link_collisions[DIR_DOWN][2], 1);
    CHECK_EQ(net->stats.buffer_total, 1);
    CHECK_EQ(net->stats.buffer_collisions[DIR_DOWN][2], 1);
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
    CHECK_EQ(net->stats.delivered, 3);
    CHECK_EQ(net->stats.latency_min, 7);
    CHECK_EQ(net->stats.latency_max, 8);
    CHECK_EQ(net->stats.latency_sum, 7 + 8 + 8);
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
    CHECK_EQ(net->stats.buffer_total, 1);
    CHECK_EQ(net->stats.buffer_collisions[DIR_UP][1], 1);
    CHECK_STR(place(net, first), "buffer p0.l1.s0.u0 place 1 of 2");
    CHECK_STR(place(net, second), "buffer p0.l1.s0.u0 place 2 of 2");
    CHECK_EQ(net->stats.max_buffer, 2);
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
    CHECK_EQ(net->stats.buffer_total, 1);
    CHECK_STR(place(net, b), "link p0.cpu1 up");
    step(net, 3);
    CHECK_EQ(net->stats.buffer_total, 2);
    CHECK_STR(place(net, a), "link p0.l1.s0.u0 up");
    step(net, 4);
    CHECK_EQ(net->stats.buffer_total, 2);
    CHECK_STR(place(net, b), "buffer p0.l1.s0.u0 place 1 of 1");
    for (uint64_t t = 5; t <= 10; t++)
        step(net, t);
    CHECK_EQ(net->stats.delivered, 2);
    CHECK_EQ(net->stats.latency_min, 7);
    CHECK_EQ(net->stats.latency_max, 9);
    CHECK_EQ(net->stats.max_buffer, 1);
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
    CHECK_EQ(net->stats.buffer_total, 1);
    step(net, 3);
    step(net, 4);
    CHECK_STR(place(net, a), "input port 0 of p1");
    CHECK_STR(place(net, b), "link p0.cpu1 down");
    CHECK_EQ(net->stats.latency_max, 3);
    step(net, 5);
    CHECK(!net->moved);
    step(net, 6);
    CHECK_EQ(net->stats.port_waits, 2);
    CHECK_EQ(collisions(net), 1);
    CHECK(!net_is_stuck(net));          /* reading the port would free it */
    uint32_t word;
    CHECK(net_in_take(net, 1, 0, &word));
    CHECK_EQ(word, 1000);               /* the oldest first */
    step(net, 7);
    CHECK_STR(place(net, b), "input port 0 of p1");
    CHECK(net_in_take(net, 1, 0, &word));
    CHECK_EQ(word, 1001);
    CHECK_EQ(net->outstanding, 0);      /* the pool is drained */
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
    CHECK_EQ(net->stats.port_waits, 1);
    CHECK_EQ(collisions(net), 0);
    net_free(net);
}

/* The deadlock that half duplex allows. N = 4, one plane, one place per
 * buffer. D = 2->0 (count 2) sits in (2,0).d0 from t4 and wants L =
 * (1,0).u0 -- (2,0).d0 down; U = 0->1 sent up to layer 2 (count 2, a
 * non-minimal route, as benes-full or valiant make) is on L from t4 and
 * wants (2,0).d0. From t5 each waits for the other: nothing moves, and
 * reading ports cannot help: a network deadlock. With full duplex L has a
 * channel per direction and both arrive. */
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
            CHECK(!net->moved);
            CHECK_EQ(net->stats.link_total, 1);
            CHECK_EQ(net->stats.buffer_total, 1);
            CHECK(net_is_stuck(net));
        } else {
            for (uint64_t t = 6; t <= 12; t++)
                step(net, t);
            CHECK_EQ(net->stats.delivered, 2);
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
    NetConfig cfg = { k, planes, full, 1 + rnd(4), 4, 1 + rnd(2), adaptive };
    Net *net = net_new(&cfg);
    uint32_t n = 1u << k;
    int failures_before = check_failures_in_test;
    bool stuck = false;
    for (uint64_t t = 1; t <= steps + 10000ull; t++) {
        net->timestep = t;
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
        if (!net->moved && net_busy(net) && net_is_stuck(net)) {
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
    const NetStats *st = &net->stats;
    uint64_t by_layer = 0;
    for (unsigned l = 1; l <= k; l++)
        for (int d = 0; d < 2; d++)
            by_layer += st->link_collisions[d][l] + st->buffer_collisions[d][l];
    CHECK_EQ(by_layer, st->link_total + st->buffer_total);
    if (stuck) {
        CHECK(!full);
        CHECK_EQ(net->outstanding, net->in_flight);
        CHECK_EQ(st->sent, st->read + net->in_flight);
    } else {
        CHECK(st->sent > (uint64_t)n * steps / 8);
        CHECK_EQ(st->delivered, st->sent);
        CHECK_EQ(st->read, st->sent);
        CHECK_EQ(net->outstanding, 0);
        CHECK(!net_busy(net));
    }
    printf("  N=%u planes=%u %s%s B=%u D=%u: %llu packets, %llu collisions, "
           "%llu port waits%s\n", n, planes, full ? "full" : "half",
           adaptive ? " adaptive" : "", cfg.buffer, cfg.port_depth,
           (unsigned long long)st->sent, (unsigned long long)(st->link_total + st->buffer_total),
           (unsigned long long)st->port_waits, stuck ? ", ended in a network deadlock" : "");
    net_free(net);
}

static void swap_lists(OnLinkList *a, OnLinkList *b)
{
    OnLinkList t = *a;
    *a = *b;
    *b = t;
}

/* The invariant check of the debug build catches a lost packet, an
 * overflowing buffer and a duplicated packet, and names the component. */
static void invariants_name_the_component(void)
{
    char err[256];
    Net *net = make(2, 1, false, 2, 1);
    uint64_t a = send(net, 0, 2, 0, 0, 2, 0, 1);
    step(net, 1);                       /* a is on link p0.cpu0 */
    CHECK_EQ(net_check(net, err, sizeof err), 0);
    OnLink *listed = &net->lane[0].on_links[0][1].items[0];
    net->routes[listed->packet] ^= 1;   /* it travels with another route */
    CHECK_EQ(net_check(net, err, sizeof err), -1);
    CHECK_STR(err, "net: packet #0 is listed with a route that is not its own");
    net->routes[listed->packet] ^= 1;
    listed->holder ^= HOLDER_REFUSED;   /* it claims to have been refused */
    CHECK_EQ(net_check(net, err, sizeof err), -1);
    CHECK_STR(err, "net: packet #0 was refused, but its slot does not hold it");
    listed->holder ^= HOLDER_REFUSED;
    step(net, 2);                       /* a is in buffer p0.l1.s0.u0 */
    CHECK_EQ(net_check(net, err, sizeof err), 0);
    uint32_t b0 = packet(net, a)->at;
    Buffer *buf = &net->buffers[b0];
    buf->place[0] ^= 1;                 /* the port it takes next */
    CHECK_EQ(net_check(net, err, sizeof err), -1);
    CHECK_STR(err, "net/p0.l1.s0.u0: place 1 says its packet takes port 0 next, but its route says 1");
    buf->place[0] ^= 1;
    CHECK_EQ(buf->hop, 0);              /* it has not sent yet */
    buf->hop = 1u << 8 | 1;             /* ...but says where it sends to */
    CHECK_EQ(net_check(net, err, sizeof err), -1);
    CHECK_STR(err, "net/p0.l1.s0.u0: hop word 0x101, not that of its link");
    buf->hop = 0;
    buf->count = 3;                     /* more than it holds, and than B */
    CHECK_EQ(net_check(net, err, sizeof err), -1);
    CHECK_STR(err, "net/p0.l1.s0.u0: overflow, 3 packets in 2 places");
    buf->count = 2;                     /* a place it does not fill */
    CHECK_EQ(net_check(net, err, sizeof err), -1);
    CHECK_STR(err, "net/p0.l1.s0.u0: place 2 holds a packet that is not there (lost or duplicated)");
    buf->count = 0;                     /* the packet is lost */
    CHECK_EQ(net_check(net, err, sizeof err), -1);
    CHECK_STR(err, "net/p0.l1.s0.u0: has nothing to send, but is listed as a claimant");
    buf->count = 1;
    Buffer *slot = &net->buffers[0];    /* link p0.cpu0's slot (--duplex half) */
    slot->link = place_packet(buf->place[0]);
    slot->flags = SLOT_BLOCKED | SLOT_ASLEEP;   /* and now also on a link: duplicated */
    CHECK_EQ(net_check(net, err, sizeof err), -1);
    CHECK_STR(err, "net/p0.l1.s0.d0: its slot holds a sleeping packet that is not there");
    slot->flags = CLAIM_ASLEEP;         /* a claim sleeps on a slot that holds nothing */
    CHECK_EQ(net_check(net, err, sizeof err), -1);
    CHECK_STR(err, "net/p0.l1.s0.d0: slot flags 0x8 without a refused packet");
    slot->flags = 0;
    CHECK_EQ(net_check(net, err, sizeof err), 0);
    CHECK(packet(net, send(net, 1, 3, 0, 0, 2, 0, 3)) != NULL);   /* in p1's output slot */
    net->out_slot[0] = net->out_slot[1];   /* and in p0's output slot too */
    CHECK_EQ(net_check(net, err, sizeof err), -1);
    CHECK_STR(err, "net/p0: output slot holds a packet that is not there");
    net->out_slot[0] = NET_NIL;
    CHECK_EQ(net_check(net, err, sizeof err), 0);
    net->arrivals_down[3] = 1;          /* stage c left a processor's bit set */
    CHECK_EQ(net_check(net, err, sizeof err), -1);
    CHECK_STR(err, "net/p3: arrival bits 0x1 left set after stage c");
    net->arrivals_down[3] = 0;
    CHECK_EQ(net_check(net, err, sizeof err), 0);
    net_free(net);

    /* Stage d's list remembers where each packet on a link goes. */
    net = make(2, 1, false, 2, 1);
    send(net, 0, 2, 0, 0, 2, 0, 1);
    step(net, 1);                       /* on link p0.cpu0, heading up */
    CHECK_EQ(net->lane[0].on_links[0][1].n, 1);   /* arriving on port d0 of layer 1 */
    CHECK_EQ(net_check(net, err, sizeof err), 0);
    net->lane[0].on_links[0][1].items[0].target ^= 1;    /* the switch's other buffer */
    CHECK_EQ(net_check(net, err, sizeof err), -1);
    CHECK_STR(err, "net: packet #0 is listed going to 0x3, not 0x2");
    net->lane[0].on_links[0][1].items[0].target ^= 1;
    OnLinkList (*lists)[LIST_LAYERS] = net->lane[0].on_links;
    swap_lists(&lists[0][1], &lists[1][1]);             /* moved to the d1 list */
    CHECK_EQ(net_check(net, err, sizeof err), -1);
    CHECK_STR(err, "net: packet #0 is listed going to 0x2 from holder 0");
    swap_lists(&lists[0][1], &lists[1][1]);
    CHECK_EQ(net_check(net, err, sizeof err), 0);
    swap_lists(&lists[0][1], &lists[0][2]);             /* ...to layer 2's */
    CHECK_EQ(net_check(net, err, sizeof err), -1);
    CHECK_STR(err, "net: packet #0 is listed in layer 2, not the one it arrives at");
    swap_lists(&lists[0][1], &lists[0][2]);
    CHECK_EQ(net_check(net, err, sizeof err), 0);
    net_free(net);

    /* ...and the list of claimants, the layer of each (adapters: 1). */
    net = make(2, 1, false, 2, 1);
    send(net, 0, 2, 0, 0, 2, 0, 1);     /* in p0's output slot: claims */
    CHECK_EQ(net->lane[0].claimers[1].n, 1);
    CHECK_EQ(net_check(net, err, sizeof err), 0);
    IndexList one = net->lane[0].claimers[1];
    net->lane[0].claimers[1] = net->lane[0].claimers[2];
    net->lane[0].claimers[2] = one;
    CHECK_EQ(net_check(net, err, sizeof err), -1);
    CHECK_STR(err, "net: a claimant is listed in layer 2, not its own");
    net->lane[0].claimers[2] = net->lane[0].claimers[1];
    net->lane[0].claimers[1] = one;
    CHECK_EQ(net_check(net, err, sizeof err), 0);
    net_free(net);
}

/* ---- sleeping packets change nothing ---------------------------------------- */

static void count_events(void *ctx, const NetEvent *ev)
{
    (void)ev;
    (*(uint64_t *)ctx)++;
}

/* A fingerprint of where every packet is and of every statistic. */
static uint64_t fingerprint(Net *net)
{
    uint64_t h = 1469598103934665603ull;
    net_settle(net);
#define MIX(v) (h = (h ^ (uint64_t)(v)) * 1099511628211ull)
    for (uint32_t x = 1; x < net->pool_cap; x++) {
        const Packet *pk = &net->pool[x];
        if (pk->place == PLACE_FREE)
            continue;
        MIX(net->info[x].id); MIX(pk->place); MIX(pk->at); MIX(pk->dir); MIX(pk->routing);
    }
    const NetStats *st = &net->stats;
    for (int d = 0; d < 2; d++)
        for (unsigned l = 1; l <= net->cfg.k; l++) {
            MIX(st->link_collisions[d][l]);
            MIX(st->buffer_collisions[d][l]);
        }
    /* The order of every FIFO, which a read would see. */
    for (size_t i = 0; i < (size_t)net->nprocs * net->cfg.ports; i++)
        for (uint32_t y = net->ports[i].head; net->ports[i].count && y != NET_NIL;
             y = net->pool[y].next)
            MIX(net->info[y].id);
    for (uint32_t b = 0; b < net->nbuffers; b++)
        for (uint32_t i = 0; i < net->buffers[b].count; i++)
            MIX(net->info[net_buffer_packet(net, b, i)].id);
    MIX(st->link_total); MIX(st->buffer_total);
    MIX(st->sent); MIX(st->delivered); MIX(st->read); MIX(st->links_crossed);
    MIX(st->port_waits); MIX(st->latency_sum); MIX(st->max_buffer); MIX(net->moved);
#undef MIX
    return h;
}

/* Runs a network's lanes one after the other, the second plane's first:
 * lanes must not depend on each other's order. */
static void lanes_backwards(void *ctx, ParallelFn *fn, void *arg)
{
    (void)ctx;
    fn(arg, 1);
    fn(arg, 0);
}

/* Two networks get the same random traffic, one watched by an observer (so
 * that no packet sleeps) and one not: after every timestep every packet
 * must be in the same place and every statistic equal. Reads are sparse and
 * loads heavy, so that many packets sleep for a long time. With two planes
 * a third network gets it too, with a lane per plane (run backwards): the
 * order of the lanes must not matter either. */
/* The first timestep of the runs below is t_base + 1. */
static uint64_t t_base;

static void sleeping_is_exact_under(unsigned k, unsigned planes, bool full, bool adaptive,
                                    unsigned buffer, unsigned depth, unsigned steps)
{
    NetConfig cfg = { k, planes, full, buffer, 2, depth, adaptive };
    Net *a = net_new(&cfg), *b = net_new(&cfg), *c = planes == 2 ? net_new(&cfg) : NULL;
    uint64_t events = 0;
    b->event = count_events;
    b->event_ctx = &events;
    if (c)
        CHECK_EQ(net_use_lanes(c, lanes_backwards, NULL, 0), 0);
    CHECK_EQ(net_use_lanes(b, lanes_backwards, NULL, 0), -1);   /* an observer */
    if (!c)
        CHECK_EQ(net_use_lanes(a, lanes_backwards, NULL, 0), -1);   /* one plane */
    uint32_t n = 1u << k;
    uint64_t asleep_max = 0;
    for (uint64_t t = t_base + 1; t <= t_base + steps; t++) {
        a->timestep = b->timestep = t;
        if (c)
            c->timestep = t;
        for (uint32_t p = 0; p < n; p++) {
            for (unsigned port = 0; port < cfg.ports; port++) {
                uint32_t w, w2, w3;
                if (rnd(8) == 0) {
                    bool took = net_in_take(a, p, port, &w);
                    CHECK_EQ(took, net_in_take(b, p, port, &w2));
                    if (c)
                        CHECK_EQ(took, net_in_take(c, p, port, &w3));
                }
            }
            if (t <= t_base + steps - 200 && net_out_free(a, p) && rnd(2) == 0) {
                CHECK(net_out_free(b, p));
                uint32_t q = rnd(n), port = rnd(cfg.ports);
                unsigned plane = planes == 2 ? rnd(2) : 0;
                unsigned cmin = p == q ? 1 : msb(p ^ q) + 1;
                unsigned count = adaptive ? cmin : cmin + rnd(k - cmin + 1);
                uint32_t routing = adaptive ? 0 : rnd(1u << (count - 1));
                send(a, p, q, port, plane, count, routing, t);
                send(b, p, q, port, plane, count, routing, t);
                if (c)
                    send(c, p, q, port, plane, count, routing, t);
            }
        }
        step(a, t);
        step(b, t);
        if (c) {
            step(c, t);
            if (fingerprint(c) != fingerprint(a) || c->stats.asleep != a->stats.asleep) {
                printf("  k=%u %s%s B=%u D=%u: lanes differ at t=%llu\n", k,
                       full ? "full" : "half", adaptive ? " adaptive" : "", buffer, depth,
                       (unsigned long long)t);
                CHECK(!"a network with a lane per plane agrees");
                break;
            }
        }
        if (a->stats.asleep > asleep_max)
            asleep_max = a->stats.asleep;
        if (fingerprint(a) != fingerprint(b)) {
            printf("  k=%u planes=%u %s%s B=%u D=%u: differ at t=%llu\n", k, planes,
                   full ? "full" : "half", adaptive ? " adaptive" : "", buffer, depth,
                   (unsigned long long)t);
            CHECK(!"sleeping and awake networks agree");
            break;
        }
    }
    CHECK_EQ(b->stats.asleep, 0);         /* with an observer nothing sleeps */
    CHECK(asleep_max > 0);                /* the test did make packets sleep */
    CHECK(events > 0);
    net_free(a);
    net_free(b);
    net_free(c);
}

static void sleeping_is_exact(void)
{
    sleeping_is_exact_under(3, 2, false, false, 1, 1, 1500);
    sleeping_is_exact_under(3, 1, true, false, 2, 1, 1500);
    sleeping_is_exact_under(5, 2, true, false, 1, 2, 1500);
    sleeping_is_exact_under(5, 2, false, false, 3, 1, 1500);
    sleeping_is_exact_under(6, 2, true, true, 2, 1, 1000);
    sleeping_is_exact_under(6, 1, false, true, 1, 1, 1000);
    sleeping_is_exact_under(8, 2, true, false, 5, 1, 600);
    /* Buffers deeper than a Buffer's own places, in rings that grow. */
    sleeping_is_exact_under(4, 2, true, false, 12, 1, 1500);
    sleeping_is_exact_under(4, 2, false, false, 9, 1, 1500);
    sleeping_is_exact_under(5, 2, true, true, 7, 1, 1000);
    /* Timesteps beyond 2^32, which nothing may keep in 32 bits. */
    t_base = (1ull << 32) - 300;
    sleeping_is_exact_under(5, 2, true, false, 1, 2, 1000);
    sleeping_is_exact_under(5, 2, false, false, 2, 1, 1000);
    t_base = 0;
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

/* ---- where a hop goes ------------------------------------------------------------ */

/* hop_target, which stage e uses, is claim_heading's walk written out: for
 * every holder of small networks and many routes they must agree on where
 * the packet goes and the port it arrives on. */
static void hop_target_agrees_with_claim_heading(void)
{
    for (unsigned k = 1; k <= 5; k++)
        for (int full = 0; full < 2; full++) {
            NetConfig cfg = { k, 2, full, 5, 1, 1, false };
            Net *net = net_new(&cfg);
            uint64_t id = send(net, 0, 0, 0, 0, 1, 0, 1);   /* a packet whose route we vary */
            uint32_t pool_x = NET_NIL;
            for (uint32_t y = 1; y < net->pool_cap; y++)
                if (net->pool[y].place != PLACE_FREE && net->info[y].id == id)
                    pool_x = y;
            size_t holders = net->nbuffers + 2 * (size_t)net->nprocs;
            for (uint32_t h = 0; h < holders; h++) {
                if (h < net->nbuffers && (h & 3) >= 2 && sw_layer(net, h >> 2) == k)
                    continue;                    /* the top layer has no up links */
                unsigned layer, dir;
                uint32_t heading = claim_heading(net, h, &layer, &dir);
                for (uint32_t r = 0; r < 64; r++) {
                    unsigned count = 1 + r % k;
                    net->pool[pool_x].count = (uint8_t)count;
                    net->pool[pool_x].routing = (r * 2654435761u) & ((1u << (count - 1)) - 1);
                    net->pool[pool_x].addressing = (r * 40503u) & ((1u << count) - 1);
                    net->routes[pool_x] = route_word(net, &net->pool[pool_x]);
                    uint32_t up, down, want;
                    unsigned class, want_class;
                    packet_route(net, pool_x, &up, &down);
                    if (heading & 1) {
                        want = heading >> 1;
                        want_class = ARRIVE_DELIVERY;
                    } else {
                        want_class = (heading >> 1) & 3;
                        want = 4 * (heading >> 3) +
                               route_out(up, down, dir == DIR_UP ? layer : layer - 1,
                                         want_class < 2);
                    }
                    uint32_t got = hop_target(net, h, pool_x, &class);
                    if (got != want || class != want_class) {
                        printf("  k=%u %s holder %u route %u: 0x%x class %u, want 0x%x class %u\n",
                               k, full ? "full" : "half", h, r, got, class, want, want_class);
                        CHECK(!"hop_target agrees with claim_heading");
                        net_free(net);
                        return;
                    }
                }
            }
            net_free(net);
        }
}

/* ---- deep buffers, against a record ------------------------------------------ */

static uint64_t record_rng;

static uint32_t record_draw(uint32_t n)
{
    record_rng = record_rng * 6364136223846793005ull + 1442695040888963407ull;
    return (uint32_t)((record_rng >> 33) % n);
}

/* Random traffic through 32 processors, 2000 timesteps, ports read
 * sparsely, with buffers deeper than a Buffer holds itself: the closing
 * statistics must be those recorded from the network stage before packets
 * were kept in buffers' places (commit 4342fa2, whose FIFOs were threaded
 * through the packets, so never ran out of places). */
static void deep_buffers_as_recorded_under(bool full, unsigned buffer, RoutingAlgorithm alg,
                                           const uint64_t want[7])
{
    NetConfig cfg = { 5, 2, full, buffer, 3, 2, alg == ROUTING_ADAPTIVE };
    Net *net = net_new(&cfg);
    Router *router = router_new(alg, 5, 2, 1);
    uint32_t n = 32;
    RouteRequest req[32];
    Route routes[32];
    record_rng = 99;
    for (uint64_t t = 1; t <= 2000; t++) {
        net->timestep = t;
        size_t batch = 0;
        for (uint32_t p = 0; p < n; p++) {
            uint32_t w;
            for (unsigned port = 0; port < cfg.ports; port++)
                if (record_draw(6) == 0)
                    while (net_in_take(net, p, port, &w))
                        ;
            if (t < 1500 && net_out_free(net, p) && record_draw(3) == 0) {
                net_reserve_out(net, p);
                req[batch++] = (RouteRequest){ p, record_draw(n), record_draw(cfg.ports),
                                               net_count_request(net, p) };
            }
        }
        router_route(router, req, batch, routes);
        for (size_t i = 0; i < batch; i++)
            net_inject(net, &req[i], &routes[i], (uint32_t)i, t);
        step(net, t);
    }
    const NetStats *st = &net->stats;
    CHECK_EQ(st->link_total, want[0]);
    CHECK_EQ(st->buffer_total, want[1]);
    CHECK_EQ(st->delivered, want[2]);
    CHECK_EQ(st->links_crossed, want[3]);
    CHECK_EQ(st->port_waits, want[4]);
    CHECK_EQ(st->max_buffer, want[5]);
    CHECK_EQ(st->latency_sum, want[6]);
    router_free(router);
    net_free(net);
}

static void deep_buffers_as_recorded(void)
{
    static const uint64_t benes_half_13[7] = { 127756, 85015, 7407, 61591, 5317, 13, 159163 };
    static const uint64_t adaptive_full_9[7] = { 10135, 4269, 15847, 128596, 15408, 9, 288383 };
    static const uint64_t valiant_full_1024[7] = { 9519, 8753, 15847, 158470, 14984, 15, 350222 };
    deep_buffers_as_recorded_under(false, 13, ROUTING_BENES, benes_half_13);
    deep_buffers_as_recorded_under(true, 9, ROUTING_ADAPTIVE, adaptive_full_9);
    deep_buffers_as_recorded_under(true, 1024, ROUTING_VALIANT, valiant_full_1024);
}

int main(void)
{
    RUN(hop_target_agrees_with_claim_heading);
    RUN(half_duplex_claim_conflict);
    RUN(two_packets_enter_one_buffer);
    RUN(refused_by_a_full_buffer);
    RUN(blocked_by_a_full_input_port);
    RUN(delivery_oldest_first);
    RUN(half_duplex_network_deadlock);
    RUN(invariants_name_the_component);
    RUN(sleeping_is_exact);
    RUN(deep_buffers_as_recorded);
    RUN(conservation_n64);
    RUN(conservation_n1024);
    return CHECK_EXIT();
}
