/* Virtual channels (spec/channels.md, --vcs V with V > 1): every switch
 * output port has V buffers, one per channel, and every link V lanes, one
 * `main` slot per channel, with one `temp` slot that the lanes share (and,
 * with --duplex half, both directions). A packet travels on channel
 * `port mod V` for its whole path; a packet blocked on its channel no
 * longer holds up the packets of the others.
 *
 * This is the network stage for V > 1; step.c is the one for V = 1, which
 * keeps its tuned representation, and reference.c does both as the spec
 * writes them (--check compares). Here nothing sleeps: the stage visits
 * what is busy, found by bitmaps whose set bits, walked upwards, come in
 * the spec's loop order: the busy output ports, the processors with a
 * full output slot or a packet coming down to them, and the busy lanes.
 *
 * A lane is kept at the end it leads to. Every switch has four inlets,
 * one for each of its ports (d0, d1, u0, u1): the lanes of the link
 * channel that arrives on that port, V words side by side (a cache line
 * for a switch, for V up to 4), each a packet (a pool index) or 0; and
 * every processor one inlet for each plane, the lanes coming down to it.
 * A bitmap by lane says which hold a packet, and a bitmap by word of that
 * one which words have a bit set. So stage d, which moves the packets in
 * lanes into the buffers of the switch they come to, finds them by
 * walking bits, in the order of the lanes: by switch, and inside a
 * switch d0 to u1 and lane 0 up, the spec's order there; it clears
 * their bits as it gathers them, a word at a time, and sets them again
 * for a packet that cannot enter and stays where it is.
 * Routes are read from the route words (layout.h), so that a packet
 * that moves between lanes and buffers has its record in the pool written
 * only when somebody asks where it is (vc_settle), or at once when an
 * observer watches every event.
 *
 * What a claim reads of its sender is kept together, as step.c keeps a
 * port's buffer and slot in one Sender: an output port's V channel
 * buffers -- their counts, heads and tails, and what this timestep did to
 * them -- share one record, with the number of the inlet it sends into
 * (VcPort: 48 bytes for V = 4), so no claim walks the topology;
 * a buffer's packets are threaded through an array by pool index
 * (VcNet.next), since most buffers hold one packet or none, so memory
 * does not grow with --buffer. With --duplex
 * half the two directions of a link share its lanes: each direction has
 * its inlet, and a lane is free when it is free in both.
 *
 * Numbering (net.h): channel buffer `b * V + v` is channel v's buffer of
 * output port b; lane `c * V + v` is lane v of link channel c (a link, or
 * one direction of it). Those are the indices that a packet's place and
 * the public functions use when V > 1. Inside, inlet 4S + q is port q of
 * switch S, and inlet 4 * nswitches + (plane << k | p) processor p's on a
 * plane (the number of the processor's adapter as a sender, layout.h).
 *
 * The order of the sub-stages. Stages c and d depend only on the state at
 * the start of stage 4 (a claim frees no room before stage e), so they run
 * first; then every lane whose packet is still there is known not to be
 * free, and stages a and b make their claims on free lanes only. Without
 * an observer each claim is made final as it is made (claim() says why
 * that is the same); with one, stage e makes them final after all the
 * claims, so that events come in the spec's order (channels.md, "The
 * timestep"). And without an observer or multicasts, stages d and b go
 * through the network a layer at a time (run_layered says why the outcome
 * is the same), so that stage b finds what stage d wrote still in the
 * cache. */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "net/adapter.h"
#include "net/events.h"
#include "net/layout.h"
#include "net/multicast.h"
#include "net/pool.h"
#include "net/vchannels.h"

/* ---- bitmaps ------------------------------------------------------------------ */

static inline void bit_set(uint64_t *map, uint32_t i) { map[i >> 6] |= 1ull << (i & 63); }
static inline void bit_clear(uint64_t *map, uint32_t i) { map[i >> 6] &= ~(1ull << (i & 63)); }
static inline bool bit_is(const uint64_t *map, uint32_t i) { return map[i >> 6] >> (i & 63) & 1; }

/* The bits of word w of a bitmap that are in [lo, hi). */
static inline uint64_t bits_in(uint32_t w, uint32_t lo, uint32_t hi)
{
    uint64_t mask = ~0ull;
    if (w == lo >> 6)
        mask &= ~0ull << (lo & 63);
    if (w == (hi - 1) >> 6 && (hi & 63))
        mask &= ~(~0ull << (hi & 63));
    return mask;
}

/* The first set bit of map at or after *i and below hi: true with it in
 * *i, or false when there is none. Walk a map with
 * `for (uint32_t i = lo; next_bit(map, &i, hi); i++)`. */
static inline bool next_bit(const uint64_t *map, uint32_t *i, uint32_t hi)
{
    if (*i >= hi)
        return false;
    uint32_t w = *i >> 6;
    uint64_t m = map[w] & ~0ull << (*i & 63);
    while (m == 0) {
        if (++w > (hi - 1) >> 6)
            return false;
        m = map[w];
    }
    *i = w << 6 | (uint32_t)__builtin_ctzll(m);
    return *i < hi;
}

/* Writes the set bits of map in [lo, hi) to out, in ascending order, and
 * returns how many: so that a stage can ask for what it will visit ahead. */
static inline size_t set_bits(const uint64_t *map, uint32_t lo, uint32_t hi, uint32_t *out)
{
    size_t n = 0;
    for (uint32_t w = lo >> 6; w < (hi + 63) >> 6; w++)
        for (uint64_t m = map[w] & bits_in(w, lo, hi); m != 0; m &= m - 1)
            out[n++] = w << 6 | (uint32_t)__builtin_ctzll(m);
    return n;
}

/* ---- the state (vchannels.h) ----------------------------------------------------- */

static uint64_t *bitmap_new(size_t bits) { return calloc((bits + 63) / 64 + 1, sizeof(uint64_t)); }

/* A lane's packet has left it. */
static inline void empty_lane(VcNet *vc, uint32_t inlet, unsigned v)
{
    lanes_at(vc, inlet)[v] = 0;
    bit_clear(vc->lane_busy, lane_word(inlet, v, vc->lane_shift));
}

/* The packet of a lane gathered for stage d (gather), which cleared the
 * lane's bits, has stayed: its bits are set again. */
static inline void stayed(VcNet *vc, uint32_t lane)
{
    bit_set(vc->lane_busy, lane);
    bit_set(vc->lane_words, lane >> 6);
}

/* Room for n items of `size` bytes in items, of capacity *cap. */
static void *grow(void *items, size_t *cap, size_t n, size_t size)
{
    if (n <= *cap)
        return items;
    size_t c = *cap ? *cap : 256;
    while (c < n)
        c *= 2;
    void *p = realloc(items, c * size);
    if (!p)
        abort();            /* a few bytes per packet in flight: cannot fail in practice */
    *cap = c;
    return p;
}

/* The inlet that sender h sends into (claim_heading), and the link. */
static uint32_t sender_inlet(const Layout *lay, const VcNet *vc, uint32_t h, uint32_t *link)
{
    unsigned layer, dir;
    uint32_t heading = claim_heading(lay, h, &layer, &dir);
    *link = claim_link(lay, h, heading, dir);
    return heading_is_proc(heading) ? vc->nswitch_inlets + heading_value(heading)
                                    : heading_value(heading);
}

/* The spec's link loop (reference.c, for_each_link): processor links by
 * processor then plane, then the links above each switch in switch
 * order, u0 then u1; a link's up direction before its down direction. */
static void number_links(VcNet *vc, const Layout *lay)
{
    uint32_t at = 0;
    unsigned dirs = lay->cfg.full_duplex ? 2 : 1;
    for (uint32_t p = 0; p < lay->nprocs; p++)
        for (unsigned plane = 0; plane < lay->cfg.planes; plane++)
            for (unsigned d = 0; d < dirs; d++)
                vc->position[link_wire(lay, proc_link(lay, p, plane), d)] = at++;
    for (uint32_t s = 0; s < lay->nswitches; s++) {
        unsigned l = sw_layer(lay, s);
        for (unsigned b = 0; b < 2 && l < lay->cfg.k; b++)
            for (unsigned d = 0; d < dirs; d++)
                vc->position[link_wire(lay, up_link(lay, s, l, b), d)] = at++;
    }
}

/* The round-robin rule of stage b for a port of V channels whose pointer
 * is `from`, whose channels in mask `held` held a packet at the start of
 * stage d, and whose link's lanes in mask `busy` hold one: the channels
 * are taken rotated, so that bit i is channel from + i; the claimant is
 * the lowest bit whose lane is free, and every other one is held up.
 * Returns the held-up channels, rotated, in the low byte, and the
 * claimant's channel + 1 (0 for none) above it. */
static unsigned round_robin(unsigned V, unsigned from, unsigned held, unsigned busy)
{
    unsigned all_v = (1u << V) - 1;
    unsigned turn = (held >> from | held << (V - from)) & all_v;
    unsigned open = turn & ~(busy >> from | busy << (V - from));
    if (open == 0)
        return turn;
    unsigned i = (unsigned)__builtin_ctz(open), v = from + i;
    return robin_verdict(turn & ~(1u << i), (v >= V ? v - V : v) + 1);
}

/* The rule for every pointer and pair of masks, for V up to 4
 * (ROBIN_TABLE_V): V << 2V entries, by from << 2V | held << V | busy. */
enum { ROBIN_TABLE_V = 4 };

static uint16_t *robin_table(unsigned V)
{
    uint16_t *t = malloc(((size_t)V << 2 * V) * sizeof *t);
    for (unsigned i = 0; t && i < V << 2 * V; i++)
        t[i] = (uint16_t)round_robin(V, i >> 2 * V, i >> V & ((1u << V) - 1), i & ((1u << V) - 1));
    return t;
}

void vc_free(VcNet *vc)
{
    if (!vc)
        return;
    free(vc->ports);
    free(vc->lanes);
    free(vc->lane_busy);
    free(vc->lane_words);
    free(vc->temp);
    free(vc->next);
    free(vc->down_inlet);
    free(vc->channel_of);
    free(vc->position);
    free(vc->full_slots);
    free(vc->arrivals);
    free(vc->busy_ports);
    free(vc->held_ports);
    free(vc->claims);
    free(vc->entered);
    free(vc->arrived);
    free(vc->sorted);
    free(vc->order);
    free(vc->robin);
    free(vc);
}

/* The lanes of a network's inlets: V rounded up to a power of two each. */
static unsigned lane_shift_of(unsigned V)
{
    unsigned shift = 0;
    while ((1u << shift) < V)
        shift++;
    return shift;
}

static size_t inlets_of(const Layout *lay)
{
    return 4 * (size_t)lay->nswitches + ((size_t)lay->cfg.planes << lay->cfg.k);
}

/* What vc_new allocates, in bytes: the port records, the lanes and their
 * bitmaps, the tables by link and by inlet (the bitmaps by processor, and
 * what grows with the packets, aside). */
uint64_t vc_bytes(const Layout *lay)
{
    uint64_t ports = lay->nbuffers, inlets = inlets_of(lay), links = 2 * (uint64_t)lay->nswitches;
    uint64_t lanes = inlets << lane_shift_of(lay->cfg.vcs);
    return ports * (VC_PORT_SIZE(lay->cfg.vcs) + 2 / 8.0) +       /* records, two bitmaps */
           lanes * (sizeof(uint32_t) + 1 / 8.0) +                   /* lanes, lane_busy */
           links * 4 * sizeof(uint32_t) + inlets * sizeof(uint32_t);
}

VcNet *vc_new(const Layout *lay)
{
    VcNet *vc = calloc(1, sizeof *vc);
    if (!vc)
        return NULL;
    vc->V = lay->cfg.vcs;
    vc->B = lay->cfg.buffer;
    vc->has_temp = !lay->cfg.full_duplex;
    vc->nswitch_inlets = 4 * lay->nswitches;
    vc->ninlets = (uint32_t)inlets_of(lay);
    vc->nlinks = 2 * lay->nswitches;
    vc->lane_shift = lane_shift_of(vc->V);
    if (((uint64_t)vc->ninlets << vc->lane_shift) > UINT32_MAX) {
        free(vc);               /* (a lane's number is a word) */
        return NULL;
    }
    vc->port_size = (unsigned)VC_PORT_SIZE(vc->V);
    size_t bytes = (size_t)lay->nbuffers * vc->port_size;
    if (posix_memalign((void **)&vc->ports, 64, bytes) == 0)
        memset(vc->ports, 0, bytes);
    else
        vc->ports = NULL;
    bytes = (size_t)vc->ninlets << vc->lane_shift << 2;
    if (posix_memalign((void **)&vc->lanes, 64, bytes) == 0)
        memset(vc->lanes, 0, bytes);
    else
        vc->lanes = NULL;
    vc->nwords = (uint32_t)((((size_t)vc->ninlets << vc->lane_shift) + 63) / 64);
    vc->lane_busy = bitmap_new((size_t)vc->nwords * 64);
    vc->lane_words = bitmap_new(vc->nwords);
    if (vc->has_temp)
        vc->temp = calloc(vc->nlinks, sizeof *vc->temp);
    vc->down_inlet = calloc(vc->nlinks, sizeof *vc->down_inlet);
    vc->channel_of = calloc(vc->ninlets, sizeof *vc->channel_of);
    vc->position = calloc(2 * (size_t)vc->nlinks, sizeof *vc->position);
    vc->full_slots = bitmap_new(lay->nprocs);
    vc->arrivals = bitmap_new(lay->nprocs);
    vc->busy_ports = bitmap_new(lay->nbuffers);
    vc->held_ports = bitmap_new(lay->nbuffers);
    if (!vc->ports || !vc->lanes || !vc->lane_busy || !vc->lane_words ||
        (vc->has_temp && !vc->temp) ||
        !vc->down_inlet || !vc->channel_of || !vc->position || !vc->full_slots ||
        !vc->arrivals || !vc->busy_ports || !vc->held_ports) {
        vc_free(vc);
        return NULL;
    }
    if (vc->V <= ROBIN_TABLE_V && !(vc->robin = robin_table(vc->V))) {
        vc_free(vc);
        return NULL;
    }
    vc->now = 1;
    number_links(vc, lay);
    /* Link 2S + x has above it port x of switch S (port 4S + x), which
     * sends its down direction. */
    for (uint32_t link = 0; link < vc->nlinks; link++) {
        uint32_t ignored;
        vc->down_inlet[link] = sender_inlet(lay, vc, up_inlet(link), &ignored);
        vc->channel_of[up_inlet(link)] = link_wire(lay, link, DIR_UP);
        vc->channel_of[vc->down_inlet[link]] = link_wire(lay, link, DIR_DOWN);
    }
    for (uint32_t b = 0; b < lay->nbuffers; b++) {
        if ((b & 3) >= 2 && sw_layer(lay, b >> 2) == lay->cfg.k)
            continue;                           /* (the top layer has no up ports) */
        uint32_t ignored;
        port_at(vc, b)->inlet = sender_inlet(lay, vc, b, &ignored);
    }
    return vc;
}

/* ---- what others ask -------------------------------------------------------------- */

/* Tells the observer, if there is one (net_emit): the stage's common case
 * pays for a test, not a call, and in vc_step's copy for V = 4 not even
 * that (`eager`, set when an observer watches, is a constant there). */
HOT void tell(Net *net, const VcNet *vc, NetEventKind kind, uint32_t x, uint32_t place,
              PacketPlace place_kind, unsigned layer, unsigned value)
{
    if (vc->eager)
        net_emit(net, kind, x, place, place_kind, layer, value);
}

/* ---- packets' places ------------------------------------------------------------ */

/* A packet's record says where it is as the one-channel stage's does
 * (layout.h), but for the lane or channel buffer. */
static void place_on_lane(Net *net, uint32_t x, uint32_t inlet, unsigned v)
{
    const VcNet *vc = net->lay.vc;
    uint32_t c = vc->channel_of[inlet];
    settle_on_link(net, x, wire_link(&net->lay, c), inlet_dir(vc, inlet), AWAKE);
    net->lay.pool[x].at = c * vc->V + v;
}

static void place_in_buffer(Net *net, uint32_t x, uint32_t b, uint32_t cb)
{
    settle_in_buffer(net, x, b, NET_NIL, AWAKE);
    net->lay.pool[x].at = cb;
}

void vc_settle(Net *net)
{
    VcNet *vc = net->lay.vc;
    Layout *lay = &net->lay;
    for (uint32_t inlet = 0; inlet < vc->ninlets; inlet++)
        for (unsigned m = inlet_busy(vc, inlet); m != 0; m &= m - 1) {
            unsigned v = (unsigned)__builtin_ctz(m);
            place_on_lane(net, lanes_at(vc, inlet)[v], inlet, v);
        }
    for (uint32_t b = 0; next_bit(vc->busy_ports, &b, lay->nbuffers); b++)
        for (unsigned v = 0; v < vc->V; v++) {
            uint32_t cb = b * vc->V + v;
            for (uint32_t i = 0; i < vc_buffer_count(vc, cb); i++)
                place_in_buffer(net, vc_buffer_packet_at(vc, cb, i), b, cb);
        }
}

/* ---- injection ------------------------------------------------------------------- */

void vc_injected(Net *net, uint32_t p)
{
    bit_set(net->lay.vc->full_slots, p);
}

/* ---- counting ---------------------------------------------------------------------- */

static inline void count_link_collision(Net *net, unsigned dir, unsigned layer, unsigned v)
{
    NetStats *st = &net->counts.stats;
    st->link_collisions[dir][layer]++;
    st->link_total++;
    st->vc_link[v]++;
}

/* n buffer collisions at channel v's buffer of port b, of a switch of
 * layer l: n is 1, or -1 to take back one that did not happen (enter). */
static inline void count_buffer_collisions(Net *net, uint32_t b, unsigned l, unsigned v, int n)
{
    NetStats *st = &net->counts.stats;
    unsigned dir = (b & 3) >= 2 ? DIR_UP : DIR_DOWN;
    st->buffer_collisions[dir][l] += (uint64_t)n;
    st->buffer_total += (uint64_t)n;
    st->vc_buffer[v] += (uint64_t)n;
}

/* How far ahead the stages ask for the memory they will need: the lanes
 * of a word of lane_busy; the route word of a packet come to a switch,
 * then the buffer it will enter; a busy port's record; a processor's lanes
 * down, then their packets' records. (Stage b does not ask for the lanes
 * it claims: it writes them, and a write does not wait.) */
enum { AHEAD_LANES = 8, AHEAD_ROUTE = 32, AHEAD_BUFFER = 16, AHEAD_PORT = 16, AHEAD_LINK = 8 };
_Static_assert(AHEAD_ROUTE >= AHEAD_BUFFER, "forward_all asks for a route before its port");

/* ---- c. delivery ------------------------------------------------------------------- */

/* Stage c for processor p: the packets in the lanes of its inlets, oldest
 * first, enter their input ports if those have room. */
HOT void deliver_to(Net *net, const Layout *lay, VcNet *vc, uint32_t p)
{
    uint32_t lanes[2 * 8], n = 0, in[2];        /* (delivery lanes, encode.h) */
    for (unsigned plane = 0; plane < lay->cfg.planes; plane++) {
        in[plane] = proc_inlet(lay, vc, p, plane);
        const uint32_t *lane = lanes_at(vc, in[plane]);
        for (unsigned m = inlet_busy(vc, in[plane]); m != 0; m &= m - 1) {
            unsigned v = (unsigned)__builtin_ctz(m);
            uint32_t x = lane[v], i = n++;      /* insertion by id: oldest first */
            while (i > 0) {
                uint32_t before = lanes[i - 1];
                uint32_t y = lanes_at(vc, in[delivery_plane(before)])[delivery_channel(before)];
                if (lay->pool[y].info.id < lay->pool[x].info.id)
                    break;
                lanes[i] = before;
                i--;
            }
            lanes[i] = delivery_lane(plane, v);
        }
    }
    bool waiting = false;
    for (uint32_t i = 0; i < n; i++) {
        unsigned plane = delivery_plane(lanes[i]), v = delivery_channel(lanes[i]);
        uint32_t x = lanes_at(vc, in[plane])[v];
        Packet *pk = &lay->pool[x];
        InputPort *port = &lay->ports[p * lay->cfg.ports + pk->port];
        if (port->count >= lay->cfg.port_depth) {
            net->counts.stats.port_waits++;
            waiting = true;
            tell(net, vc, EV_PORT_WAIT, x, p, PLACE_PORT, 1, 0);
            continue;
        }
        empty_lane(vc, in[plane], v);
        net_deliver(net, x, p);
    }
    if (!waiting)
        bit_clear(vc->arrivals, p);
}

/* Stage c for every processor with a packet coming down to it, in
 * processor order, the lanes of each and then their packets' records
 * asked for ahead. */
HOT void deliveries(Net *net, const Layout *lay, VcNet *vc)
{
    size_t n = set_bits(vc->arrivals, 0, lay->nprocs, vc->order);
    unsigned planes = lay->cfg.planes;
    for (size_t i = 0; i < n; i++) {
        if (i + AHEAD_LINK < n)
            for (unsigned plane = 0; plane < planes; plane++)
                PREFETCH(lanes_at(vc, proc_inlet(lay, vc, vc->order[i + AHEAD_LINK], plane)));
        if (i + AHEAD_LINK / 2 < n)
            for (unsigned plane = 0; plane < planes; plane++) {
                uint32_t in = proc_inlet(lay, vc, vc->order[i + AHEAD_LINK / 2], plane);
                for (unsigned m = inlet_busy(vc, in); m != 0; m &= m - 1)
                    PREFETCH(&lay->pool[lanes_at(vc, in)[__builtin_ctz(m)]]);
            }
        deliver_to(net, lay, vc, vc->order[i]);
    }
}

/* ---- d. forwarding ------------------------------------------------------------------ */

/* Packet x enters channel v's buffer of port b, of a switch of layer l,
 * which has room. Stage b must not see it (it comes before stage d in the
 * spec): not the port, if the port held no packet, nor else the buffer, if
 * the buffer held none (`newly`). Behind another packet, it collides;
 * with an observer that is found after stage e, so that events come in
 * the spec's order (queued_collisions), and without one it is counted
 * now and taken back if stage b sends the packet ahead (`second`). */
HOT void enter(Net *net, VcNet *vc, uint32_t x, uint32_t b, unsigned v, unsigned l,
               bool report)
{
    VcPort *pt = port_at(vc, b);
    VcQueue *q = &pt->queue[v];
    uint32_t ahead = q->count;
    unsigned bit = 1u << v, held = -(unsigned)bit_is(vc->held_ports, b);
    /* Queueing is rarer than entering an empty buffer, and is kept
     * behind a branch (counting it without one, in three counters, costs
     * more). Whether the port was empty is a toss-up the host cannot
     * predict: what depends on it is done without a branch (a port's bit
     * in busy_ports is set even if it was). */
    if (ahead != 0) {
        if (ahead >= 2) {       /* (few buffers hold two) */
            if (ahead == 2)
                vc->next[q->head] = q->tail;
            vc->next[q->tail] = x;
        }
        if (ahead + 1 > net->counts.stats.max_buffer)   /* (and see entered_some) */
            net->counts.stats.max_buffer = ahead + 1;
        if (vc->eager)
            vc->entered[vc->nentered++] = (VcEntered){ b, v, x, ahead };
        else {
            count_buffer_collisions(net, b, l, v, 1);
            /* (A packet that entered the buffer earlier in this stage
             * d is not stage b's to send: `newly`.) */
            pt->second |= (uint8_t)(bit & -(unsigned)(ahead == 1) & ~pt->newly & held);
        }
    } else
        q->head = x;
    q->tail = x;
    q->count = (uint16_t)(ahead + 1);
    bit_set(vc->busy_ports, b);
    pt->newly |= (uint8_t)(bit & ~pt->nonempty & held);
    pt->nonempty |= (uint8_t)bit;
    if (vc->eager)
        place_in_buffer(net, x, b, b * vc->V + v);
    net->moved = true;
    if (report)
        tell(net, vc, EV_ENTERED, x, b * vc->V + v, PLACE_BUFFER, l, 0);
}

static inline bool full(const VcNet *vc, uint32_t b, unsigned v)
{
    return port_at(vc, b)->queue[v].count >= vc->B;
}

/* Stage d for a multicast x in lane v of an inlet of switch s (of layer
 * l) that goes down from there: into every down buffer of its channel
 * below which its set has members, all at once, or it stays whole (one
 * buffer collision, at the first full one; returns false). The copy takes
 * the next id: lanes are visited in the spec's loop order. */
HOT bool forward_set(Net *net, const Layout *lay, VcNet *vc, uint32_t x, uint32_t inlet,
                     unsigned v, unsigned l)
{
    uint32_t s = inlet >> 2;
    McPart part[2];
    mc_split(net, x, l, part);
    for (unsigned q = 0; q < 2; q++)
        if (part[q].n != 0 && full(vc, 4 * s + q, v)) {
            count_buffer_collisions(net, 4 * s + q, l, v, 1);
            tell(net, vc, EV_BUFFER_FULL, x, (4 * s + q) * vc->V + v, PLACE_BUFFER, l, 0);
            return false;
        }
    lanes_at(vc, inlet)[v] = 0;
    if (part[0].n != 0 && part[1].n != 0) {
        uint32_t y = mc_divide(net, x, part);
        lay->pool[y].info.id = net->next_id++;
        net->counts.stats.copies++;
        net->in_flight++;
        enter(net, vc, x, 4 * s, v, l, true);
        enter(net, vc, y, 4 * s + 1, v, l, false);
        if (net->event) {          /* (which reports the copy entering) */
            Split split = { 0, x, y, s, (4 * s + 1) * vc->V + v };
            net_emit_split(net, &split);
        }
        return true;
    }
    enter(net, vc, x, 4 * s + (part[0].n != 0 ? 0 : 1), v, l, true);
    return true;
}

/* The output port (0-3) that the route of the packet in arrival e, come
 * to a switch of layer l, names there: down if it came down (on a u port),
 * or if no up port is left above l (the route's up word has a 1 at bit
 * count - 1); for adaptive routing on the way up, stage d then chooses
 * between the two. */
HOT unsigned aim(const Layout *lay, const VcNet *vc, const VcArrival *e, unsigned l)
{
    unsigned came_down = lane_inlet(e->lane, vc->lane_shift) >> 1 & 1, going_down, down_port, up_port;
    if (lay->compact) {         /* (the route word's bits from l - 1 up, at once) */
        uint32_t t = lay->routes[e->x] >> (l - 1);
        going_down = came_down | ((t & (0xffffu >> (l - 1)) & ~1u) == 0);
        down_port = (t >> 16) & 1;
        up_port = 2 + (t & 1);
    } else {
        uint32_t up, down;
        packet_route(lay, e->x, &up, &down);
        going_down = came_down | ((up >> l) == 0);
        down_port = (down >> (l - 1)) & 1;
        up_port = 2 + ((up >> (l - 1)) & 1);
    }
    /* (Up or down is a toss-up: no branch.) */
    return down_port ^ ((down_port ^ up_port) & (going_down - 1));
}

/* Stage d for the packet in arrival e, come to switch s of layer l, whose
 * route names output port `out` there (aim): into channel v's buffer of
 * that port, if that has room; else it stays in its lane (a buffer
 * collision), whose bits are set again (stayed). */
HOT void forward(Net *net, const Layout *lay, VcNet *vc, const VcArrival *e, unsigned l,
                 unsigned out)
{
    uint32_t x = e->x, inlet = lane_inlet(e->lane, vc->lane_shift), s = inlet >> 2;
    unsigned v = lane_channel(e->lane, vc->lane_shift);
    bool going_down = out < 2;
    if (going_down && lay->multicast && lay->pool[x].set.hi != 0) {
        if (!forward_set(net, lay, vc, x, inlet, v, l))
            stayed(vc, e->lane);
        return;
    }
    uint32_t b = 4 * s + out;
    int chosen = -1;
    if (lay->cfg.adaptive && !going_down) {
        uint32_t up, down;
        packet_route(lay, x, &up, &down);
        unsigned c0 = port_at(vc, 4 * s + 2)->queue[v].count;
        unsigned c1 = port_at(vc, 4 * s + 3)->queue[v].count;
        chosen = c0 == c1 ? (int)((down >> (l - 1)) & 1) : c1 < c0;
        b = 4 * s + 2 + (unsigned)chosen;
    }
    if (full(vc, b, v)) {
        count_buffer_collisions(net, b, l, v, 1);
        tell(net, vc, EV_BUFFER_FULL, x, b * vc->V + v, PLACE_BUFFER, l, 0);
        stayed(vc, e->lane);
        return;
    }
    if (chosen >= 0) {
        uint32_t bit = (uint32_t)chosen << (l - 1);
        lay->pool[x].routing |= bit;
        if (lay->compact)
            lay->routes[x] |= bit;
    }
    vc->lanes[e->lane] = 0;
    enter(net, vc, x, b, v, l, true);
    if (chosen >= 0)
        tell(net, vc, EV_ADAPTIVE_CHOICE, x, b * vc->V + v, PLACE_BUFFER, l, (unsigned)chosen);
}

/* The packets in lanes [lo, hi), which lead to switches, gathered into
 * vc->arrived in the order of the lanes: by switch, and inside a switch
 * by port, d0 to u1, then channel, the spec's order there. Returns how
 * many. Their lanes' bits are cleared, and a word of lane_words whose
 * lanes are all in the range: stage d sets them again for a packet that
 * stays (stayed). */
HOT size_t gather(VcNet *vc, uint32_t lo, uint32_t hi)
{
    uint32_t *words = vc->order;
    size_t n = set_bits(vc->lane_words, lo >> 6, (hi + 63) >> 6, words), k = 0;
    for (size_t i = 0; i < n; i++) {
        if (i + AHEAD_LANES < n) {      /* (the lines of 16 lanes that hold a packet) */
            uint32_t ahead = words[i + AHEAD_LANES];
            for (uint64_t m = vc->lane_busy[ahead]; m != 0;) {
                unsigned line = (unsigned)__builtin_ctzll(m) & ~15u;
                PREFETCH(&vc->lanes[(size_t)ahead << 6 | line]);
                m &= ~0ull << line << 16;
            }
        }
        uint32_t w = words[i];
        uint64_t busy = vc->lane_busy[w], in = bits_in(w, lo, hi);
        if ((busy & ~in) == 0)
            bit_clear(vc->lane_words, w);
        vc->lane_busy[w] = busy & ~in;
        for (uint64_t m = busy & in; m != 0; m &= m - 1) {
            uint32_t lane = w << 6 | (uint32_t)__builtin_ctzll(m);
            vc->arrived[k++] = (VcArrival){ vc->lanes[lane], lane };
        }
    }
    return k;
}

/* Stage d for e[i], whose port is in outs (forward_all), which then
 * holds e[i + AHEAD_BUFFER]'s, that packet's buffers asked for. */
HOT void forward_aiming(Net *net, const Layout *lay, VcNet *vc, const VcArrival *e, size_t i,
                        unsigned l, uint8_t *outs)
{
    unsigned out = outs[i % AHEAD_BUFFER];
    const VcArrival *f = &e[i + AHEAD_BUFFER];
    unsigned ahead = aim(lay, vc, f, l);
    outs[i % AHEAD_BUFFER] = (uint8_t)ahead;
    PREFETCH(&port_at(vc, 4 * (lane_inlet(f->lane, vc->lane_shift) >> 2) + ahead)
                  ->queue[lane_channel(f->lane, vc->lane_shift)]);
    forward(net, lay, vc, &e[i], l, out);
}

/* Stage d for the n packets gathered, all come to switches of layer l,
 * in their order, each one's route and port asked for ahead. */
HOT void forward_all(Net *net, const Layout *lay, VcNet *vc, const VcArrival *e, size_t n,
                     unsigned l)
{
    uint8_t outs[AHEAD_BUFFER];     /* (the ports of e[i] to e[i + AHEAD_BUFFER - 1]) */
    size_t i;
    for (i = 0; i < n && i < AHEAD_BUFFER; i++)
        outs[i] = (uint8_t)aim(lay, vc, &e[i], l);
    /* (Most packets are far from the end, and their loop tests no more
     * than that.) */
    for (i = 0; i + AHEAD_ROUTE < n; i++) {
        if (lay->compact)
            PREFETCH(&lay->routes[e[i + AHEAD_ROUTE].x]);
        forward_aiming(net, lay, vc, e, i, l, outs);
    }
    for (; i + AHEAD_BUFFER < n; i++)
        forward_aiming(net, lay, vc, e, i, l, outs);
    for (; i < n; i++)
        forward(net, lay, vc, &e[i], l, outs[i % AHEAD_BUFFER]);
}

/* After stage d for n packets come to switches. Entering an empty buffer
 * leaves the largest occupancy alone (enter): if one of them did, it is
 * at least 1; if none did, they all found their buffers full, and it is
 * already. */
static inline void entered_some(Net *net, size_t n)
{
    if (n != 0 && net->counts.stats.max_buffer == 0)
        net->counts.stats.max_buffer = 1;
}

/* ---- e. claims made final ------------------------------------------------------------ */

/* The claim cl made final: the sender's packet (an adapter's, or a
 * port's) moves into its lane, and the switch or processor the lane leads
 * to is marked for stage d or c of the next timestep. */
HOT void commit(Net *net, const Layout *lay, VcNet *vc, const VcClaim *cl, bool adapter)
{
    uint32_t x, h = cl->sender, inlet = cl->inlet;
    unsigned v = cl->v;
    if (adapter) {
        uint32_t p = adapter_proc(lay, h);
        x = lay->out_slot[p];
        lay->out_slot[p] = NET_NIL;
        bit_clear(vc->full_slots, p);
        list_push(&net->woken, p);
    } else {
        VcPort *pt = port_at(vc, h);
        VcQueue *q = &pt->queue[v];
        x = q->head;
        unsigned left = --q->count;
        /* (Without a branch on whether the buffer or port is left empty,
         * as in enter; with none left, the head means nothing.) */
        q->head = left >= 2 ? vc->next[x] : q->tail;
        pt->nonempty &= (uint8_t)~((left == 0) << v);
        /* (The pointer goes round by a mask when V is a power of two.) */
        pt->pointer = (uint8_t)((vc->V & (vc->V - 1)) == 0 ? (v + 1) & (vc->V - 1)
                                                           : v + 1 == vc->V ? 0 : v + 1);
        vc->busy_ports[h >> 6] &= ~((uint64_t)(pt->nonempty == 0) << (h & 63));
    }
    uint32_t lane = lane_word(inlet, v, vc->lane_shift);
    vc->lanes[lane] = x;
    bit_set(vc->lane_busy, lane);
    if (inlet >= vc->nswitch_inlets)
        bit_set(vc->arrivals, inlet & (lay->nprocs - 1));
    else
        bit_set(vc->lane_words, lane >> 6);
    net->counts.stats.links_crossed++;
    net->moved = true;
    if (vc->eager) {
        unsigned layer = 1;
        if (!adapter)                       /* (the link's layer) */
            layer = sw_layer(lay, h >> 2) + ((h & 3) >= 2);
        place_on_lane(net, x, inlet, v);
        tell(net, vc, EV_CLAIMED, x, vc->channel_of[inlet] * vc->V + v, PLACE_LINK, layer, 0);
    }
}

/* ---- a, b. claims ---------------------------------------------------------------- */

/* Whether the temp slot of a link is free. Only with --duplex half can
 * two senders claim one; with --duplex full the link's own sender always
 * finds it free. */
static inline bool temp_free(const VcNet *vc, uint32_t link)
{
    return !vc->has_temp || vc->temp[link] != vc->now;
}

/* A claim of lane v of an inlet, over a link. Without an observer it is
 * made final at once: what stage e would change is read by nobody else in
 * stages a and b. The sender's buffer and the lane are its own; the temp
 * slot stays claimed, so that the other end of a --duplex half link is
 * held up as it would be by the claim; and with the temp slot taken every
 * channel of that end that holds a packet collides, whether or not its
 * lane is free, so a lane filled early changes no count. With an
 * observer, claims wait for stage e, so that events come in the spec's
 * order. */
HOT void claim(Net *net, const Layout *lay, VcNet *vc, uint32_t sender, bool adapter,
               uint32_t inlet, uint32_t link, unsigned v)
{
    VcClaim cl = { sender, inlet, v };
    if (vc->has_temp)
        vc->temp[link] = vc->now;
    if (vc->eager)
        vc->claims[vc->nclaims++] = cl;
    else
        commit(net, lay, vc, &cl, adapter);
}

/* Stage a for processor p's output slot: its packet claims the temp slot
 * of its first link if its lane is free (it always is unclaimed: stage a
 * comes first); else a link collision. */
HOT void adapter_claims(Net *net, const Layout *lay, VcNet *vc, uint32_t p)
{
    uint32_t x = lay->out_slot[p];
    const Packet *pk = &lay->pool[x];
    unsigned v = pk->port % vc->V;
    uint32_t link = proc_link(lay, p, pk->plane), inlet = up_inlet(link);
    unsigned busy = inlet_busy(vc, inlet);
    if (vc->has_temp)
        busy |= inlet_busy(vc, proc_inlet(lay, vc, p, pk->plane));
    if (!(busy >> v & 1)) {
        claim(net, lay, vc, adapter_sender(lay, pk->plane, p), true, inlet, link, v);
        return;
    }
    count_link_collision(net, DIR_UP, 1, v);
    tell(net, vc, EV_LINK_COLLISION, x, vc->channel_of[inlet] * vc->V + v, PLACE_LINK, 1, 0);
}

/* Stage a for every processor with a packet in its output slot, in
 * processor order, each packet's record asked for ahead. */
HOT void adapters_claim(Net *net, const Layout *lay, VcNet *vc)
{
    size_t n = set_bits(vc->full_slots, 0, lay->nprocs, vc->order);
    for (size_t i = 0; i < n; i++) {
        if (i + AHEAD_PORT < n)
            PREFETCH(&lay->pool[lay->out_slot[vc->order[i + AHEAD_PORT]]]);
        adapter_claims(net, lay, vc, vc->order[i]);
    }
}

/* The channels of port b in mask turn (bit i: channel from + i) are held
 * up in stage b: a link collision each, in that order. (A claim that
 * stage e does not wait for has already moved the port's pointer.) */
static inline void held_up(Net *net, const Layout *lay, VcNet *vc, uint32_t b, unsigned from,
                           unsigned turn)
{
    if (turn == 0)
        return;
    const VcPort *pt = port_at(vc, b);
    unsigned V = vc->V, up = b >> 1 & 1;
    unsigned dir = up ? DIR_UP : DIR_DOWN, layer = sw_layer(lay, b >> 2) + up;
    for (; turn != 0; turn &= turn - 1) {
        unsigned v = from + (unsigned)__builtin_ctz(turn);
        v = v >= V ? v - V : v;
        count_link_collision(net, dir, layer, v);
        tell(net, vc, EV_LINK_COLLISION, pt->queue[v].head, vc->channel_of[pt->inlet] * V + v,
             PLACE_LINK, layer, 0);
    }
}

/* Stage b for output port b, which held a packet at the start of stage d:
 * its channel buffers that did, in round-robin order from its pointer;
 * the first whose lane is free claims the temp slot (if it is still
 * unclaimed), and every other one is held up: a link collision each. */
HOT void port_claims(Net *net, const Layout *lay, VcNet *vc, uint32_t b)
{
    VcPort *pt = port_at(vc, b);
    unsigned V = vc->V, from = pt->pointer;
    unsigned held = pt->nonempty & ~(unsigned)pt->newly, second = pt->second;
    pt->newly = pt->second = 0;
    uint32_t inlet = pt->inlet;
    unsigned busy = inlet_busy(vc, inlet);
    if (vc->has_temp)           /* (the other direction comes to inlet b) */
        busy |= inlet_busy(vc, b);
    unsigned rule = V <= ROBIN_TABLE_V ? vc->robin[from << 2 * V | held << V | busy]
                                       : round_robin(V, from, held, busy);
    unsigned colliding = robin_held_up(rule);
    if (robin_claimant_plus_1(rule) != 0) {
        unsigned v = robin_claimant_plus_1(rule) - 1;
        uint32_t link = link_of_port(vc, b);    /* (read only with --duplex half) */
        if (!temp_free(vc, link))               /* (all held up) */
            colliding |= 1u << (v >= from ? v - from : v + V - from);
        else {
            claim(net, lay, vc, b, false, inlet, link, v);
            if (second >> v & 1)            /* (the packet behind is at the head) */
                count_buffer_collisions(net, b, sw_layer(lay, b >> 2), v, -1);
        }
    }
    held_up(net, lay, vc, b, from, colliding);
}

/* Stage b for the n ports listed, in their order, the records each one
 * needs asked for ahead. */
HOT void claims_from(Net *net, const Layout *lay, VcNet *vc, const uint32_t *ports, size_t n)
{
    size_t i;
    for (i = 0; i + AHEAD_PORT < n; i++) {
        const char *ahead = (const char *)port_at(vc, ports[i + AHEAD_PORT]);
        PREFETCH(ahead);                        /* (a record may span two lines) */
        PREFETCH(ahead + vc->port_size - 1);
        port_claims(net, lay, vc, ports[i]);
    }
    for (; i < n; i++)
        port_claims(net, lay, vc, ports[i]);
}

/* With an observer, after stage e: a packet that entered a buffer in stage
 * d and is not at its head now queues behind another packet: a buffer
 * collision. It is at the head if nothing was ahead of it (those are not
 * listed), or one packet that left in stage e (a buffer sends one packet
 * a timestep). */
HOT void queued_collisions(Net *net, const Layout *lay, VcNet *vc)
{
    for (size_t i = 0; i < vc->nentered; i++) {
        const VcEntered *e = &vc->entered[i];
        if (e->behind == 1 && port_at(vc, e->b)->queue[e->v].head == e->x)
            continue;       /* (the packet ahead left) */
        unsigned l = sw_layer(lay, e->b >> 2);
        count_buffer_collisions(net, e->b, l, e->v, 1);
        tell(net, vc, EV_QUEUED, e->x, e->b * vc->V + e->v, PLACE_BUFFER, l, 0);
    }
}

/* The next stage's number; when the numbers wrap, every temp slot's
 * stamp is made old again, so that none is ever mistaken for the new
 * stage's. */
static void next_stage(VcNet *vc)
{
    if (++vc->now != 0)
        return;
    if (vc->has_temp)
        memset(vc->temp, 0, vc->nlinks * sizeof *vc->temp);
    vc->now = 1;
}

void vc_set_stage(VcNet *vc, uint32_t now) { vc->now = now; }

/* The spec's order of stage d: the spec's link loop, and a link's lanes
 * in channel order. */
static int in_link_order(const void *a, const void *b)
{
    const VcSorted *e = a, *f = b;
    if (e->position != f->position)
        return e->position < f->position ? -1 : 1;
    return (e->v > f->v) - (e->v < f->v);
}

/* Stage b for the ports in bits [lo, hi) of held_ports, in port order. */
HOT void claims_in(Net *net, const Layout *lay, VcNet *vc, uint32_t lo, uint32_t hi)
{
    claims_from(net, lay, vc, vc->order, set_bits(vc->held_ports, lo, hi, vc->order));
}

/* Stage 4 in the spec's order (the head of this file), stage d's packets
 * gathered and sorted: for an observer, who sees events in that order,
 * and for multicasts, whose copies take ids in it. */
HOT void run_stages(Net *net, const Layout *lay, VcNet *vc)
{
    deliveries(net, lay, vc);                                       /* c */
    memcpy(vc->held_ports, vc->busy_ports, (lay->nbuffers + 63) / 64 * sizeof *vc->held_ports);
    size_t n = gather(vc, 0, lane_word(vc->nswitch_inlets, 0, vc->lane_shift));  /* d */
    for (size_t i = 0; i < n; i++) {
        uint32_t lane = vc->arrived[i].lane;
        vc->sorted[i] = (VcSorted){ vc->arrived[i],
                                    vc->position[vc->channel_of[lane_inlet(lane, vc->lane_shift)]],
                                    lane_channel(lane, vc->lane_shift) };
    }
    qsort(vc->sorted, n, sizeof *vc->sorted, in_link_order);
    for (size_t i = 0; i < n; i++) {
        const VcArrival *e = &vc->sorted[i].a;
        unsigned l = sw_layer(lay, lane_inlet(e->lane, vc->lane_shift) >> 2);
        forward(net, lay, vc, e, l, aim(lay, vc, e, l));
    }
    entered_some(net, n);
    adapters_claim(net, lay, vc);                                   /* a */
    claims_in(net, lay, vc, 0, lay->nbuffers);                      /* b */
    for (size_t i = 0; i < vc->nclaims; i++)                        /* e */
        commit(net, lay, vc, &vc->claims[i], is_adapter(lay, vc->claims[i].sender));
    if (vc->eager)
        queued_collisions(net, lay, vc);
}

/* Copies bits [lo, hi) of src to dst. */
static inline void copy_bits(uint64_t *dst, const uint64_t *src, uint32_t lo, uint32_t hi)
{
    for (uint32_t w = lo >> 6; w < (hi + 63) >> 6; w++) {
        uint64_t mask = bits_in(w, lo, hi);
        dst[w] = (dst[w] & ~mask) | (src[w] & mask);
    }
}

/* Stage 4 a layer at a time, as step.c does it, so that stage b finds the
 * records that stage d wrote still in the cache: stage d for the packets
 * coming to the switches of layer l, then stage b for the ports of layer
 * l - 1, which needed only stages d at l - 2 and l (the switches their
 * links reach) to have run, and stage a after stage d at layer 1. The
 * outcome is the spec's. In stage d only packets entering one switch
 * compete, and those on one channel only (for a buffer, or for adaptive's
 * choice): a switch's lanes taken in the order of its ports, d0 to u1, are
 * in the spec's order among them. In stage b, claims compete only at the
 * two ends of a --duplex half link, whose lower end still claims first.
 * Copies of multicasts take ids in stage d's order, and observers see
 * events in it, so those runs take run_stages.
 *
 * Both stages go through their switches and ports in order, so that they
 * sweep memory rather than jump about in it. */
HOT void run_layered(Net *net, const Layout *lay, VcNet *vc)
{
    deliveries(net, lay, vc);                                       /* c */
    unsigned k = lay->cfg.k;
    for (unsigned l = 1; l <= k + 1; l++) {
        if (l <= k)                                                 /* d at l */
            for (unsigned plane = 0; plane < lay->cfg.planes; plane++) {
                uint32_t s0 = (plane * k + l - 1) << (k - 1);
                copy_bits(vc->held_ports, vc->busy_ports, 4 * s0, 4 * (s0 + lay->half));
                size_t n = gather(vc, lane_word(4 * s0, 0, vc->lane_shift),
                                  lane_word(4 * (s0 + lay->half), 0, vc->lane_shift));
                forward_all(net, lay, vc, vc->arrived, n, l);
                entered_some(net, n);
            }
        if (l == 1) {
            adapters_claim(net, lay, vc);                           /* a */
            continue;
        }
        for (unsigned plane = 0; plane < lay->cfg.planes; plane++) {   /* b at l - 1 */
            uint32_t s0 = (plane * k + l - 2) << (k - 1);
            claims_in(net, lay, vc, 4 * s0, 4 * (s0 + lay->half));
        }
    }
}

/* How many packets are in lanes that lead to switches: found by the
 * words of lane_busy that lane_words marks. */
static size_t lanes_to_switches(const VcNet *vc)
{
    size_t n = 0;
    uint32_t end = lane_word(vc->nswitch_inlets, 0, vc->lane_shift);
    for (uint32_t w = 0; next_bit(vc->lane_words, &w, (end + 63) >> 6); w++)
        n += (size_t)__builtin_popcountll(vc->lane_busy[w] & bits_in(w, 0, end));
    return n;
}

void vc_step(Net *net)
{
    VcNet *state = net->lay.vc;
    /* Each packet in flight is in one lane at most, and enters at most
     * one buffer in stage d (two, split); each slot or port makes at most
     * one claim. */
    if (net->event) {
        state->entered = grow(state->entered, &state->entered_cap,
                              2 * (size_t)net->in_flight + 2, sizeof *state->entered);
        state->claims = grow(state->claims, &state->claims_cap, net->in_flight + 1,
                             sizeof *state->claims);
    }
    bool layered = net->event == NULL && !net->lay.multicast;
    state->arrived = grow(state->arrived, &state->arrived_cap, (size_t)net->in_flight + 1,
                          sizeof *state->arrived);
    if (!layered)
        state->sorted = grow(state->sorted, &state->sorted_cap, (size_t)net->in_flight + 1,
                             sizeof *state->sorted);
    /* (Stage d's list of the words of lane_words, as its other lists,
     * holds no more than the words there are.) */
    size_t most = net->in_flight > state->nwords ? net->in_flight : state->nwords;
    state->order = grow(state->order, &state->order_cap, most + 1, sizeof *state->order);
    net_list_reserve(&net->woken, 2 * net->in_flight + 2);
    if (net->lay.multicast)         /* (stage d splits each packet once at most) */
        pool_reserve(net, lanes_to_switches(state));
    if (state->next_cap < net->pool_cap) {      /* (every packet, copies included) */
        size_t cap = state->next_cap;
        state->next = grow(state->next, &cap, net->pool_cap, sizeof *state->next);
        state->next_cap = (uint32_t)cap;
    }
    next_stage(state);
    state->nentered = 0;
    state->nclaims = 0;
    state->eager = net->event != NULL;
    /* The stages work on copies of the layout and of this state: through
     * pointers into `net`, the compiler would have to read every field
     * again after each store of a byte (a mask), since it might change it.
     * What they change is in the arrays the copies point to, in `net`, and
     * in the copy of the state, which is kept at the end. */
    Layout lay_copy = net->lay;
    VcNet copy = *state;
    /* The common case, four channels in a full-duplex network routed
     * obliviously, has a copy of the stages of its own, compiled with
     * those as constants: V's arithmetic and the tests for the other
     * cases fall away. */
    if (layered && copy.V == 4 && !copy.has_temp && lay_copy.compact && !lay_copy.cfg.adaptive) {
        copy.V = 4;
        copy.has_temp = false;
        copy.port_size = (unsigned)VC_PORT_SIZE(4);
        copy.lane_shift = 2;
        lay_copy.cfg.full_duplex = true;
        lay_copy.compact = true;
        lay_copy.cfg.adaptive = false;
        lay_copy.multicast = false;
        copy.eager = false;
        run_layered(net, &lay_copy, &copy);
    } else if (layered)
        run_layered(net, &lay_copy, &copy);
    else
        run_stages(net, &lay_copy, &copy);
    *state = copy;
}

/* ---- its invariants ----------------------------------------------------------------- */

/* The inlets against the tables and the lanes: every inlet where the
 * topology says its senders send, a lane's bit set exactly when it holds
 * a packet (and its word's, for a switch's lane), the lanes of a --duplex
 * half link's two directions never both full, and the bits of the
 * processors with packets coming down to them set exactly for those. */
static int check_inlets(const Net *net, char *err, size_t size)
{
    const VcNet *vc = net->lay.vc;
    const Layout *lay = &net->lay;
    char name[64];
    for (uint32_t b = 0; b < lay->nbuffers; b++) {
        if ((b & 3) >= 2 && sw_layer(lay, b >> 2) == lay->cfg.k)
            continue;
        const VcPort *pt = port_at(vc, b);
        uint32_t link, inlet = sender_inlet(lay, vc, b, &link);
        if (pt->inlet != inlet || link_of_port(vc, b) != link ||
            b != ((b & 3) >= 2 ? vc->down_inlet[link] : up_inlet(link)) ||
            vc->channel_of[inlet] != link_wire(lay, link, (b & 3) >= 2 ? DIR_UP : DIR_DOWN)) {
            net_buffer_name(net, b * vc->V, name, sizeof name);
            snprintf(err, size, "net/%s: its port's inlet or link is wrong", name);
            return -1;
        }
    }
    for (uint32_t p = 0; p < lay->nprocs; p++)
        for (unsigned plane = 0; plane < lay->cfg.planes; plane++) {
            uint32_t link, inlet = sender_inlet(lay, vc, adapter_sender(lay, plane, p), &link);
            if (link != proc_link(lay, p, plane) || inlet != up_inlet(link) ||
                vc->down_inlet[link] != proc_inlet(lay, vc, p, plane)) {
                snprintf(err, size, "net/p%u: its link's inlets are wrong", p);
                return -1;
            }
        }
    for (uint32_t lane = 0; lane < vc->ninlets << vc->lane_shift; lane++) {
        uint32_t inlet = lane_inlet(lane, vc->lane_shift);
        bool busy = vc->lanes[lane] != NET_NIL;
        bool unused = lane_channel(lane, vc->lane_shift) >= vc->V ||
                      (inlet < vc->nswitch_inlets && (inlet & 2) &&
                       sw_layer(lay, inlet >> 2) == lay->cfg.k);   /* (no link above) */
        if (unused && busy) {
            snprintf(err, size, "net: a lane that no link has (inlet %u) holds a packet", inlet);
            return -1;
        }
        if (busy != bit_is(vc->lane_busy, lane) ||
            (busy && inlet < vc->nswitch_inlets && !bit_is(vc->lane_words, lane >> 6))) {
            net_link_name(net, wire_link(lay, vc->channel_of[inlet]), name, sizeof name);
            snprintf(err, size, "net/%s vc%u: its lane's bits are wrong", name,
                     lane_channel(lane, vc->lane_shift));
            return -1;
        }
    }
    for (uint32_t link = 0; link < vc->nlinks && vc->has_temp; link++)
        if ((inlet_busy(vc, up_inlet(link)) & inlet_busy(vc, vc->down_inlet[link])) != 0 ||
            vc->temp[link] > vc->now) {
            net_link_name(net, link, name, sizeof name);
            snprintf(err, size, "net/%s: a lane holds two packets, or its temp slot is wrong",
                     name);
            return -1;
        }
    for (uint32_t p = 0; p < lay->nprocs; p++) {
        bool coming = false;
        for (unsigned plane = 0; plane < lay->cfg.planes; plane++)
            coming |= inlet_busy(vc, proc_inlet(lay, vc, p, plane)) != 0;
        if (coming != bit_is(vc->arrivals, p)) {
            snprintf(err, size, "net/p%u: its bit of packets coming down to it is wrong", p);
            return -1;
        }
    }
    return 0;
}

int vc_check(const Net *net, char *err, size_t size)
{
    const VcNet *vc = net->lay.vc;
    const Layout *lay = &net->lay;
    char name[64];
    for (uint32_t b = 0; b < lay->nbuffers; b++) {
        const VcPort *pt = port_at(vc, b);
        for (unsigned v = 0; v < vc->V; v++) {
            const VcQueue *q = &pt->queue[v];
            if ((q->count != 0) != (pt->nonempty >> v & 1)) {
                net_buffer_name(net, b * vc->V + v, name, sizeof name);
                snprintf(err, size, "net/%s: its port's mask of busy buffers is wrong", name);
                return -1;
            }
            uint32_t x = q->head, i = 1;    /* the thread reaches the tail */
            while (q->count >= 3 && i < q->count && x < vc->next_cap) {
                x = vc->next[x];
                i++;
            }
            if (q->count == 2)
                x = q->tail;
            if (q->count > vc->B || (q->count != 0 && x != q->tail)) {
                net_buffer_name(net, b * vc->V + v, name, sizeof name);
                snprintf(err, size, "net/%s: its count or list is wrong", name);
                return -1;
            }
        }
        if ((pt->nonempty != 0) != bit_is(vc->busy_ports, b) || pt->newly != 0 ||
            pt->second != 0 || pt->pointer >= vc->V) {
            net_buffer_name(net, b * vc->V, name, sizeof name);
            snprintf(err, size, "net/%s: its port's busy bit, stage-d marks or pointer is wrong", name);
            return -1;
        }
    }
    for (uint32_t p = 0; p < lay->nprocs; p++) {
        uint32_t x = lay->out_slot[p];
        if ((x != NET_NIL) != bit_is(vc->full_slots, p)) {
            snprintf(err, size, "net/p%u: its output slot's bit is wrong", p);
            return -1;
        }
    }
    return check_inlets(net, err, size);
}
