/* Messages of several words (spec/messages.md) in the reference network
 * stage (net/reference.c), driven directly: the fast stage does not carry
 * them yet, so these tests inject messages into the reference alone, step
 * it, and look at its state (net/reference.h).
 *
 * They hold it to messages.md: the timing of a lone message under the
 * three switchings (every routing, both duplex modes, L = 1 to 64, N up to
 * 1,024), the half-duplex routes that meet their own flits, wormhole's
 * deadlock by itself and its pace with one-place buffers; ownership of
 * buffers and input ports; each collision rule; store-and-forward's
 * waiting head; adaptive bodies following their head; multicasts and
 * owned buffers; the statistics; and, under random traffic of every
 * kind, the invariants of ownership and the conservation of flits. Every
 * expected number below is worked out from the spec's words, in the
 * comment above its test, not read off the code. */
#include <stdlib.h>

#include "net/net.h"
#include "net/reference.h"
#include "net/route.h"
#include "net/topology.h"
#include "tests/check.h"

static uint64_t rng = 11;

static uint32_t rnd(uint32_t n)
{
    rng = rng * 6364136223846793005ull + 1442695040888963407ull;
    return (uint32_t)((rng >> 33) % n);
}

static const char *const switching[] = { "wormhole", "cut-through", "store-forward" };

/* ---- a network of the reference stage alone -------------------------------- */

static NetConfig config(unsigned k, unsigned planes, bool full, unsigned buffer, unsigned depth,
                        unsigned vcs, NetSwitching sw)
{
    return (NetConfig){ k, planes, full, buffer, 4, depth, false, vcs, sw };
}

/* A unicast route of plane `plane` turning at layer `count`, up ports
 * `routing`; its addressing is the low count bits of dst (machine.md). */
static Route route_to(uint32_t dst, unsigned plane, unsigned count, uint32_t routing)
{
    return (Route){ (uint8_t)plane, (uint8_t)count, routing & ((1u << (count - 1)) - 1),
                    dst & ((2u << (count - 1)) - 1) };
}

/* Stage 3 of timestep t: message `id` of L words (0: OUT's one word) from
 * src to port `port` of dst enters src's output slot. */
static void send(Reference *r, uint64_t id, uint32_t src, uint32_t dst, uint32_t port,
                 uint32_t L, Route route, uint64_t t)
{
    RouteRequest req = { src, dst, port, 0, NULL, L };
    reference_inject(r, id, &req, &route, t);
}

/* Buffer q (0 d0, 1 d1, 2 u0, 3 u1) of switch (plane, layer, j), channel v:
 * its channel buffer number (net.h's numbering). */
static uint32_t buffer_at(const Reference *r, unsigned plane, unsigned layer, uint32_t j,
                          unsigned q, unsigned v)
{
    return (4 * ((plane * r->k + layer - 1) * r->half + j) + q) * r->V + v;
}

/* Processor p's link in plane `plane`, direction dir: its lane v. */
static uint32_t proc_lane(const Reference *r, uint32_t p, unsigned plane, unsigned dir,
                          unsigned v)
{
    uint32_t link = 2 * ((plane * r->k) * r->half + (p >> 1)) + (p & 1);
    return (r->cfg.full_duplex ? 2 * link + dir : link) * r->V + v;
}

static uint32_t port_of(const Reference *r, uint32_t p, uint32_t port)
{
    return p * r->cfg.ports + port;
}

/* The id and index of flit x, as one number for checks: id * 100 + index. */
static long long flit_code(const Reference *r, uint32_t x)
{
    if (x == REF_NONE)
        return -1;
    return (long long)r->message[r->flit[x].msg].id * 100 + r->flit[x].flit;
}

/* The flit at place i of channel buffer cb (or input port pn), as flit_code. */
static long long in_buffer(const Reference *r, uint32_t cb, unsigned i)
{
    const Queue *q = &r->buffer[cb];
    return i < q->count ? flit_code(r, queue_at(q, i, r->cfg.buffer)) : -1;
}

static long long in_port(const Reference *r, uint32_t pn, unsigned i)
{
    const Queue *q = &r->port[pn];
    return i < q->count ? flit_code(r, queue_at(q, i, r->cfg.port_depth)) : -1;
}

/* The id owning channel buffer cb (or input port pn), or -1. */
static long long owner_id(const Reference *r, uint32_t m)
{
    return m == REF_NONE ? -1 : (long long)r->message[m].id;
}

/* An IN of p on `port`: reads the oldest word there, which must be flit
 * `index` of message `id`. */
static void read_word(Reference *r, uint32_t p, uint32_t port, uint64_t id, uint32_t index,
                      uint32_t length)
{
    NetPacket taken = { .id = id, .flit = index, .length = length };
    char err[200];
    int rc = reference_read(r, p, port, &taken, err, sizeof err);
    if (rc != 0)
        printf("  %s\n", err);
    CHECK_EQ(rc, 0);
}

static uint64_t collisions(const Reference *r)
{
    return r->stats.link_total + r->stats.buffer_total;
}

/* ---- invariants: what ownership promises ---------------------------------------- */

/* Whether queue q (of `size` places) keeps its messages whole and in
 * order, and agrees with its owner: flits of one message consecutive in
 * index order, a message after another only behind its tail, and the
 * owner the message whose head is in and whose tail is not. */
static bool queue_is_whole(const Reference *r, const Queue *q, unsigned size, uint32_t owner,
                           const char *what, uint32_t index)
{
    uint32_t last = REF_NONE;
    for (unsigned i = 0; i < q->count; i++) {
        uint32_t x = queue_at(q, i, size);
        const RefMessage *m = &r->message[r->flit[x].msg];
        if (last != REF_NONE) {
            const RefMessage *lm = &r->message[r->flit[last].msg];
            bool next = r->flit[x].msg == r->flit[last].msg &&
                        r->flit[x].flit == r->flit[last].flit + 1;
            bool after = r->flit[last].flit == lm->length - 1 && r->flit[x].flit == 0;
            if (!next && !after) {
                printf("  %s %u: #%llu.%u after #%llu.%u\n", what, index,
                       (unsigned long long)m->id, r->flit[x].flit,
                       (unsigned long long)lm->id, r->flit[last].flit);
                return false;
            }
        }
        last = x;
    }
    /* Owned by m: its head entered and its tail did not, so the last flit
     * in is m's and not its tail (or m's flits in so far have all left). */
    bool open = last != REF_NONE &&
                r->flit[last].flit != r->message[r->flit[last].msg].length - 1;
    bool ok = owner == REF_NONE ? !open
                                : (last == REF_NONE || (open && r->flit[last].msg == owner));
    if (!ok)
        printf("  %s %u: owner %lld does not fit its flits\n", what, index, owner_id(r, owner));
    return ok;
}

/* Counts the flits in output slots (the one offered and those behind it),
 * on links and in buffers. */
static uint64_t flits_in_network(const Reference *r)
{
    uint64_t n = 0;
    for (uint32_t p = 0; p < r->n; p++)
        if (r->slot[p] != REF_NONE)
            n += r->message[r->flit[r->slot[p]].msg].length - r->flit[r->slot[p]].flit;
    for (uint32_t lane = 0; lane < r->wires * r->V; lane++)
        n += r->main[lane] != REF_NONE;
    for (uint32_t cb = 0; cb < r->buffers * r->V; cb++)
        n += r->buffer[cb].count;
    return n;
}

/* Every buffer and port whole and within its size, and every flit counted. */
static bool invariants_hold(const Reference *r)
{
    for (uint32_t cb = 0; cb < r->buffers * r->V; cb++)
        if (r->buffer[cb].count > r->cfg.buffer ||
            !queue_is_whole(r, &r->buffer[cb], r->cfg.buffer, r->owner[cb], "buffer", cb))
            return false;
    for (uint32_t pn = 0; pn < r->n * r->cfg.ports; pn++)
        if (r->port[pn].count > r->cfg.port_depth ||
            !queue_is_whole(r, &r->port[pn], r->cfg.port_depth, r->port_owner[pn], "port", pn))
            return false;
    if (flits_in_network(r) != r->in_flight) {
        printf("  %llu flits in the network, %llu in flight\n",
               (unsigned long long)flits_in_network(r), (unsigned long long)r->in_flight);
        return false;
    }
    return true;
}

/* Steps timesteps from..to, checking the invariants after each. */
static void run_steps(Reference *r, uint64_t from, uint64_t to)
{
    for (uint64_t t = from; t <= to; t++) {
        reference_step(r, t);
        CHECK(invariants_hold(r));
    }
}

/* ---- a lone message ------------------------------------------------------------- */

typedef struct Outcome {
    uint64_t tail;          /* the timestep at whose end the tail was in its port, or 0 */
    uint64_t stuck;         /* else the first timestep in which nothing moved, or 0 */
    uint64_t collisions, links_crossed, latency;
} Outcome;

/* Sends one message of L words at timestep t0 into an empty network and
 * steps until its tail is in its port, or nothing moves. */
static Outcome lone(const NetConfig *cfg, uint32_t src, uint32_t dst, uint32_t port, uint32_t L,
                    Route route, uint64_t t0)
{
    Outcome o = { 0, 0, 0, 0, 0 };
    Reference *r = reference_new(cfg);
    if (!r) {
        CHECK(!"a reference network");
        return o;
    }
    send(r, 0, src, dst, port, L, route, t0);
    for (uint64_t t = t0; t < t0 + 100000 && !o.tail && !o.stuck; t++) {
        reference_step(r, t);
        if (r->stats.delivered == 1)
            o.tail = t;
        else if (!r->moved)
            o.stuck = t;
    }
    o.collisions = collisions(r);
    o.links_crossed = r->stats.links_crossed;
    o.latency = r->stats.latency_max;
    CHECK(invariants_hold(r));
    CHECK_EQ(r->stats.flits_delivered, o.tail ? (L ? L : 1) : r->stats.flits_delivered);
    reference_free(r);
    return o;
}

static unsigned reported;   /* failures described so far (the first few only) */

/* The lone-message timing of messages.md: tail at t + 4c - 1 + (L - 1)
 * (wormhole, cut-through) or t + 4c - 1 + 2c(L - 1) (store-and-forward),
 * no collision, 2cL links crossed, latency per message. */
static void on_time(const NetConfig *cfg, uint32_t src, uint32_t dst, uint32_t L, Route route,
                    const char *routing)
{
    uint64_t t0 = 1 + rnd(50), c = route.count, extra = L - 1;
    if (cfg->switching == SWITCHING_STORE_FORWARD)
        extra = 2 * c * (L - 1);
    uint64_t want = t0 + 4 * c - 1 + extra;
    uint32_t port = rnd(cfg->ports);
    Outcome o = lone(cfg, src, dst, port, L, route, t0);
    if ((o.tail != want || o.collisions != 0 || o.links_crossed != 2 * c * L) &&
        reported++ < 5)
        printf("  N=%u %s %s V=%u B=%u %s: p%u->p%u count %llu, L=%u: tail at %llu (stuck "
               "%llu), want %llu; %llu collisions\n", 1u << cfg->k,
               cfg->full_duplex ? "full" : "half", switching[cfg->switching], cfg->vcs,
               cfg->buffer, routing, src, dst, (unsigned long long)c, L,
               (unsigned long long)o.tail, (unsigned long long)o.stuck,
               (unsigned long long)want, (unsigned long long)o.collisions);
    CHECK_EQ(o.tail, want);
    CHECK_EQ(o.collisions, 0);
    CHECK_EQ(o.links_crossed, 2 * c * L);
    CHECK_EQ(o.latency, want - t0);
}

/* Whether a half-duplex route crosses no link twice: src != dst and it
 * turns at the lowest layer it can (messages.md, "Timing"). */
static bool crosses_no_link_twice(bool full, uint32_t src, uint32_t dst, unsigned count)
{
    return full || (src != dst && count == topo_cmin(src, dst));
}

static const uint32_t lengths[] = { 1, 2, 3, 4, 5, 8, 13, 31, 64 };

/* Every routing of routing.md (through the router, a route for one
 * request; adaptive chooses in the network) and routes built by hand
 * turning at every layer from the lowest, both duplex modes, the three
 * switchings, L from 1 to 64, N = 2 to 64 with V = 1 to 3, buffers of 2
 * (wormhole) or L up to L + 3 (the others: a longer message faults), a
 * port of exactly L words; then N = 1,024, the longest messages and the
 * highest turns. */
static void lone_message_arrives_on_time(void)
{
    for (unsigned k = 1; k <= 6; k++)
        for (int full = 0; full <= 1; full++)
            for (unsigned sw = 0; sw < SWITCHING_COUNT; sw++)
                for (size_t li = 0; li < sizeof lengths / sizeof lengths[0]; li++) {
                    uint32_t n = 1u << k, L = lengths[li];
                    unsigned vcs = 1 + rnd(3);
                    unsigned B = sw == SWITCHING_WORMHOLE ? 2 + rnd(2) * rnd(4)
                                                          : (L < 2 ? 2 : L) + rnd(4);
                    NetConfig cfg = config(k, 1 + rnd(2), full, B, L, vcs, (NetSwitching)sw);
                    /* By hand: every count, random up ports. */
                    uint32_t src = rnd(n), dst = rnd(n);
                    for (unsigned c = topo_cmin(src, dst); c <= k; c++)
                        if (crosses_no_link_twice(full, src, dst, c))
                            on_time(&cfg, src, dst, L,
                                    route_to(dst, rnd(cfg.planes), c, rnd(1u << (c - 1))),
                                    "by hand");
                    /* Every routing algorithm. */
                    for (unsigned alg = 0; alg < ROUTING_COUNT; alg++) {
                        src = rnd(n);
                        dst = rnd(n);
                        Router *router = router_new((RoutingAlgorithm)alg, k, cfg.planes,
                                                    1 + rnd(99));
                        RouteRequest req = { src, dst, 0, rnd(4), NULL, L };
                        Route route;
                        router_route(router, &req, 1, &route);
                        router_free(router);
                        cfg.adaptive = alg == ROUTING_ADAPTIVE;
                        if (crosses_no_link_twice(full, src, dst, route.count))
                            on_time(&cfg, src, dst, L, route, routing_name((RoutingAlgorithm)alg));
                        cfg.adaptive = false;
                    }
                }
    /* N = 1,024: from p0 to p1023 (turning at 10) and from p5 to p4 (at 1
     * in half duplex, at 10 in full), L = 1 and 64; make test each
     * switching in one duplex mode, in turn, and make check in both
     * (TEST_FULL). */
    for (int full = 0; full <= 1; full++)
        for (unsigned sw = 0; sw < SWITCHING_COUNT; sw++)
            for (uint32_t L = 1; L <= 64; L += 63) {
                if (!test_full() && (int)(sw % 2) != full)
                    continue;
                NetConfig cfg = config(10, 2, full, L < 2 ? 2 : L, L, 1 + full,
                                       (NetSwitching)sw);
                on_time(&cfg, 0, 1023, L, route_to(1023, 1, 10, 0x155), "by hand");
                on_time(&cfg, 5, 4, L, route_to(4, 0, full ? 10 : 1, 0x2aa), "by hand");
            }
}

/* A half-duplex route that crosses a link twice meets its own body flits
 * coming back: with buffers that hold the whole message (--buffer >= L),
 * a message to its own processor (every count) or one turning above its
 * lowest layer has its tail L - 2 timesteps late under wormhole and
 * cut-through (L >= 2), on time under store-and-forward, and never a
 * collision (the flits that hold it up are its own). */
static void half_duplex_route_that_crosses_a_link_twice(void)
{
    for (unsigned k = 1; k <= 5; k++)
        for (unsigned sw = 0; sw < SWITCHING_COUNT; sw++)
            for (size_t li = 0; li < 8; li++) {
                uint32_t n = 1u << k, L = lengths[li], p = rnd(n), q = p ^ 1;
                NetConfig cfg = config(k, 1, false, L < 2 ? 2 : L, L, 1 + rnd(2),
                                       (NetSwitching)sw);
                uint64_t late = sw == SWITCHING_STORE_FORWARD || L == 1 ? 0 : L - 2;
                for (unsigned c = 1; c <= k; c++) {
                    /* to itself, turning at c; and to its neighbour above layer 1 */
                    for (int self = 1; self >= (c > 1 ? 0 : 1); self--) {
                        uint32_t dst = self ? p : q;
                        uint64_t c64 = c, extra = sw == SWITCHING_STORE_FORWARD
                                                  ? 2 * c64 * (L - 1) : L - 1;
                        Outcome o = lone(&cfg, p, dst, 0, L, route_to(dst, 0, c, rnd(n)), 1);
                        if (o.tail != 1 + 4 * c64 - 1 + extra + late && reported++ < 5)
                            printf("  N=%u %s L=%u p%u->p%u count %u: tail at %llu\n", n,
                                   switching[sw], L, p, dst, c, (unsigned long long)o.tail);
                        CHECK_EQ(o.tail, 1 + 4 * c64 - 1 + extra + late);
                        CHECK_EQ(o.collisions, 0);
                    }
                }
            }
}

/* A half-duplex wormhole message to its own processor longer than
 * --buffer deadlocks by itself: its head waits in the switch for the
 * processor link, which its body holds while it waits for room in the
 * head's buffer. N = 2, B = 2, L = 5, sent at 1: the head enters the
 * buffer at 2, flit 1 at 3 (full); flit 2, on the link from 3, can enter
 * nothing, and the head's claims fail: from timestep 4 nothing moves,
 * with flits 3 and 4 still in the slot, and no collision (all its own).
 * The same message turning at layer 2 of N = 4 fills the turn buffer and
 * stops too. In full duplex it arrives on time. */
static void wormhole_longer_than_buffer_to_itself_deadlocks(void)
{
    NetConfig cfg = config(1, 1, false, 2, 8, 1, SWITCHING_WORMHOLE);
    Reference *r = reference_new(&cfg);
    send(r, 0, 1, 1, 0, 5, route_to(1, 0, 1, 0), 1);
    for (uint64_t t = 1; t <= 3; t++) {
        reference_step(r, t);
        CHECK(r->moved);
    }
    reference_step(r, 4);
    CHECK(!r->moved);
    uint32_t d1 = buffer_at(r, 0, 1, 0, 1, 0);
    CHECK_EQ(in_buffer(r, d1, 0), 0);
    CHECK_EQ(in_buffer(r, d1, 1), 1);
    CHECK_EQ(flit_code(r, r->main[proc_lane(r, 1, 0, DIR_UP, 0)]), 2);
    CHECK_EQ(flit_code(r, r->slot[1]), 3);
    CHECK_EQ(owner_id(r, r->owner[d1]), 0);
    CHECK_EQ(collisions(r), 0);
    CHECK(invariants_hold(r));
    reference_free(r);

    for (uint32_t L = 3; L <= 9; L++) {
        cfg = config(2, 1, false, L - 1, L, 1, SWITCHING_WORMHOLE);
        Outcome o = lone(&cfg, 2, 2, 0, L, route_to(2, 0, 2, 1), 1);
        CHECK_EQ(o.tail, 0);
        CHECK(o.stuck > 0);
        CHECK_EQ(o.collisions, 0);
        cfg.full_duplex = true;
        o = lone(&cfg, 2, 2, 0, L, route_to(2, 0, 2, 1), 1);
        CHECK_EQ(o.tail, 1 + 8 - 1 + L - 1);
    }
}

/* With --buffer 1 a wormhole message's flits move every other timestep
 * (a place is free only from the timestep after its flit left): the
 * tail is in the port at t + 4c - 1 + 2(L - 1), both duplex modes, with
 * no collision -- every flit waits for its own message's. */
static void one_place_buffers_move_flits_every_other_timestep(void)
{
    for (unsigned k = 1; k <= 6; k++)
        for (int full = 0; full <= 1; full++)
            for (size_t li = 0; li < sizeof lengths / sizeof lengths[0]; li++) {
                uint32_t n = 1u << k, L = lengths[li], src = rnd(n), dst = rnd(n);
                if (src == dst)
                    dst ^= 1;
                unsigned c = full ? topo_cmin(src, dst) + rnd(k - topo_cmin(src, dst) + 1)
                                  : topo_cmin(src, dst);
                NetConfig cfg = config(k, 1, full, 1, L, 1 + rnd(2), SWITCHING_WORMHOLE);
                Outcome o = lone(&cfg, src, dst, 0, L, route_to(dst, 0, c, rnd(n)), 1);
                uint64_t c64 = c;
                CHECK_EQ(o.tail, 1 + 4 * c64 - 1 + 2 * (L - 1));
                CHECK_EQ(o.collisions, 0);
            }
}

/* ---- ownership ------------------------------------------------------------------ */

/* Two messages of 3 words, #0 from p0 and #1 from p1, both to port 0 of
 * p2 (N = 4, B = 4, wormhole), sent at 1 on routes that share buffer u0
 * of switch (1, 0). At 2 #0's head enters it first (p0's link comes
 * first in stage d) and owns it; #1's head is refused at 2 and 3 (two
 * buffer collisions) and enters at 4, in the same loop, right after #0's
 * tail, behind flit #0.2 (one more: the queueing rule). #0 arrives on
 * time (its tail at 1 + 7 + 2 = 10), #1 three timesteps later (13).
 * Throughout, no buffer or port ever holds the two interleaved. Both
 * duplex modes: the routes cross no link twice. */
static void two_messages_into_one_buffer_never_interleave(void)
{
    for (int full = 0; full <= 1; full++) {
        NetConfig cfg = config(2, 1, full, 4, 8, 1, SWITCHING_WORMHOLE);
        Reference *r = reference_new(&cfg);
        send(r, 0, 0, 2, 0, 3, route_to(2, 0, 2, 0), 1);
        send(r, 1, 1, 2, 0, 3, route_to(2, 0, 2, 0), 1);
        uint32_t u0 = buffer_at(r, 0, 1, 0, 2, 0);
        run_steps(r, 1, 2);
        CHECK_EQ(owner_id(r, r->owner[u0]), 0);
        CHECK_EQ(r->stats.buffer_total, 1);
        run_steps(r, 3, 4);
        CHECK_EQ(in_buffer(r, u0, 0), 2);                /* #0.2, then #1.0 */
        CHECK_EQ(in_buffer(r, u0, 1), 100);
        CHECK_EQ(owner_id(r, r->owner[u0]), 1);
        CHECK_EQ(r->stats.buffer_total, 3);
        run_steps(r, 5, 10);
        CHECK_EQ(r->stats.delivered, 1);
        run_steps(r, 11, 13);
        CHECK_EQ(r->stats.delivered, 2);
        CHECK_EQ(r->stats.latency_min, 9);
        CHECK_EQ(r->stats.latency_max, 12);
        for (unsigned i = 0; i < 6; i++)
            CHECK_EQ(in_port(r, port_of(r, 2, 0), i), (i / 3) * 100 + i % 3);
        CHECK_EQ(r->stats.link_total, 0);
        CHECK_EQ(r->stats.buffer_total, 3);
        reference_free(r);
    }
}

/* Message #0 of 10 words from p0 to p7 (N = 8, full duplex, routing 0:
 * up through (1,0) u0, (2,0) u0, turning at (3,0) d1, down through (2,2)
 * d1 and (1,3) d1) into a port of 3 words that no one reads: its head
 * enters the port at 1 + 11 = 12, flits 1 and 2 follow, and the rest
 * stop behind them.
 *
 * Wormhole, B = 2: the message stays strung out along its path, holding
 * a buffer in several switches: flit 3 on p7's link, 4 and 5 in (1,3)
 * d1, 6 on the link above, 7 and 8 in (2,2) d1, 9 on the link above
 * that; (1,3) d1 and (2,2) d1 stay owned by #0 (its tail has not
 * entered), and no other buffer. So #1, 3 words from p4 to p6 (up
 * through (1,2) u0, turning at (2,2), down through (2,2) d1), sent at 20,
 * reaches (2,2) at 23 and is refused there every timestep: 8 buffer
 * collisions by 30, and never arrives.
 *
 * Cut-through, B = 10: the message gathers into the last buffer, (1,3) d1
 * (flits 4 to 9), and frees the path behind it: no buffer is owned, and
 * #1 arrives on time, its tail at 20 + 7 + 2 = 29, no collision. */
static void blocked_wormhole_holds_its_path_cut_through_gathers(void)
{
    for (unsigned sw = 0; sw < 2; sw++) {
        bool worm = sw == SWITCHING_WORMHOLE;
        NetConfig cfg = config(3, 1, true, worm ? 2 : 10, 3, 1, (NetSwitching)sw);
        Reference *r = reference_new(&cfg);
        send(r, 0, 0, 7, 0, 10, route_to(7, 0, 3, 0), 1);
        run_steps(r, 1, 11);
        CHECK_EQ(r->stats.flits_delivered, 0);
        run_steps(r, 12, 19);
        uint32_t d1_13 = buffer_at(r, 0, 1, 3, 1, 0), d1_22 = buffer_at(r, 0, 2, 2, 1, 0);
        for (unsigned i = 0; i < 3; i++)
            CHECK_EQ(in_port(r, port_of(r, 7, 0), i), i);
        CHECK_EQ(flit_code(r, r->main[proc_lane(r, 7, 0, DIR_DOWN, 0)]), 3);
        if (worm) {
            CHECK_EQ(r->buffer[d1_13].count, 2);
            CHECK_EQ(in_buffer(r, d1_13, 0), 4);
            CHECK_EQ(r->buffer[d1_22].count, 2);
            CHECK_EQ(in_buffer(r, d1_22, 0), 7);
            CHECK_EQ(owner_id(r, r->owner[d1_13]), 0);
            CHECK_EQ(owner_id(r, r->owner[d1_22]), 0);
        } else {
            CHECK_EQ(r->buffer[d1_13].count, 6);
            CHECK_EQ(in_buffer(r, d1_13, 0), 4);
            CHECK_EQ(in_buffer(r, d1_13, 5), 9);
            CHECK_EQ(r->buffer[d1_22].count, 0);
        }
        CHECK_EQ(owner_id(r, r->port_owner[port_of(r, 7, 0)]), 0);
        uint64_t owned = 0, holding = 0;
        for (uint32_t cb = 0; cb < r->buffers; cb++) {
            owned += r->owner[cb] != REF_NONE;
            holding += r->buffer[cb].count != 0;
        }
        CHECK_EQ(owned, worm ? 2 : 0);
        CHECK_EQ(holding, worm ? 2 : 1);
        CHECK_EQ(collisions(r), 0);
        send(r, 1, 4, 6, 1, 3, route_to(6, 0, 2, 0), 20);
        run_steps(r, 20, 30);
        CHECK_EQ(r->stats.delivered, worm ? 0 : 1);
        CHECK_EQ(r->stats.latency_max, worm ? 0 : 9);
        CHECK_EQ(r->stats.buffer_total, worm ? 8 : 0);
        CHECK_EQ(r->stats.link_total, 0);
        reference_free(r);
    }
}

/* An input port is owned like a buffer. #0 (4 words, p0, plane 0) and #1
 * (2 words, p1 to itself, plane 1) both go to port 0 of p1 (N = 2, full
 * duplex): their heads reach p1's two links at 3, and are delivered
 * oldest first at 4: #0.0 enters, #1.0 finds the port owned and waits
 * (a port wait, not a collision) at 4, 5 and 6; at 7 #0's tail enters
 * first and #1's head right behind it; #1's tail at 8. With a port of 4
 * words #0 fills it: #1's head waits for room until an IN reads a word
 * (at 9), then enters at 9, and its tail once the next word is read. */
static void a_message_owns_its_input_port(void)
{
    for (unsigned depth = 8; depth >= 4; depth -= 4) {
        NetConfig cfg = config(1, 2, true, 4, depth, 1, SWITCHING_WORMHOLE);
        Reference *r = reference_new(&cfg);
        send(r, 0, 0, 1, 0, 4, route_to(1, 0, 1, 0), 1);
        send(r, 1, 1, 1, 0, 2, route_to(1, 1, 1, 0), 1);
        uint32_t pn = port_of(r, 1, 0);
        run_steps(r, 1, 4);
        CHECK_EQ(in_port(r, pn, 0), 0);
        CHECK_EQ(r->port[pn].count, 1);
        CHECK_EQ(owner_id(r, r->port_owner[pn]), 0);
        run_steps(r, 5, 8);
        CHECK_EQ(collisions(r), 0);
        if (depth == 8) {
            CHECK_EQ(r->stats.port_waits, 3);
            CHECK_EQ(r->stats.delivered, 2);
            CHECK_EQ(r->stats.latency_max, 7);
            for (unsigned i = 0; i < 6; i++)
                CHECK_EQ(in_port(r, pn, i), i < 4 ? i : 100 + i - 4);
        } else {
            CHECK_EQ(r->stats.port_waits, 5);        /* 4, 5, 6 owned; 7, 8 full */
            CHECK_EQ(r->stats.delivered, 1);
            read_word(r, 1, 0, 0, 0, 4);
            run_steps(r, 9, 9);
            CHECK_EQ(in_port(r, pn, 3), 100);
            CHECK_EQ(owner_id(r, r->port_owner[pn]), 1);
            read_word(r, 1, 0, 0, 1, 4);
            run_steps(r, 10, 10);
            CHECK_EQ(r->stats.delivered, 2);
            CHECK_EQ(r->stats.latency_max, 9);
        }
        reference_free(r);
    }
}

/* ---- collisions (messages.md, "Collisions") ------------------------------------- */

/* A refused head is one buffer collision a timestep, whether the buffer
 * is owned by another message or, under cut-through, has room for one
 * flit but not for the message. N = 2, full duplex, p1's port 0 of one
 * word, unread. #0 (3 words, p0 to p1 port 0): its head is in the port
 * at 4, flit 1 waits on p1's link, flit 2 at the head of buffer d1 of
 * the switch, whose claims fail from 5 (held up by #0.1: its own, no
 * collision). #1 (2 words, p1 to p1 port 1), sent at 5: its head reaches
 * d1 at 6.
 *
 * Wormhole, B = 2: d1 has a free place and no owner (#0's tail is in):
 * #1.0 enters behind #0.2, a head queueing behind another message (one
 * collision); #1.1 arrives at 7 and is refused by d1, full of #0.2 and
 * #1.0 -- a body flit refused beside another message's flit, one
 * collision a timestep: 4 at 7..10, 5 in all by 10. #1.0 claims nothing
 * (it is not at the head). Then an IN reads #0.0 at 11: #0.1 enters the
 * port at 11, and #0.2 moves onto the link; #1.1 is refused once more at
 * 11, d1 still holding #0.2 (its move is not final in stage d): 6. At 12
 * #1.1 enters behind #1.0, a body flit queueing behind another flit: not
 * counted; #1.0 claims the link, which #0.2 holds (full port): a link
 * collision, one a timestep, 12 and 13.
 *
 * Cut-through, B = 3, #1 of 3 words: #0 gets where it did (its head
 * needed room for 3); #1's head needs room for 3 in d1, which holds #0.2:
 * it has room for one flit, not for the message, and is refused every
 * timestep from 6: 5 by 10. */
static void refused_flits_and_the_queueing_rule(void)
{
    for (unsigned sw = 0; sw < 2; sw++) {
        bool worm = sw == SWITCHING_WORMHOLE;
        NetConfig cfg = config(1, 1, true, worm ? 2 : 3, 1, 1, (NetSwitching)sw);
        Reference *r = reference_new(&cfg);
        send(r, 0, 0, 1, 0, 3, route_to(1, 0, 1, 0), 1);
        run_steps(r, 1, 4);
        uint32_t d1 = buffer_at(r, 0, 1, 0, 1, 0);
        CHECK_EQ(in_port(r, port_of(r, 1, 0), 0), 0);
        CHECK_EQ(flit_code(r, r->main[proc_lane(r, 1, 0, DIR_DOWN, 0)]), 1);
        CHECK_EQ(in_buffer(r, d1, 0), 2);
        CHECK_EQ(r->buffer[d1].count, 1);
        send(r, 1, 1, 1, 1, worm ? 2 : 3, route_to(1, 0, 1, 0), 5);
        run_steps(r, 5, 6);
        CHECK_EQ(r->stats.link_total, 0);
        if (worm) {
            CHECK_EQ(in_buffer(r, d1, 1), 100);
            CHECK_EQ(r->stats.buffer_total, 1);
            run_steps(r, 7, 10);
            CHECK_EQ(r->stats.buffer_total, 5);
            CHECK_EQ(r->stats.link_total, 0);
            read_word(r, 1, 0, 0, 0, 3);
            run_steps(r, 11, 11);
            CHECK_EQ(r->stats.buffer_total, 6);
            CHECK_EQ(flit_code(r, r->main[proc_lane(r, 1, 0, DIR_DOWN, 0)]), 2);
            run_steps(r, 12, 13);
            CHECK_EQ(in_buffer(r, d1, 1), 101);
            CHECK_EQ(r->stats.buffer_total, 6);
            CHECK_EQ(r->stats.link_total, 2);
        } else {
            CHECK_EQ(r->buffer[d1].count, 1);
            run_steps(r, 7, 10);
            CHECK_EQ(r->stats.buffer_total, 5);
            CHECK_EQ(r->stats.link_total, 0);
        }
        CHECK_EQ(r->stats.buffer_collisions[DIR_DOWN][1], r->stats.buffer_total);
        reference_free(r);
    }
}

/* A claim held up by a flit of the claimant's own message is not a
 * collision, in both forms: the flit on the link will not leave (a
 * message into a port of one word: its flits wait behind it), or it
 * leaves but its own message claimed the temp slot first (half duplex, to
 * itself: the head turning back meets its body going up). Against that,
 * the same hold-ups by another message count: #1 to the same full port
 * waits behind #0 with one link collision a timestep. */
static void own_message_hold_ups_are_not_collisions(void)
{
    /* p0 to p1, 6 words, a port of one word, B = 2, wormhole: stuck behind
     * its head from timestep 6 on, claims failing every timestep. */
    NetConfig cfg = config(1, 1, true, 2, 1, 1, SWITCHING_WORMHOLE);
    Reference *r = reference_new(&cfg);
    send(r, 0, 0, 1, 0, 6, route_to(1, 0, 1, 0), 1);
    run_steps(r, 1, 40);
    CHECK_EQ(collisions(r), 0);
    CHECK_EQ(r->stats.port_waits, 36);      /* #0.1 on p1's link, from 5 */
    /* ...and a one-word packet from p1 to the other port waits behind #0.3 in
     * d1 (B = 2: #0.2 and #0.3 fill it): refused at every timestep. */
    send(r, 1, 1, 1, 1, 0, route_to(1, 0, 1, 0), 41);
    run_steps(r, 41, 50);
    CHECK_EQ(r->stats.buffer_total, 9);     /* 42..50 */
    CHECK_EQ(r->stats.link_total, 0);
    reference_free(r);

    /* Half duplex, p0 to itself, 4 words, B = 4: the head in d0 at 2 claims
     * p0's link at 3, 4 and 5, where flits 2, 3 claimed first (own), then
     * flit 3's entry empties the link: the tail arrives L - 2 = 2 late. */
    cfg = config(1, 1, false, 4, 4, 1, SWITCHING_WORMHOLE);
    Outcome o = lone(&cfg, 0, 0, 0, 4, route_to(0, 0, 1, 0), 1);
    CHECK_EQ(o.tail, 1 + 3 + 3 + 2);
    CHECK_EQ(o.collisions, 0);
}

/* Store-and-forward: a head claims only once its tail is in the same
 * buffer at the start of stage 4; until then the buffer takes no part in
 * stage b, so it counts no collision either.
 *
 * V = 1 (N = 2, full duplex, B = 4): P (#0) and Q (#1), one word each
 * from p1 to its own port 0 (one word), sent at 1 and 2: P fills the
 * port at 4, Q waits on p1's link from 5. #2, 3 words from p0 to p1 port
 * 1, sent at 6: its head is in d1 at 7, its tail at 9. Under cut-through
 * the head claims from 8 and is held up by Q every timestep: 5 link
 * collisions by 12; under store-and-forward it claims from 10: 3.
 *
 * V = 2 (N = 2, full duplex, B = 4): #0, 3 words from p0 to p1 port 0
 * (channel 0), and #1, one word from p1 to its port 1 (channel 1), both
 * sent at 1, both heads in d1 at 2. At 3 the port's round robin starts at
 * channel 0: under cut-through #0.0 takes the link and #1 counts one
 * link collision (held up by the channel that got it); under
 * store-and-forward channel 0 waits for its tail and is passed over as if
 * empty: #1 takes the link, no collision, and arrives at 4, not 5. */
static void store_forward_head_waits_for_its_tail_without_collision(void)
{
    for (unsigned sw = SWITCHING_CUT_THROUGH; sw <= SWITCHING_STORE_FORWARD; sw++) {
        bool sf = sw == SWITCHING_STORE_FORWARD;
        NetConfig cfg = config(1, 1, true, 4, 1, 1, (NetSwitching)sw);
        Reference *r = reference_new(&cfg);
        send(r, 0, 1, 1, 0, 0, route_to(1, 0, 1, 0), 1);
        run_steps(r, 1, 1);
        send(r, 1, 1, 1, 0, 0, route_to(1, 0, 1, 0), 2);
        run_steps(r, 2, 5);
        send(r, 2, 0, 1, 1, 3, route_to(1, 0, 1, 0), 6);
        run_steps(r, 6, 9);
        CHECK_EQ(r->buffer[buffer_at(r, 0, 1, 0, 1, 0)].count, 3);
        CHECK_EQ(r->stats.link_total, sf ? 0 : 2);
        run_steps(r, 10, 12);
        CHECK_EQ(r->stats.link_total, sf ? 3 : 5);
        CHECK_EQ(r->stats.buffer_total, 0);
        reference_free(r);

        cfg = config(1, 1, true, 4, 4, 2, (NetSwitching)sw);
        r = reference_new(&cfg);
        send(r, 0, 0, 1, 0, 3, route_to(1, 0, 1, 0), 1);
        send(r, 1, 1, 1, 1, 0, route_to(1, 0, 1, 0), 1);
        run_steps(r, 1, 3);
        CHECK_EQ(r->stats.link_total, sf ? 0 : 1);
        CHECK_EQ(r->stats.vc_link[1], sf ? 0 : 1);
        CHECK_EQ(flit_code(r, r->main[proc_lane(r, 1, 0, DIR_DOWN, sf ? 1 : 0)]), sf ? 100 : 0);
        run_steps(r, 4, 5);
        CHECK_EQ(in_port(r, port_of(r, 1, 1), 0), 100);
        CHECK_EQ(r->stats.latency_min, sf ? 3 : 4);
        reference_free(r);
    }
}

/* ---- routing and multicast -------------------------------------------------------- */

/* Adaptive: the head chooses, the body follows. #0, 3 words from p0 to
 * p3 (N = 4, full duplex, B = 4): at 2 its head finds both up buffers of
 * (1,0) empty and takes u1 (a tie: bit 0 of 3), which its route records.
 * At 3 flit 1 arrives with u1 holding the head (leaving, not final) and
 * u0 empty -- a head would take u0 -- but it follows into u1. The tail
 * arrives on time (10). */
static void adaptive_body_follows_its_head(void)
{
    NetConfig cfg = config(2, 1, true, 4, 4, 1, SWITCHING_WORMHOLE);
    cfg.adaptive = true;
    Reference *r = reference_new(&cfg);
    send(r, 0, 0, 3, 0, 3, (Route){ 0, 2, 0, 3 }, 1);
    run_steps(r, 1, 3);
    uint32_t u0 = buffer_at(r, 0, 1, 0, 2, 0), u1 = buffer_at(r, 0, 1, 0, 3, 0);
    CHECK_EQ(in_buffer(r, u1, 0), 1);
    CHECK_EQ(r->buffer[u0].count, 0);
    CHECK_EQ(r->message[r->flit[queue_at(&r->buffer[u1], 0, 4)].msg].route.routing, 1);
    run_steps(r, 4, 10);
    CHECK_EQ(r->stats.delivered, 1);
    CHECK_EQ(collisions(r), 0);
    reference_free(r);
}

/* A multicast (one flit) splits only if every buffer it needs would take
 * it as a head. N = 2, full duplex, B = 4: #0, 3 words from p0 to p1,
 * and the multicast #1 from p1 to {0, 1}, both sent at 1. At 2 #0's head
 * enters d1 first and owns it; #1 needs d0 and d1 and stays whole: one
 * buffer collision, again at 3. At 4 #0's tail enters d1 (ownership
 * ends) and #1 splits behind it: #1 into d0, the copy #2 into d1 behind
 * #0.2 (the queueing rule: one more). Both copies arrive. */
static void multicast_waits_for_owned_buffers(void)
{
    NetConfig cfg = config(1, 1, true, 4, 4, 1, SWITCHING_WORMHOLE);
    Reference *r = reference_new(&cfg);
    send(r, 0, 0, 1, 0, 3, route_to(1, 0, 1, 0), 1);
    uint32_t members[2] = { 0, 1 };
    DestSet set = { members, 2, 0, 0, DEST_NONE, false };
    RouteRequest req = { 1, 0, 1, 0, &set, 0 };
    Route route = { 0, 1, 0, 0 };
    reference_inject(r, 1, &req, &route, 1);
    run_steps(r, 1, 3);
    CHECK_EQ(r->stats.copies, 0);
    CHECK_EQ(r->stats.buffer_total, 2);
    run_steps(r, 4, 4);
    uint32_t d0 = buffer_at(r, 0, 1, 0, 0, 0), d1 = buffer_at(r, 0, 1, 0, 1, 0);
    CHECK_EQ(r->stats.copies, 1);
    CHECK_EQ(in_buffer(r, d0, 0), 100);
    CHECK_EQ(in_buffer(r, d1, 0), 2);
    CHECK_EQ(in_buffer(r, d1, 1), 200);
    CHECK_EQ(r->stats.buffer_total, 3);
    run_steps(r, 5, 10);
    CHECK_EQ(r->stats.delivered, 3);
    CHECK_EQ(r->stats.flits_delivered, r->stats.flits_sent + r->stats.copies);
    reference_free(r);
}

/* ---- statistics ---------------------------------------------------------------- */

/* The statistics of messages.md, on the traffic of
 * two_messages_into_one_buffer_never_interleave: packets_sent counts
 * requests (2), flits_sent words (6), messages SENDs (2);
 * packets_delivered tails (2), flits_delivered words (6), latency per
 * message (9 and 12); links_crossed flit moves (6 flits x 4 links);
 * max_buffer flits (3: #0.2 and #1.0 in u0 at 4, with #0.1 leaving);
 * packets_read the messages whose tail an IN read, one word a read. A
 * SEND of one word is OUT's packet but for `messages`. */
static void statistics_count_messages_and_flits(void)
{
    NetConfig cfg = config(2, 1, true, 4, 8, 1, SWITCHING_WORMHOLE);
    Reference *r = reference_new(&cfg);
    send(r, 0, 0, 2, 0, 3, route_to(2, 0, 2, 0), 1);
    send(r, 1, 1, 2, 0, 3, route_to(2, 0, 2, 0), 1);
    run_steps(r, 1, 13);
    const NetStats *st = &r->stats;
    CHECK_EQ(st->sent, 2);
    CHECK_EQ(st->messages, 2);
    CHECK_EQ(st->flits_sent, 6);
    CHECK_EQ(st->delivered, 2);
    CHECK_EQ(st->flits_delivered, 6);
    CHECK_EQ(st->latency_sum, 21);
    CHECK_EQ(st->latency_hist[9], 1);
    CHECK_EQ(st->latency_hist[12], 1);
    CHECK_EQ(st->links_crossed, 24);
    CHECK_EQ(st->max_buffer, 3);
    read_word(r, 2, 0, 0, 0, 3);
    read_word(r, 2, 0, 0, 1, 3);
    CHECK_EQ(st->read, 0);
    read_word(r, 2, 0, 0, 2, 3);
    CHECK_EQ(st->read, 1);
    /* Reading a flit out of order is a difference, named #id.i. */
    NetPacket wrong = { .id = 1, .flit = 1, .length = 3 };
    char err[200];
    CHECK_EQ(reference_read(r, 2, 0, &wrong, err, sizeof err), -1);
    CHECK_STR(err, "an IN of p2 read #1.1 from port 0, where the reference stage has #1.0");
    reference_free(r);

    /* SEND of one word against OUT. */
    for (uint32_t L = 0; L <= 1; L++) {
        cfg = config(3, 2, false, 2, 1, 1, SWITCHING_STORE_FORWARD);
        r = reference_new(&cfg);
        send(r, 0, 3, 4, 0, L, route_to(4, 1, 3, 2), 1);
        run_steps(r, 1, 12);
        CHECK_EQ(r->stats.messages, L);
        CHECK_EQ(r->stats.sent, 1);
        CHECK_EQ(r->stats.flits_sent, 1);
        CHECK_EQ(r->stats.delivered, 1);
        CHECK_EQ(r->stats.latency_max, 11);
        CHECK_EQ(r->stats.links_crossed, 6);
        read_word(r, 4, 0, 0, 0, 1);
        CHECK_EQ(r->stats.read, 1);
        reference_free(r);
    }
}

/* ---- random traffic ------------------------------------------------------------- */

/* Random messages (1 to 8 words, no more than B under cut-through and
 * store-and-forward) and some multicasts, on random routes of any count,
 * both duplex modes, one or two planes, V = 1 to 3, the three switchings
 * and adaptive routing, buffers of 1 to 8, ports of 1 to 4 words read
 * now and then, then drained by reading every port. After every
 * timestep every buffer and port keeps its messages whole and agrees
 * with its owner, and every flit is counted; at the end every flit sent
 * was delivered (copies included) and read. Full duplex never deadlocks;
 * half duplex may (a message through a link twice), and then stops. */
static void random_traffic_keeps_messages_whole_and_conserves_flits(void)
{
    unsigned deadlocks = 0, runs = 0, turn = 0;
    for (unsigned k = 1; k <= 5; k++)
        for (unsigned sw = 0; sw < SWITCHING_COUNT; sw++)
            for (int full = 0; full <= 1; full++)
                for (unsigned rep = 0; rep < 2; rep++, turn++) {
                    uint32_t n = 1u << k;
                    NetConfig cfg = config(k, 1 + turn % 2, full, 1 + rnd(8), 1 + rnd(4),
                                           1 + rnd(3), (NetSwitching)sw);
                    cfg.adaptive = turn % 3 == 0;
                    Reference *r = reference_new(&cfg);
                    uint64_t id = 0, t, quiet = 0;
                    bool ok = true;
                    uint32_t members[8];
                    DestSet set;
                    for (t = 1; t < 3000 && ok; t++) {
                        bool sending = t <= 150;
                        for (uint32_t p = 0; p < n; p++)
                            for (uint32_t port = 0; port < cfg.ports; port++) {
                                const Queue *q = &r->port[port_of(r, p, port)];
                                if (q->count && (!sending || rnd(3) == 0)) {
                                    uint32_t x = queue_at(q, 0, cfg.port_depth);
                                    const RefMessage *m = &r->message[r->flit[x].msg];
                                    read_word(r, p, port, m->id, r->flit[x].flit, m->length);
                                }
                            }
                        for (uint32_t p = 0; p < n && sending; p++) {
                            if (r->slot[p] != REF_NONE || rnd(full ? 4 : 24) != 0)
                                continue;
                            uint32_t dst = rnd(n), cmin = topo_cmin(p, dst);
                            uint32_t most = sw == SWITCHING_WORMHOLE ? 8 : cfg.buffer;
                            uint32_t L = rnd(most + 1);      /* (0: OUT's one word) */
                            RouteRequest req = { p, dst, rnd(cfg.ports), 0, NULL, L };
                            if (rnd(8) == 0 && n > 2) {      /* a multicast of up to 8 */
                                uint32_t m = 0;
                                for (uint32_t d = 0; d < n && m < 8; d++)
                                    if (rnd(2) == 0 || d == dst)
                                        members[m++] = d;
                                set = (DestSet){ members, m, 0, 0, DEST_NONE, false };
                                req.set = &set;
                                req.dst = members[0];
                                req.length = 0;
                                cmin = dest_set_count(&set, p);
                            }
                            unsigned c = cmin + rnd(k - cmin + 1);
                            Route route = route_to(req.dst, rnd(cfg.planes), c, rnd(1u << k));
                            if (cfg.adaptive)
                                route.routing = 0;
                            reference_inject(r, id++, &req, &route, t);
                        }
                        reference_step(r, t);
                        ok = invariants_hold(r);
                        CHECK(ok);
                        quiet = r->moved ? 0 : quiet + 1;
                        bool ports_empty = true;
                        for (uint32_t pn = 0; pn < n * cfg.ports; pn++)
                            ports_empty &= r->port[pn].count == 0;
                        if (!sending && r->in_flight == 0 && ports_empty)
                            break;
                        if (!sending && quiet > 2 && ports_empty) {
                            deadlocks++;
                            CHECK(!full);
                            break;
                        }
                    }
                    runs++;
                    const NetStats *st = &r->stats;
                    CHECK(st->messages > 0);            /* there were messages */
                    if (r->in_flight == 0) {
                        CHECK_EQ(st->flits_delivered, st->flits_sent + st->copies);
                        CHECK_EQ(st->delivered, st->sent + st->copies);
                        CHECK_EQ(st->read, st->delivered);
                        CHECK(st->max_buffer <= cfg.buffer);
                    }
                    reference_free(r);
                }
    printf("  %u runs, %u ended in a deadlock\n", runs, deadlocks);
    CHECK(deadlocks > 0);
    CHECK(deadlocks < runs / 2);
}

/* ---- the fast stage beside -------------------------------------------------------- */

static uint64_t events;

static void count_event(void *ctx, const NetEvent *ev)
{
    (void)ctx, (void)ev;
    events++;
}

/* One run of random traffic with messages through the network (net.h),
 * the reference stage beside it: after every timestep both stages must
 * hold every flit in the same place and order, with the same route, and
 * the same statistics (net_compare_with_reference), and the network's
 * invariants hold. Sends are SENDs of 1 to `longest` words (at most B
 * under cut-through and store-and-forward), OUTs and, with `mcast`,
 * multicasts, for `steps` timesteps; routes come from the router, or are
 * random of any count (alg = ROUTING_COUNT); ports are read now and then,
 * and all of them once the sends stop. Returns whether the run ended in a
 * deadlock. */
static bool fast_and_reference_agree(unsigned k, unsigned planes, bool full, unsigned buffer,
                                     unsigned depth, unsigned vcs, NetSwitching sw,
                                     unsigned alg, unsigned longest, bool mcast, bool observe,
                                     uint64_t steps)
{
    uint32_t n = 1u << k, words[64] = { 0 };
    NetConfig cfg = { k, planes, full, buffer, 4, depth, alg == ROUTING_ADAPTIVE, vcs, sw };
    Net *net = net_new(&cfg);
    Router *router = router_new(alg == ROUTING_COUNT ? ROUTING_BENES : (RoutingAlgorithm)alg, k,
                                planes, 1 + rnd(1000));
    if (!net || !router || net_compare_with_reference(net) != 0) {
        CHECK(!"a network with the reference stage beside it");
        net_free(net);
        router_free(router);
        return false;
    }
    if (observe)
        net_observe(net, count_event, NULL);
    RouteRequest *reqs = malloc(n * sizeof *reqs);
    Route *routes = malloc(n * sizeof *routes);
    DestSet *sets = malloc(n * sizeof *sets);
    uint32_t *lists = malloc(8 * n * sizeof *lists);
    bool stuck = false, differ = false;
    char err[256];
    for (uint64_t t = 1; t < 5000; t++) {
        bool sending = t <= steps;
        net_begin_timestep(net, t);
        size_t batch = 0;
        for (uint32_t p = 0; p < n; p++) {
            uint32_t w;
            for (uint32_t port = 0; port < cfg.ports; port++)
                if (!sending || rnd(3) == 0)
                    net_in_take(net, p, port, &w);
            if (!sending || !net_out_free(net, p) || rnd(full ? 3 : 12) != 0)
                continue;
            net_reserve_out(net, p);
            uint32_t most = sw == SWITCHING_WORMHOLE ? longest
                            : longest < buffer ? longest : buffer;
            RouteRequest *req = &reqs[batch];
            *req = (RouteRequest){ p, rnd(n), rnd(cfg.ports), net_count_request(net, p), NULL,
                                   rnd(most + 1) };
            if (mcast && rnd(6) == 0) {
                uint32_t m = 0, *list = lists + 8 * batch;
                for (uint32_t d = 0; d < n && m < 8; d++)
                    if (rnd(3) == 0 || d == req->dst)
                        list[m++] = d;
                sets[batch] = (DestSet){ list, m, 0, 0, DEST_NONE, false };
                req->set = &sets[batch];
                req->dst = list[0];
                req->length = 0;
            }
            batch++;
        }
        router_route(router, reqs, batch, routes);
        for (size_t i = 0; i < batch; i++) {
            if (alg == ROUTING_COUNT) {
                unsigned cmin = reqs[i].set ? dest_set_count(reqs[i].set, reqs[i].src)
                                            : topo_cmin(reqs[i].src, reqs[i].dst);
                routes[i] = route_to(reqs[i].dst, rnd(planes), cmin + rnd(k - cmin + 1),
                                     rnd(1u << k));
            }
            net_inject(net, &reqs[i], &routes[i], words, t);
        }
        net_step(net, t);
        const char *differs = net_reference_error(net);
        if (differs || net_check(net, err, sizeof err) != 0) {
            if (reported++ < 5)
                printf("  N=%u planes=%u %s B=%u D=%u V=%u %s %s%s: t=%llu: %s\n", n, planes,
                       full ? "full" : "half", buffer, depth, vcs, switching[sw],
                       alg == ROUTING_COUNT ? "explicit" : routing_name((RoutingAlgorithm)alg),
                       observe ? " observed" : "", (unsigned long long)t,
                       differs ? differs : err);
            CHECK(!"the fast stage agrees with the reference stage");
            differ = true;
            break;
        }
        if (!sending && !net_busy(net) && net_unread(net) == 0)
            break;
        if (!sending && net_busy(net) && !net_moved(net)) {   /* (every port read: never) */
            stuck = true;
            CHECK(!full);               /* full duplex cannot deadlock by itself */
            break;
        }
    }
    const NetStats *st = net_stats(net);
    CHECK(st->messages > 0);            /* there were messages to compare */
    if (!stuck && !differ) {
        CHECK_EQ(st->flits_delivered, st->flits_sent + st->copies);
        CHECK_EQ(st->read, st->sent + st->copies);
    }
    free(reqs);
    free(routes);
    free(sets);
    free(lists);
    router_free(router);
    net_free(net);
    return stuck;
}

/* The fast stage against the reference under messages: every routing and
 * explicit routes, the three switchings, both duplex modes, one or two
 * planes, V = 1 to 3, buffers of 1 to 8 and ports of 1 to 4 words,
 * messages of up to 4 to 16 words, multicasts among them in turn, watched
 * by an observer in turn; N = 2 to 64, then N = 1,024. (make test: at N =
 * 64, a third of the time, each routing under one switching, the
 * switchings in turn; at N = 1,024 wormhole in full duplex and
 * cut-through in half, store-and-forward there taking half the time.) */
static void fast_stage_agrees_with_the_reference(void)
{
    unsigned runs = 0, deadlocks = 0, turn = 0;
    for (unsigned k = 1; k <= 6; k++)
        for (unsigned alg = 0; alg <= ROUTING_COUNT; alg++)
            for (unsigned sw = 0; sw < SWITCHING_COUNT; sw++, turn++) {
                bool full = turn % 2 == 0;
                if (!test_full() && k == 6 && sw != alg % SWITCHING_COUNT)
                    continue;
                deadlocks += fast_and_reference_agree(k, 1 + turn % 3 % 2, full, 1 + rnd(8),
                                                      1 + rnd(4), 1 + turn % 5 % 3,
                                                      (NetSwitching)sw, alg, 4 << rnd(3),
                                                      turn % 4 == 1, turn % 7 == 3, 200);
                runs++;
            }
    for (unsigned sw = 0; sw < SWITCHING_COUNT; sw++)
        for (int full = 0; full <= 1; full++) {
            if (!test_full() && (sw == SWITCHING_STORE_FORWARD || full == (int)(sw % 2)))
                continue;
            deadlocks += fast_and_reference_agree(10, 2, full, 4, 2, 1 + sw, (NetSwitching)sw,
                                                  full ? ROUTING_ADAPTIVE : ROUTING_BENES, 8,
                                                  sw == 1, false, 30);
            runs++;
        }
    printf("  %u runs, %u ended in a deadlock; %llu events observed\n", runs, deadlocks,
           (unsigned long long)events);
    CHECK(deadlocks > 0);
    CHECK(events > 0);
}

int main(void)
{
    RUN(lone_message_arrives_on_time);
    RUN(half_duplex_route_that_crosses_a_link_twice);
    RUN(wormhole_longer_than_buffer_to_itself_deadlocks);
    RUN(one_place_buffers_move_flits_every_other_timestep);
    RUN(two_messages_into_one_buffer_never_interleave);
    RUN(blocked_wormhole_holds_its_path_cut_through_gathers);
    RUN(a_message_owns_its_input_port);
    RUN(refused_flits_and_the_queueing_rule);
    RUN(own_message_hold_ups_are_not_collisions);
    RUN(store_forward_head_waits_for_its_tail_without_collision);
    RUN(adaptive_body_follows_its_head);
    RUN(multicast_waits_for_owned_buffers);
    RUN(statistics_count_messages_and_flits);
    RUN(random_traffic_keeps_messages_whole_and_conserves_flits);
    RUN(fast_stage_agrees_with_the_reference);
    return CHECK_EXIT();
}
