/* White-box tests of the network's representation (net/state.h, net/layout.h):
 * the one test program that looks inside a Net. The invariant check of the
 * debug build must catch a corrupted state and name the component; the
 * fast stage's shortcuts (hop words, sleeping packets, a lane per plane)
 * must change nothing. The network's behaviour is tested through net.h in
 * test_net.c, and against the spec's own stage in test_reference.c. */
#include <stdlib.h>

#include "net/net.h"
#include "net/layout.h"
#include "net/places.h"
#include "net/sleep.h"
#include "net/step.h"
#include "tests/check.h"
#include "tests/unit/net_send.h"

static Net *make(unsigned k, unsigned planes, bool full, unsigned buffer, unsigned depth)
{
    NetConfig cfg = { k, planes, full, buffer, 16, depth, false, 1, SWITCHING_WORMHOLE };
    return net_new(&cfg);
}

static void step(Net *net, uint64_t t)
{
    char err[256];
    net_step(net, t);
    if (net_check(net, err, sizeof err) != 0) {
        printf("  t=%llu: %s\n", (unsigned long long)t, err);
        CHECK(!"network invariants hold");
    }
}

/* The pool record of the packet with this id, or NULL. */
static const Packet *packet(Net *net, uint64_t id)
{
    net_settle(net);
    for (uint32_t x = 1; x < net->pool_cap; x++)
        if (net->lay.pool[x].place != PLACE_FREE && net->lay.pool[x].info.id == id)
            return &net->lay.pool[x];
    return NULL;
}

static uint64_t rng = 42;

static uint32_t rnd(uint32_t n)
{
    rng = rng * 6364136223846793005ull + 1442695040888963407ull;
    return (uint32_t)((rng >> 33) % n);
}

/* ---- the packed words of encode.h ------------------------------------------ */

/* Every word packs and unpacks to what went in, at its fields' limits. */
static void encodings_round_trip(void)
{
    for (unsigned k = 1; k <= 24; k += 23)
        for (unsigned plane = 0; plane < 2; plane++) {
            uint32_t p = (1u << k) - 1, w = proc_on_plane(k, p, plane);
            CHECK_EQ(pop_proc(k, w), p);
            CHECK_EQ(pop_plane(k, w), plane);
            CHECK_EQ(pop_proc(k, proc_on_plane(k, 0, plane)), 0);
        }
    uint32_t x = (1u << 28) - 1;
    for (unsigned port = 0; port < 4; port++)
        for (unsigned flit = FLIT_WORD; flit <= FLIT_TAIL; flit++) {
            CHECK_EQ(place_packet(place_word(x, flit, port)), x);
            CHECK_EQ(place_flit(place_word(x, flit, port)), flit);
            CHECK_EQ(place_port(place_word(x, flit, port)), port);
        }
    CHECK_EQ(route_word(0x5, 4, 0xb), (0x5u | 0x8u) | 0xbu << 16);   /* the 1 at bit 3 */
    CHECK_EQ(route_word_up(route_word(0x7fff, 16, 0xffff)), 0xffff);
    CHECK_EQ(route_word_down(route_word(0x7fff, 16, 0xffff)), 0xffff);
    uint32_t ahead = (1u << 22) - 4;
    for (unsigned class = 0; class <= ARRIVE_DELIVERY; class++) {
        uint32_t hop = hop_pack(ahead, class, LIST_LAYERS - 1);
        CHECK_EQ(hop_ahead(hop), ahead);
        CHECK_EQ(hop_class(hop), class);
        CHECK_EQ(hop_list(hop), class * LIST_LAYERS + LIST_LAYERS - 1);
        CHECK(hop_pack(0, class, 1) != 0);                  /* never 0: "not yet" */
    }
    CHECK(heading_is_proc(heading_proc(12)) && heading_value(heading_proc(12)) == 12);
    CHECK(!heading_is_proc(heading_port(4 * 9 + 3)) && heading_value(heading_port(39)) == 39);
    CHECK_EQ(target_word(77, 0, 0), 77);                /* (one channel: the target) */
    CHECK_EQ(target_of(target_word(77, 5, 3), 3), 77);
    CHECK_EQ(target_channel(target_word(77, 5, 3), 3), 5);
    CHECK(keeper_refused(77 | KEEPER_REFUSED) && !keeper_refused(77));
    CHECK_EQ(keeper_of(77 | KEEPER_REFUSED), 77);
    uint32_t ki = (1u << KEEPER_FLIT_SHIFT) - 1;
    for (unsigned flit = FLIT_WORD; flit <= FLIT_TAIL; flit++) {
        uint32_t w = keeper_word(ki, flit) | KEEPER_REFUSED;
        CHECK(keeper_refused(w) && keeper_of(w) == ki && keeper_flit(w) == flit);
        CHECK(!keeper_refused(keeper_word(ki, flit)));
    }
}

/* ---- where a hop goes ------------------------------------------------------------ */

/* hop_target, which stage e uses, is claim_heading's walk written out: for
 * every sender of small networks and many routes they must agree on where
 * the packet goes and the port it arrives on. */
static void hop_target_agrees_with_claim_heading(void)
{
    for (unsigned k = 1; k <= 5; k++)
        for (int full = 0; full < 2; full++) {
            NetConfig cfg = { k, 2, full, 5, 1, 1, false, 1, SWITCHING_WORMHOLE };
            Net *net = net_new(&cfg);
            uint64_t id = send(net, 0, 0, 0, 0, 1, 0, 1);   /* a packet whose route we vary */
            uint32_t pool_x = NET_NIL;
            for (uint32_t y = 1; y < net->pool_cap; y++)
                if (net->lay.pool[y].place != PLACE_FREE && net->lay.pool[y].info.id == id)
                    pool_x = y;
            size_t senders = net->lay.nbuffers + 2 * (size_t)net->lay.nprocs;
            for (uint32_t h = 0; h < senders; h++) {
                if (h < net->lay.nbuffers && (h & 3) >= 2 && sw_layer(&net->lay, h >> 2) == k)
                    continue;                    /* the top layer has no up links */
                unsigned layer, dir;
                uint32_t heading = claim_heading(&net->lay, h, &layer, &dir);
                for (uint32_t r = 0; r < 64; r++) {
                    unsigned count = 1 + r % k;
                    net->lay.pool[pool_x].count = (uint8_t)count;
                    net->lay.pool[pool_x].routing = (r * 2654435761u) & ((1u << (count - 1)) - 1);
                    net->lay.pool[pool_x].addressing = (r * 40503u) & ((1u << count) - 1);
                    net->lay.routes[pool_x] = packet_route_word(&net->lay, &net->lay.pool[pool_x]);
                    uint32_t up, down, want;
                    unsigned class, want_class;
                    packet_route(&net->lay, pool_x, &up, &down);
                    if (heading_is_proc(heading)) {
                        want = heading_value(heading);
                        want_class = ARRIVE_DELIVERY;
                    } else {
                        uint32_t port = heading_value(heading);   /* 4S + arrival port */
                        want_class = port & 3;
                        want = (port & ~3u) +
                               route_out(up, down, dir == DIR_UP ? layer : layer - 1,
                                         want_class < 2);
                    }
                    uint32_t got = hop_target(&net->lay, h, pool_x, &class);
                    if (got != want || class != want_class) {
                        printf("  k=%u %s sender %u route %u: 0x%x class %u, want 0x%x class %u\n",
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
    OnLink *listed = &net->share[0].on_links[0][1].items[0];
    net->lay.routes[listed->packet] ^= 1;   /* it travels with another route */
    CHECK_EQ(net_check(net, err, sizeof err), -1);
    CHECK_STR(err, "net: packet #0 is listed with a route that is not its own");
    net->lay.routes[listed->packet] ^= 1;
    listed->keeper ^= KEEPER_REFUSED;   /* it claims to have been refused */
    CHECK_EQ(net_check(net, err, sizeof err), -1);
    CHECK_STR(err, "net: packet #0 was refused, but its slot does not hold it");
    listed->keeper ^= KEEPER_REFUSED;
    step(net, 2);                       /* a is in buffer p0.l1.s0.u0 */
    CHECK_EQ(net_check(net, err, sizeof err), 0);
    uint32_t b0 = packet(net, a)->at;
    Sender *buf = &net->lay.senders[b0];
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
    Sender *slot = &net->lay.senders[0];    /* link p0.cpu0's slot (--duplex half) */
    slot->slot_packet = place_packet(buf->place[0]);
    slot->slot = SLOT_BLOCKED | SLOT_ASLEEP;   /* and now also on a link: duplicated */
    CHECK_EQ(net_check(net, err, sizeof err), -1);
    CHECK_STR(err, "net/p0.l1.s0.d0: its slot holds a sleeping packet that is not there");
    slot->slot = CLAIM_ASLEEP;         /* a claim sleeps on a slot that holds nothing */
    CHECK_EQ(net_check(net, err, sizeof err), -1);
    CHECK_STR(err, "net/p0.l1.s0.d0: slot flags 0x8 without a refused packet");
    slot->slot = 0;
    CHECK_EQ(net_check(net, err, sizeof err), 0);
    CHECK(packet(net, send(net, 1, 3, 0, 0, 2, 0, 3)) != NULL);   /* in p1's output slot */
    net->lay.out_slot[0] = net->lay.out_slot[1];   /* and in p0's output slot too */
    CHECK_EQ(net_check(net, err, sizeof err), -1);
    CHECK_STR(err, "net/p0: output slot holds a packet that is not there");
    net->lay.out_slot[0] = NET_NIL;
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
    CHECK_EQ(net->share[0].on_links[0][1].n, 1);   /* arriving on port d0 of layer 1 */
    CHECK_EQ(net_check(net, err, sizeof err), 0);
    net->share[0].on_links[0][1].items[0].target ^= 1;    /* the switch's other buffer */
    CHECK_EQ(net_check(net, err, sizeof err), -1);
    CHECK_STR(err, "net: packet #0 is listed going to 0x3, not 0x2");
    net->share[0].on_links[0][1].items[0].target ^= 1;
    OnLinkList (*lists)[LIST_LAYERS] = net->share[0].on_links;
    swap_lists(&lists[0][1], &lists[1][1]);             /* moved to the d1 list */
    CHECK_EQ(net_check(net, err, sizeof err), -1);
    CHECK_STR(err, "net: packet #0 is listed going to 0x2 from sender 0");
    swap_lists(&lists[0][1], &lists[1][1]);
    CHECK_EQ(net_check(net, err, sizeof err), 0);
    swap_lists(&lists[0][1], &lists[0][2]);             /* ...to layer 2's */
    CHECK_EQ(net_check(net, err, sizeof err), -1);
    CHECK_STR(err, "net: packet #0 is listed in layer 2, not the one it arrives at");
    swap_lists(&lists[0][1], &lists[0][2]);
    CHECK_EQ(net_check(net, err, sizeof err), 0);
    net_free(net);

    /* ...and the list of claimants, the layer of each (adapters: 0). */
    net = make(2, 1, false, 2, 1);
    send(net, 0, 2, 0, 0, 2, 0, 1);     /* in p0's output slot: claims */
    CHECK_EQ(net->share[0].claimants[0].n, 1);
    CHECK_EQ(net_check(net, err, sizeof err), 0);
    IndexList one = net->share[0].claimants[0];
    net->share[0].claimants[0] = net->share[0].claimants[1];
    net->share[0].claimants[1] = one;
    CHECK_EQ(net_check(net, err, sizeof err), -1);
    CHECK_STR(err, "net: a claimant is listed in layer 1, not its own");
    net->share[0].claimants[1] = net->share[0].claimants[0];
    net->share[0].claimants[0] = one;
    CHECK_EQ(net_check(net, err, sizeof err), 0);
    net_free(net);
}

/* The flit of message `id` with index i, or NET_NIL. */
static uint32_t flit_of(Net *net, uint64_t id, uint32_t i)
{
    net_settle(net);
    for (uint32_t x = 1; x < net->pool_cap; x++)
        if (net->lay.pool[x].place != PLACE_FREE && net->lay.pool[x].info.id == id &&
            net->lay.flits[x].index == i)
            return x;
    return NET_NIL;
}

/* ...and the invariants of messages (messages.md): a message's flits in
 * order in every buffer, each buffer owned as its flits say, and the
 * flits in path order along the network. */
static void message_invariants_name_the_flit(void)
{
    char err[256];
    Net *net = make(3, 1, true, 1, 1);  /* buffers of one place: a flit each */
    uint32_t words[2] = { 7, 8 };
    RouteRequest req = { 0, 7, 0, 0, NULL, 2 };
    Route r = { 0, 3, 0, 7 };
    net_reserve_out(net, 0);
    uint64_t id = net_inject(net, &req, &r, words, 1);
    uint32_t head = NET_NIL, tail = NET_NIL;
    for (uint64_t t = 1; t <= 6; t++) {     /* until both are in buffers, one each */
        step(net, t);
        head = flit_of(net, id, 0);
        tail = flit_of(net, id, 1);
        if (tail != NET_NIL && net->lay.pool[head].place == PLACE_BUFFER &&
            net->lay.pool[tail].place == PLACE_BUFFER)
            break;
    }
    CHECK(tail != NET_NIL && net->lay.pool[tail].place == PLACE_BUFFER);
    uint32_t ahead = net->lay.pool[head].at, behind = net->lay.pool[tail].at;
    CHECK_EQ(net->lay.owner[ahead], net->lay.flits[head].message);
    CHECK_EQ(net->lay.owner[behind], 0);
    net->lay.owner[ahead] = 0;          /* the head's buffer is not owned */
    CHECK_EQ(net_check(net, err, sizeof err), -1);
    CHECK_STR(err, "net/p0.l2.s0.u0: owned by message 0, which its flits do not say");
    /* The tail's record says head, and the head's tail, with owners and
     * the kinds in their place words to match: each buffer agrees, but the
     * tail is ahead of its head. */
    uint32_t *place_ahead = &net->lay.senders[ahead].place[0];
    uint32_t *place_behind = &net->lay.senders[behind].place[0];
    uint32_t word_ahead = *place_ahead, word_behind = *place_behind;
    FlitOf swapped = net->lay.flits[head];
    net->lay.flits[head] = net->lay.flits[tail];
    net->lay.flits[tail] = swapped;
    net->lay.owner[behind] = swapped.message;
    *place_ahead = place_word(head, FLIT_TAIL, place_port(word_ahead));
    *place_behind = place_word(tail, FLIT_HEAD, place_port(word_behind));
    CHECK_EQ(net_check(net, err, sizeof err), -1);
    CHECK_STR(err, "net: flit 1 of message #0 has crossed 2 links, ahead of flit 0, which has crossed 1");
    *place_ahead = word_ahead;          /* ...and the kinds alone say otherwise */
    *place_behind = word_behind;
    CHECK_EQ(net_check(net, err, sizeof err), -1);
    CHECK_STR(err, "net/p0.l1.s0.u0: place 1 says its packet is a flit of kind 3, but it is of "
              "kind 1");
    net->lay.flits[tail] = net->lay.flits[head];
    net->lay.flits[head] = swapped;
    net->lay.owner[behind] = 0;
    net->lay.owner[ahead] = swapped.message;
    CHECK_EQ(net_check(net, err, sizeof err), 0);
    net_free(net);
}

/* ---- sleeping packets change nothing ---------------------------------------- */

static void count_events(void *ctx, const NetEvent *ev)
{
    (void)ev;
    (*(uint64_t *)ctx)++;
}

/* A fingerprint of where every packet is and of every statistic, through
 * the network's interface. */
typedef struct Hash { uint64_t h; } Hash;

#define MIX(hash, v) ((hash)->h = ((hash)->h ^ (uint64_t)(v)) * 1099511628211ull)

static void mix_packet(void *ctx, const NetPacket *pk)
{
    Hash *hash = ctx;
    MIX(hash, pk->id); MIX(hash, pk->place); MIX(hash, pk->at); MIX(hash, pk->dir);
    MIX(hash, pk->route.routing); MIX(hash, pk->position);
}

static uint64_t fingerprint(Net *net)
{
    Hash hash = { 1469598103934665603ull };
    net_for_each_in_flight(net, mix_packet, &hash);
    net_for_each_unread(net, mix_packet, &hash);
    const NetStats *st = net_stats(net);
    for (int d = 0; d < 2; d++)
        for (unsigned l = 1; l <= net->lay.cfg.k; l++) {
            MIX(&hash, st->link_collisions[d][l]);
            MIX(&hash, st->buffer_collisions[d][l]);
        }
    MIX(&hash, st->link_total); MIX(&hash, st->buffer_total);
    MIX(&hash, st->sent); MIX(&hash, st->delivered); MIX(&hash, st->read);
    MIX(&hash, st->links_crossed); MIX(&hash, st->port_waits); MIX(&hash, st->latency_sum);
    MIX(&hash, st->max_buffer); MIX(&hash, net_moved(net));
    return hash.h;
}

/* Runs a network's shares one after the other, the second plane's first:
 * shares must not depend on each other's order. */
static void shares_backwards(void *ctx, ParallelFn *fn, void *arg)
{
    (void)ctx;
    fn(arg, 1);
    fn(arg, 0);
}

/* Two networks get the same random traffic, one watched by an observer (so
 * that no packet sleeps) and one not: after every timestep every packet
 * must be in the same place and every statistic equal. Reads are sparse and
 * loads heavy, so that many packets sleep for a long time. With two planes
 * a third network gets it too, with a share per plane (run backwards): the
 * order of the shares must not matter either. */
static void sleeping_is_exact_under(unsigned k, unsigned planes, bool full, bool adaptive,
                                    unsigned buffer, unsigned depth, unsigned steps)
{
    NetConfig cfg = { k, planes, full, buffer, 2, depth, adaptive, 1, SWITCHING_WORMHOLE };
    Net *a = net_new(&cfg), *b = net_new(&cfg), *c = planes == 2 ? net_new(&cfg) : NULL;
    uint64_t events = 0;
    net_observe(b, count_events, &events);
    if (c)
        CHECK_EQ(net_use_shares(c, shares_backwards, NULL, 0), 0);
    CHECK_EQ(net_use_shares(b, shares_backwards, NULL, 0), -1);   /* an observer */
    if (!c)
        CHECK_EQ(net_use_shares(a, shares_backwards, NULL, 0), -1);   /* one plane */
    uint32_t n = 1u << k;
    uint64_t asleep_max = 0;
    for (uint64_t t = 1; t <= steps; t++) {
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
            if (t <= steps - 200 && net_out_free(a, p) && rnd(2) == 0) {
                CHECK(net_out_free(b, p));
                uint32_t q = rnd(n), port = rnd(cfg.ports);
                unsigned plane = planes == 2 ? rnd(2) : 0;
                unsigned cmin = topo_cmin(p, q);
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
            if (fingerprint(c) != fingerprint(a) || c->counts.asleep != a->counts.asleep) {
                printf("  k=%u %s%s B=%u D=%u: shares differ at t=%llu\n", k,
                       full ? "full" : "half", adaptive ? " adaptive" : "", buffer, depth,
                       (unsigned long long)t);
                CHECK(!"a network with a lane per plane agrees");
                break;
            }
        }
        if (a->counts.asleep > asleep_max)
            asleep_max = a->counts.asleep;
        if (fingerprint(a) != fingerprint(b)) {
            printf("  k=%u planes=%u %s%s B=%u D=%u: differ at t=%llu\n", k, planes,
                   full ? "full" : "half", adaptive ? " adaptive" : "", buffer, depth,
                   (unsigned long long)t);
            CHECK(!"sleeping and awake networks agree");
            break;
        }
    }
    CHECK_EQ(b->counts.asleep, 0);         /* with an observer nothing sleeps */
    CHECK(asleep_max > 0);                /* the test did make packets sleep */
    CHECK(events > 0);
    net_free(a);
    net_free(b);
    net_free(c);
}

static void sleeping_is_exact(void)
{
    sleeping_is_exact_under(3, 2, false, false, 1, 1, 1000);
    sleeping_is_exact_under(3, 1, true, false, 2, 1, 1000);
    sleeping_is_exact_under(5, 2, false, false, 3, 1, 800);
    sleeping_is_exact_under(6, 2, true, true, 2, 1, 600);
    sleeping_is_exact_under(6, 1, false, true, 1, 1, 600);
    /* Buffers deeper than a Sender's own places, in rings that grow. */
    sleeping_is_exact_under(4, 2, true, false, 12, 1, 1000);
    sleeping_is_exact_under(4, 2, false, false, 9, 1, 1000);
}

/* ---- virtual channels ------------------------------------------------------------- */

/* A timestep of random traffic on a network of 16 processors (k = 4, two
 * planes): every processor reads each port with probability 1/3 and, if
 * `sending` and its output slot is free, sends to a random destination on
 * a random plane and minimal-or-longer route. */
static void random_traffic(Net *net, const NetConfig *cfg, uint64_t t, bool sending)
{
    for (uint32_t p = 0; p < 16; p++) {
        uint32_t w;
        for (unsigned port = 0; port < cfg->ports; port++)
            if (rnd(3) == 0)
                net_in_take(net, p, port, &w);
        if (sending && net_out_free(net, p)) {
            uint32_t q = rnd(16);
            unsigned count = topo_cmin(p, q) + rnd(4 - topo_cmin(p, q) + 1);
            send(net, p, q, rnd(cfg->ports), rnd(2), count, rnd(1u << (count - 1)), t);
        }
    }
}

/* Whether the network still agrees with the reference stage after
 * timestep t; if not, says where it first differed. */
static bool agrees_with_reference(Net *net, const NetConfig *cfg, uint64_t t)
{
    if (!net_reference_error(net))
        return true;
    printf("  %s V=%u t=%llu: %s\n", cfg->full_duplex ? "full" : "half", cfg->vcs,
           (unsigned long long)t, net_reference_error(net));
    return false;
}

/* The network stage marks what a timestep did to a port or a temp slot
 * with the stage's number, and when the numbers wrap it must make every
 * mark old: heavy traffic across the wrap, with one channel and two, in
 * both duplex modes, agrees with the reference stage and keeps the
 * invariants (which refuse a mark newer than the stage). */
static void stage_numbers_wrap(void)
{
    for (unsigned mode = 0; mode < 4; mode++) {
        unsigned full = mode & 1, vcs = 1 + (mode >> 1);
        NetConfig cfg = { 4, 2, full, 2, 4, 1, false, vcs, SWITCHING_WORMHOLE };
        Net *net = net_new(&cfg);
        CHECK(net != NULL);
        CHECK_EQ(net_compare_with_reference(net), 0);
        net_set_stage(net, UINT32_MAX - 20);
        uint64_t before = 0;
        for (uint64_t t = 1; t <= 60; t++) {
            random_traffic(net, &cfg, t, t <= 40);
            step(net, t);
            if (!agrees_with_reference(net, &cfg, t)) {
                CHECK(!"the network stage agrees with the reference across the wrap");
                break;
            }
            if (t == 20)
                before = net_stats(net)->links_crossed;
        }
        CHECK(net_stats(net)->links_crossed > before);      /* traffic crossed the wrap */
        net_free(net);
    }
}

/* With several channels too, each plane is a share of its own: run in
 * either order, the shares agree with the reference stage after every
 * timestep and keep the invariants, in both duplex modes. */
static void channels_in_shares_agree(void)
{
    for (unsigned mode = 0; mode < 4; mode++) {
        unsigned full = mode & 1, vcs = 2 + (mode >> 1);
        NetConfig cfg = { 4, 2, full, 2, 4, 1, false, vcs, SWITCHING_WORMHOLE };
        Net *net = net_new(&cfg);
        CHECK(net != NULL);
        CHECK_EQ(net_compare_with_reference(net), 0);
        CHECK_EQ(net_use_shares(net, shares_backwards, NULL, 0), 0);
        for (uint64_t t = 1; t <= 80; t++) {
            random_traffic(net, &cfg, t, t <= 60);
            step(net, t);
            if (!agrees_with_reference(net, &cfg, t)) {
                CHECK(!"a network of channels in shares agrees with the reference");
                break;
            }
        }
        CHECK(net_stats(net)->links_crossed > 0);
        net_free(net);
    }
}

int main(void)
{
    RUN(encodings_round_trip);
    RUN(hop_target_agrees_with_claim_heading);
    RUN(invariants_name_the_component);
    RUN(message_invariants_name_the_flit);
    RUN(sleeping_is_exact);
    RUN(stage_numbers_wrap);
    RUN(channels_in_shares_agree);
    return CHECK_EXIT();
}
